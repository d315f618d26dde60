import { useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { useNavigate } from 'react-router';
import { useSignedInKey } from '../../app/auth';
import { importFile } from './portability';

/**
 * Imports a conversation: a bundle exported from any server of this kind (.zip), or a transcript
 * in the OpenAI chat format (.json). Opens what was imported; says why when nothing was.
 */
export function ImportButton({ className = 'button', onImported }: { className?: string; onImported?(): void }) {
  const input = useRef<HTMLInputElement>(null);
  const apiKey = useSignedInKey();
  const navigate = useNavigate();
  const client = useApolloClient();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  async function send(file: File) {
    if (!apiKey) return;
    setState({ busy: true, error: null });
    const result = await importFile(apiKey, file).catch((error: unknown) => ({ ok: false as const, message: error instanceof Error ? error.message : String(error) }));
    if (!result.ok) return setState({ busy: false, error: result.message });
    setState({ busy: false, error: null });
    await client.refetchQueries({ include: 'active' });
    onImported?.();
    void navigate(`/sessions/${result.rootSessionId}`);
  }

  return (
    <>
      <button type="button" className={className} disabled={state.busy} onClick={() => input.current?.click()}>
        {state.busy ? 'Importing…' : 'Import a conversation'}
      </button>
      <input
        ref={input}
        type="file"
        accept=".zip,.json,application/zip,application/json"
        aria-label="Conversation to import (.zip bundle or .json transcript)"
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void send(file);
        }}
      />
      {state.error && (
        <p className="notice notice-error" role="alert">
          Nothing was imported: {state.error}
        </p>
      )}
    </>
  );
}
