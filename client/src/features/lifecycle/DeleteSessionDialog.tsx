import { useId, useState } from 'react';
import { formatCount } from '../../app/format';
import { ModalDialog } from '../../app/ModalDialog';
import { OperationErrorNotice, type OperationError } from '../../app/OperationErrorNotice';
import type { ErasureScope } from '../../gql/graphql';
import { useEraseSession } from './useEraseSession';

interface DeleteSessionDialogProps {
  session: { id: string; title: string; eventCount: number };
  /** The sessions of its lineage (itself included), when it has one of more than one session. */
  lineageTitles: string[];
  onClose(): void;
  /** The erasure committed. */
  onErased(scope: ErasureScope): void;
}

/**
 * Deleting for good: the person chooses this session or its whole lineage, reads what goes, says
 * why (the receipt keeps it) and types the conversation's title to confirm. Ids, order, edges and
 * hashes stay, so what remains still verifies; the content does not come back.
 */
export function DeleteSessionDialog({ session, lineageTitles, onClose, onErased }: DeleteSessionDialogProps) {
  const headingId = useId();
  const [scope, setScope] = useState<ErasureScope>(lineageTitles.length > 1 ? 'LINEAGE' : 'SESSION');
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  const [refusal, setRefusal] = useState<OperationError | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { erase, erasing } = useEraseSession();
  const confirmed = typed.trim() === session.title.trim() && reason.trim() !== '';
  const going = scope === 'LINEAGE' ? lineageTitles : [session.title];

  async function submit() {
    setRefusal(null);
    setFailure(null);
    try {
      const outcome = await erase(session.id, scope, reason.trim());
      if (outcome.__typename === 'OperationError') return setRefusal(outcome);
      onErased(scope);
    } catch (caught) {
      setFailure(caught instanceof Error ? caught.message : String(caught));
    }
  }

  return (
    <ModalDialog labelledBy={headingId} className="delete-dialog" onClose={onClose}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed && !erasing) void submit();
        }}
      >
        <h2 id={headingId}>Delete for good</h2>
        {lineageTitles.length > 1 && (
          <fieldset className="delete-scope">
            <legend>What to delete</legend>
            <label>
              <input type="radio" name="scope" checked={scope === 'LINEAGE'} onChange={() => setScope('LINEAGE')} /> The whole conversation ({formatCount(lineageTitles.length, 'session')})
            </label>
            <label>
              <input type="radio" name="scope" checked={scope === 'SESSION'} onChange={() => setScope('SESSION')} /> This session only
            </label>
          </fieldset>
        )}
        <div className="notice notice-warning">
          <p>
            The text of every message, the attachments no other message links, the plans, the handoffs and what search knows of{' '}
            {going.length > 1 ? 'these sessions' : 'this session'} go for good:
          </p>
          <ul className="delete-list">
            {going.map((title, index) => (
              <li key={`${index}-${title}`}>{title}</li>
            ))}
          </ul>
          <p>
            {scope === 'SESSION' ? `${formatCount(session.eventCount, 'event')} here. ` : ''}Their order, links and hashes stay, so the rest still verifies. A
            receipt records who, when and why.
          </p>
        </div>
        <label className="field">
          <span>Why (kept on the receipt)</span>
          <input type="text" value={reason} maxLength={1000} required onChange={(event) => setReason(event.target.value)} />
        </label>
        <label className="field">
          <span>
            Type <strong>{session.title}</strong> to confirm
          </span>
          <input type="text" value={typed} autoComplete="off" spellCheck={false} onChange={(event) => setTyped(event.target.value)} />
        </label>
        {refusal && <OperationErrorNotice lead="Nothing was deleted." error={refusal} />}
        {failure && (
          <p className="notice notice-error" role="alert">
            Nothing was deleted: {failure}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button button-quiet" onClick={onClose}>
            Keep it
          </button>
          <button type="submit" className="button button-danger" disabled={!confirmed || erasing}>
            {erasing ? 'Deleting…' : scope === 'LINEAGE' ? 'Delete the conversation' : 'Delete this session'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
