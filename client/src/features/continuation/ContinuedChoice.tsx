import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { OperationErrorNotice, type OperationError } from '../../app/OperationErrorNotice';
import { useIdempotentSubmit } from '../../app/useIdempotentSubmit';
import { usePostMessage } from '../transcript/usePostMessage';
import type { ContinuationInitiation } from './useContinuationFollower';
import './continuation.css';

interface ContinuedChoiceProps {
  sessionId: string;
  currentContinuation: { id: string; title: string };
  /** What the person tried to send here: it becomes the branch's first message. */
  draft?: string;
  initiation: ContinuationInitiation;
}

type Problem = { kind: 'refused'; error: OperationError } | { kind: 'failed'; message: string };

/**
 * Stands in for the composer of a continued session: writing here would split the conversation
 * silently, so the person either goes to where it continues or starts a branch on purpose.
 */
export function ContinuedChoice({ sessionId, currentContinuation, draft = '', initiation }: ContinuedChoiceProps) {
  const [branching, setBranching] = useState(draft !== '');
  const [text, setText] = useState(draft);
  const [problem, setProblem] = useState<Problem | null>(null);
  const { postMessage, posting } = usePostMessage();
  const { submit, forget } = useIdempotentSubmit();
  const titleId = useId();
  const inputId = useId();

  function edit(nextText: string) {
    setText(nextText);
    forget();
  }

  async function startBranch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const message = text.trim();
    if (message === '' || posting) return;
    setProblem(null);
    initiation.begin();
    try {
      const result = await submit((clientMessageId) => postMessage(sessionId, message, clientMessageId, { branch: true }));
      if (!result) return;
      if (result.__typename === 'OperationError') {
        initiation.abandon();
        setProblem({ kind: 'refused', error: result });
      } else if (!result.session.continuedFrom) {
        initiation.abandon();
        setProblem({ kind: 'failed', message: 'the server did not say which continuation received it.' });
      } else {
        initiation.follow({
          edgeId: result.session.continuedFrom.id,
          successorId: result.session.id,
          successorTitle: result.session.title,
        });
      }
    } catch (caught) {
      initiation.abandon();
      setProblem({ kind: 'failed', message: caught instanceof Error ? caught.message : String(caught) });
    }
  }

  return (
    <section className="continued-choice" aria-labelledby={titleId}>
      <h2 id={titleId}>This session was continued</h2>
      <p className="hint">
        It stays readable but takes no new messages. The conversation went on in “{currentContinuation.title}”.
      </p>
      <div className="continuation-actions">
        <Link to={`/sessions/${currentContinuation.id}`} className="button button-primary">
          Open current continuation
        </Link>
        {!branching && (
          <button type="button" className="button" onClick={() => setBranching(true)}>
            Branch into a new continuation
          </button>
        )}
      </div>
      {branching && (
        <form className="stack branch-form" onSubmit={(event) => void startBranch(event)}>
          <label htmlFor={inputId}>First message of the new branch</label>
          <textarea id={inputId} rows={2} autoFocus value={text} onChange={(event) => edit(event.target.value)} />
          {problem &&
            (problem.kind === 'refused' ? (
              <OperationErrorNotice lead="No branch was started." error={problem.error} />
            ) : (
              <p className="notice notice-error" role="alert">
                No branch was started: {problem.message}
              </p>
            ))}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setBranching(false)}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={posting || text.trim() === ''}>
              {posting ? 'Starting…' : 'Start branch'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
