import { useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type FormEvent, type Ref } from 'react';
import type { ContinueSessionMutation } from '../../gql/graphql';
import { OperationErrorNotice, type OperationError } from '../../app/OperationErrorNotice';
import { randomUUID } from '../../app/random-uuid';
import { ContinuationPreview } from './ContinuationPreview';
import { RecommendedSourcesChoice, recommendationAsSource, recommendationKey } from './RecommendedSourcesChoice';
import type { ContinuationInitiation } from './useContinuationFollower';
import { useContinueSession } from './useContinueSession';
import { useProjectionPreview, type ContinuationDraft } from './useProjectionPreview';
import './continuation.css';

type ContinueResult = ContinueSessionMutation['continueSession'];

/** The server's default; also what the successor gets when the person does not change it. */
const DEFAULT_TOKEN_BUDGET = 8000;
const MINIMUM_TOKEN_BUDGET = 64;

interface ContinueSessionFields {
  session: { id: string; title: string; eventCount: number };
  /** Text of the session's latest user message: the default current request. */
  latestUserMessage: string;
  initiation: ContinuationInitiation;
}

/** Opens the dialog from elsewhere on the page, e.g. the advice to continue beside the composer. */
export interface ContinueSessionHandle {
  open(): void;
}

interface ContinueSessionActionProps extends ContinueSessionFields {
  ref?: Ref<ContinueSessionHandle>;
}

type Problem = { kind: 'refused'; error: OperationError } | { kind: 'failed'; message: string };

/** One entry per non-empty line. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Filled in as the form requires, so the server has a request worth compiling. */
function isComplete(draft: ContinuationDraft, tokenBudgetField: string): boolean {
  return (
    draft.title !== '' &&
    draft.handoff.purpose !== '' &&
    draft.handoff.currentRequest !== '' &&
    tokenBudgetField.trim() !== '' &&
    Number.isInteger(draft.tokenBudget)
  );
}

/** "Continue in new session": a person carries the conversation into a fresh successor. */
export function ContinueSessionAction({ session, latestUserMessage, initiation, ref }: ContinueSessionActionProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const titleId = useId();

  // Modal before the form renders, so its first field takes focus as it mounts: the browser's own
  // pick would be the first scrolling column around the fields.
  function openDialog() {
    dialogRef.current?.showModal();
    setOpen(true);
  }
  useImperativeHandle(ref, () => ({ open: openDialog }));

  return (
    <>
      <button type="button" className="button" onClick={openDialog}>
        Continue in new session
      </button>
      <dialog
        ref={dialogRef}
        className="continue-dialog"
        aria-labelledby={titleId}
        onClose={() => setOpen(false)}
      >
        {open && (
          <ContinueSessionForm
            session={session}
            latestUserMessage={latestUserMessage}
            initiation={initiation}
            titleId={titleId}
            onDone={() => dialogRef.current?.close()}
          />
        )}
      </dialog>
    </>
  );
}

interface ContinueSessionFormProps extends ContinueSessionFields {
  titleId: string;
  /** Closes the dialog: on cancel, or once the successor exists. */
  onDone(): void;
}

function ContinueSessionForm({ session, latestUserMessage, initiation, titleId, onDone }: ContinueSessionFormProps) {
  const [title, setTitle] = useState(session.title);
  const [purpose, setPurpose] = useState('');
  const [currentRequest, setCurrentRequest] = useState(latestUserMessage);
  const [decisions, setDecisions] = useState('');
  const [establishedFacts, setEstablishedFacts] = useState('');
  const [openQuestions, setOpenQuestions] = useState('');
  const [tokenBudget, setTokenBudget] = useState(String(DEFAULT_TOKEN_BUDGET));
  const [assisted, setAssisted] = useState(false);
  const [dropped, setDropped] = useState<ReadonlySet<string>>(new Set());
  const [problem, setProblem] = useState<Problem | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // One key per confirmed request: a retry after a lost answer cannot create a second successor.
  const idempotencyKey = useRef<string | null>(null);
  const { continueSession } = useContinueSession();
  const id = useId();
  const problemRef = useRef<HTMLDivElement>(null);
  // The request before any recommendation is dropped; with assistance, its preview is where the recommendations come from.
  const assistedDraft = useMemo<ContinuationDraft>(
    () => ({
      sessionId: session.id,
      eventCount: session.eventCount,
      title: title.trim(),
      tokenBudget: Number(tokenBudget),
      handoff: {
        purpose: purpose.trim(),
        currentRequest: currentRequest.trim(),
        decisions: lines(decisions),
        establishedFacts: lines(establishedFacts),
        openQuestions: lines(openQuestions),
      },
      selection: { kind: assisted ? 'assisted' : 'conversation' },
    }),
    [session.id, session.eventCount, title, tokenBudget, purpose, currentRequest, decisions, establishedFacts, openQuestions, assisted],
  );
  const complete = isComplete(assistedDraft, tokenBudget);
  const assistedPreview = useProjectionPreview(complete ? assistedDraft : null);
  const assistedResult = assistedPreview.result;
  const recommendations = useMemo(
    () =>
      assisted && assistedResult?.__typename === 'ProjectionPreview'
        ? assistedResult.items.filter((item) => item.origin === 'RECOMMENDED')
        : [],
    [assisted, assistedResult],
  );
  // The API cannot exclude one recommendation: with any dropped, the kept ones are cited instead and
  // assistance is off, and that request is previewed too, so what is confirmed is what was shown.
  // With all kept, the assisted request itself is confirmed and its items stay RECOMMENDED.
  const draft = useMemo<ContinuationDraft>(() => {
    if (!recommendations.some((item) => dropped.has(recommendationKey(item)))) return assistedDraft;
    const kept = recommendations.filter((item) => !dropped.has(recommendationKey(item)));
    return { ...assistedDraft, selection: { kind: 'kept', sources: kept.map(recommendationAsSource) } };
  }, [assistedDraft, recommendations, dropped]);
  const keptPreview = useProjectionPreview(complete && draft !== assistedDraft ? draft : null);
  const preview = draft === assistedDraft ? assistedPreview : keptPreview;
  const sessionNames = useMemo(() => ({ [session.id]: `this session “${session.title}”` }), [session.id, session.title]);

  // On very short screens the whole dialog scrolls: bring a refusal into view beside the button that caused it.
  useEffect(() => {
    if (problem) problemRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [problem]);

  function edit<T>(setter: (value: T) => void, value: T) {
    setter(value);
    idempotencyKey.current = null;
    // A refusal answered the request as it was; the preview now speaks for the edited one.
    setProblem(null);
  }

  function toggleRecommendation(key: string) {
    const next = new Set(dropped);
    if (!next.delete(key)) next.add(key);
    edit(setDropped, next);
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    idempotencyKey.current ??= randomUUID();
    setProblem(null);
    setSubmitting(true);
    initiation.begin();
    let result: ContinueResult;
    try {
      result = await continueSession({ ...draft, idempotencyKey: idempotencyKey.current });
    } catch (caught) {
      initiation.abandon();
      setSubmitting(false);
      setProblem({ kind: 'failed', message: caught instanceof Error ? caught.message : String(caught) });
      return;
    }
    setSubmitting(false);
    if (result.__typename === 'OperationError') {
      // Nothing was written: a corrected request is a new one.
      idempotencyKey.current = null;
      initiation.abandon();
      setProblem({ kind: 'refused', error: result });
      return;
    }
    initiation.follow({ edgeId: result.edge.id, successorId: result.successor.id, successorTitle: result.successor.title });
    onDone();
  }

  return (
    <form className="continue-form stack" onSubmit={(event) => void confirm(event)}>
      <h2 id={titleId}>Continue in new session</h2>
      <p className="hint">
        This session stays complete and readable. The new one starts from your handoff, the latest message and
        links to this whole conversation.
      </p>
      <div className="continue-columns">
        <div className="continue-fields stack">
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            autoFocus
            required
            maxLength={200}
            value={title}
            onChange={(e) => edit(setTitle, e.target.value)}
          />
          <label htmlFor={`${id}-purpose`}>Purpose</label>
          <textarea
            id={`${id}-purpose`}
            required
            rows={2}
            placeholder="What the new session is for"
            value={purpose}
            onChange={(e) => edit(setPurpose, e.target.value)}
          />
          <label htmlFor={`${id}-request`}>Current request</label>
          <textarea
            id={`${id}-request`}
            required
            rows={2}
            value={currentRequest}
            onChange={(e) => edit(setCurrentRequest, e.target.value)}
          />
          <ListField
            id={`${id}-decisions`}
            label="Decisions"
            value={decisions}
            onChange={(value) => edit(setDecisions, value)}
          />
          <ListField
            id={`${id}-facts`}
            label="Established facts"
            value={establishedFacts}
            onChange={(value) => edit(setEstablishedFacts, value)}
          />
          <ListField
            id={`${id}-questions`}
            label="Open questions"
            value={openQuestions}
            onChange={(value) => edit(setOpenQuestions, value)}
          />
          <label htmlFor={`${id}-budget`}>Token budget</label>
          <input
            id={`${id}-budget`}
            type="number"
            inputMode="numeric"
            required
            min={MINIMUM_TOKEN_BUDGET}
            step={1}
            aria-describedby={`${id}-budget-hint`}
            value={tokenBudget}
            onChange={(e) => edit(setTokenBudget, e.target.value)}
          />
          <p id={`${id}-budget-hint`} className="hint">
            Tokens of the new session's starting context; sources that do not fit stay linked but are not loaded.
          </p>
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={assisted}
              aria-describedby={`${id}-assist-hint`}
              onChange={(e) => edit(setAssisted, e.target.checked)}
            />{' '}
            Assisted selection
          </label>
          <p id={`${id}-assist-hint`} className="hint">
            Instead of citing the whole conversation, carry the parts of this lineage that match the purpose and current
            request. The rest stays reachable from the new session.
          </p>
        </div>
        <ContinuationPreview preview={preview} sessionNames={sessionNames}>
          {assisted && assistedResult?.__typename === 'ProjectionPreview' && (
            <RecommendedSourcesChoice recommendations={recommendations} dropped={dropped} onToggle={toggleRecommendation} />
          )}
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

interface ListFieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
}

function ListField({ id, label, value, onChange }: ListFieldProps) {
  return (
    <>
      <label htmlFor={id}>
        {label} <span className="hint">(optional, one per line)</span>
      </label>
      <textarea id={id} rows={2} value={value} onChange={(event) => onChange(event.target.value)} />
    </>
  );
}
