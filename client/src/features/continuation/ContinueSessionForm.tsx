import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { OperationErrorNotice, type OperationError } from '../../app/OperationErrorNotice';
import { useIdempotentSubmit } from '../../app/useIdempotentSubmit';
import { ContinuationPreview } from './ContinuationPreview';
import { ContinueSessionFields } from './ContinueSessionFields';
import { RecommendedSourcesChoice } from './RecommendedSourcesChoice';
import { useContinuationDraft, type DraftSession } from './useContinuationDraft';
import type { ContinuationInitiation } from './useContinuationFollower';
import { useContinueSession } from './useContinueSession';

type Problem = { kind: 'refused'; error: OperationError } | { kind: 'failed'; message: string };

export interface ContinueSessionFormProps {
  session: DraftSession;
  /** Text of the session's latest user message: the default current request. */
  latestUserMessage: string;
  initiation: ContinuationInitiation;
  titleId: string;
  /** Closes the dialog: on cancel, or once the successor exists. */
  onDone(): void;
}

/**
 * The dialog's form: the draft, its preview and the confirmation, sent once per request (a retry
 * after a lost answer cannot create a second successor). Loaded when the dialog first opens.
 */
export default function ContinueSessionForm({ session, latestUserMessage, initiation, titleId, onDone }: ContinueSessionFormProps) {
  const [problem, setProblem] = useState<Problem | null>(null);
  const { submit, submitting, forget } = useIdempotentSubmit();
  // A refusal answered the request as it was; the preview now speaks for the edited one.
  const onEdit = () => {
    forget();
    setProblem(null);
  };
  const { fields, edit, draft, preview, recommendations, dropped, toggleRecommendation, defaultBudget } = useContinuationDraft(
    session,
    latestUserMessage,
    onEdit,
  );
  const { continueSession } = useContinueSession();
  const problemRef = useRef<HTMLDivElement>(null);
  const sessionNames = useMemo(() => ({ [session.id]: `this session “${session.title}”` }), [session.id, session.title]);

  // On very short screens the whole dialog scrolls: bring a refusal into view beside the button that caused it.
  useEffect(() => {
    if (problem) problemRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [problem]);

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setProblem(null);
    initiation.begin();
    try {
      const result = await submit((idempotencyKey) => continueSession({ ...draft, idempotencyKey }));
      if (!result) return;
      if (result.__typename === 'OperationError') {
        // Nothing was written: a corrected request is a new one.
        initiation.abandon();
        setProblem({ kind: 'refused', error: result });
        return;
      }
      initiation.follow({ edgeId: result.edge.id, successorId: result.successor.id, successorTitle: result.successor.title });
      onDone();
    } catch (caught) {
      initiation.abandon();
      setProblem({ kind: 'failed', message: caught instanceof Error ? caught.message : String(caught) });
    }
  }

  return (
    <form className="continue-form stack" onSubmit={(event) => void confirm(event)}>
      <h2 id={titleId}>Continue in new session</h2>
      <p className="hint">
        This session stays complete and readable. The new one starts from your handoff, the latest message and links to this whole
        conversation.
      </p>
      <div className="continue-columns">
        <ContinueSessionFields fields={fields} onChange={edit} defaultBudget={defaultBudget} />
        <ContinuationPreview preview={preview} sessionNames={sessionNames}>
          {recommendations && <RecommendedSourcesChoice recommendations={recommendations} dropped={dropped} onToggle={toggleRecommendation} />}
        </ContinuationPreview>
      </div>
      <div ref={problemRef}>
        {problem &&
          (problem.kind === 'refused' ? (
            <OperationErrorNotice lead="The session was not continued." error={problem.error} />
          ) : (
            <p className="notice notice-error" role="alert">
              The session was not continued: {problem.message}
            </p>
          ))}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={submitting}>
          {submitting ? 'Continuing…' : 'Continue'}
        </button>
      </div>
    </form>
  );
}
