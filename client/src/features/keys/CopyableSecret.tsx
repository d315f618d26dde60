import { useState } from 'react';

/** A secret shown once, selectable, with a button that copies it. */
export function CopyableSecret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <div className="copyable-secret">
      <label className="field">
        <span>{label}</span>
        <input type="text" readOnly value={value} onFocus={(event) => event.target.select()} />
      </label>
      <button type="button" className="button" onClick={() => void copy()}>
        Copy
      </button>
      <span role="status" className="hint">
        {copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'Copying was refused: select the text and copy it.' : ''}
      </span>
    </div>
  );
}
