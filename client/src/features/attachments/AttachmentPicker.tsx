import { useId, useRef } from 'react';
import { Icon } from '../../app/icons';
import { formatByteSize } from './attachments';
import type { DraftAttachment } from './useAttachmentUploads';
import './attachments.css';

interface AttachmentPickerProps {
  drafts: DraftAttachment[];
  onAdd(files: FileList): void;
  onRemove(id: string): void;
  disabled?: boolean;
}

/** The composer's "Attach files" button and the files chosen so far, each with its upload's progress. */
export function AttachmentPicker({ drafts, onAdd, onRemove, disabled }: AttachmentPickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  return (
    <div className="attachment-picker">
      <input
        ref={input}
        id={inputId}
        type="file"
        multiple
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Files to attach"
        onChange={(event) => {
          if (event.target.files?.length) onAdd(event.target.files);
          event.target.value = '';
        }}
      />
      <button type="button" className="button button-quiet attachment-button" disabled={disabled} onClick={() => input.current?.click()}>
        <Icon name="attach" /> Attach files
      </button>
      {drafts.length > 0 && (
        <ul className="attachment-drafts" aria-label="Attached files">
          {drafts.map((draft) => (
            <li key={draft.id} className={`attachment-draft attachment-draft-${draft.state}`}>
              <span className="attachment-draft-name">{draft.name}</span>
              {draft.state === 'uploading' && (
                <progress value={draft.sent} max={draft.total || 1} aria-label={`Uploading ${draft.name}`}>
                  {Math.round((draft.sent / (draft.total || 1)) * 100)}%
                </progress>
              )}
              {draft.state === 'uploaded' && <span className="hint">{formatByteSize(draft.attachment.byteSize)}</span>}
              {draft.state === 'failed' && (
                <span className="attachment-error" role="alert">
                  {draft.error}
                </span>
              )}
              <button type="button" className="button button-quiet" aria-label={`Remove ${draft.name}`} onClick={() => onRemove(draft.id)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
