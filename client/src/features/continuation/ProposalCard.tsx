import { useContext, useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../app/format';
import { OperationErrorNotice, type OperationError } from '../../app/OperationErrorNotice';
import type { ProposalCardFragment } from '../../gql/graphql';
import { ManifestItemList } from '../handoff/ManifestItemList';
import { TokenBudgetBar } from '../handoff/TokenBudgetBar';
import { reasonInWords } from './continuation-words';
import { timeLeftInWords } from './proposal-time';
import { useContinuationProposal, useProposalDecisions } from './useContinuationProposal';
import { ProposalFollowContext } from './proposal-follow';
import './continuation.css';

/** The current time, again every `intervalMs`. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** The card of the proposal a transcript's SYSTEM event names. */
export function ProposalCard({ proposalId }: { proposalId: string }) {
  const { proposal, loading, error } = useContinuationProposal(proposalId);
  if (!proposal) {
    return (
      <p className="proposal-card proposal-card-state" role={error ? 'alert' : 'status'}>
        {loading ? 'Loading the proposal…' : `The proposal could not be loaded${error ? ` (${error.message})` : ''}.`}
      </p>
    );
  }
  return <ProposalCardView proposal={proposal} />;
}

export function ProposalCardView({ proposal }: { proposal: ProposalCardFragment }) {
  const now = useNow(1000);
  const timeLeft = timeLeftInWords(proposal.expiresAt, now);
  const pending = proposal.status === 'PENDING' && timeLeft !== null;
  // The runtime proposes too, when the context is full: say that, not who.
  const heading =
    proposal.reason === 'CONTEXT_PRESSURE'
      ? `The context is full: continue in “${proposal.title}”?`
      : `The agent proposes to continue in “${proposal.title}”`;
  return (
    <article className="proposal-card" aria-label={heading}>
      <p className="proposal-card-title">{heading}</p>
      <p className="proposal-card-meta">
        {reasonInWords(proposal.reason)} · {pending ? <span className="proposal-card-time">{timeLeft}</span> : <DecisionLine proposal={proposal} />}
      </p>
      {pending && <PendingProposal proposal={proposal} />}
    </article>
  );
}

function DecisionLine({ proposal }: { proposal: ProposalCardFragment }) {
  switch (proposal.status) {
    case 'APPROVED':
      return (
        <span>
          Approved: continued in{' '}
          {proposal.edge ? <Link to={`/sessions/${proposal.edge.successor.id}`}>“{proposal.edge.successor.title}”</Link> : 'a new session'}
        </span>
      );
    case 'REJECTED':
      return <span>Rejected{proposal.note ? `: “${proposal.note}”` : ''}. The agent answers here.</span>;
    default:
      return <span>Expired: nobody decided in time, or the agent proposed again.</span>;
  }
}

type Problem = { kind: 'refused'; error: OperationError } | { kind: 'failed'; message: string } | null;

function PendingProposal({ proposal }: { proposal: ProposalCardFragment }) {
  const initiation = useContext(ProposalFollowContext);
  const { approve, reject } = useProposalDecisions();
  const ids = { title: useId(), purpose: useId(), request: useId(), budget: useId(), note: useId() };
  const [title, setTitle] = useState(proposal.title);
  const [purpose, setPurpose] = useState(proposal.handoff.purpose);
  const [currentRequest, setCurrentRequest] = useState(proposal.handoff.currentRequest);
  const [tokenBudget, setTokenBudget] = useState(String(proposal.preview.tokenBudget));
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>(null);
  const { preview, handoff } = proposal;
  const count = (status: string) => preview.items.filter((item) => item.status === status).length;

  async function onApprove(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    // Only what the person changed is sent: the rest stays the agent's.
    const handoffEdited = purpose !== handoff.purpose || currentRequest !== handoff.currentRequest;
    const budget = Number(tokenBudget);
    initiation?.begin();
    try {
      const result = await approve({
        proposalId: proposal.id,
        ...(title !== proposal.title && { title }),
        ...(handoffEdited && { handoff: { ...withoutTypename(handoff), purpose, currentRequest } }),
        ...(budget !== preview.tokenBudget && { tokenBudget: budget }),
      });
      if (result.__typename === 'OperationError') {
        initiation?.abandon();
        setProblem({ kind: 'refused', error: result });
      } else {
        initiation?.follow({ edgeId: result.edge.id, successorId: result.successor.id, successorTitle: result.successor.title });
      }
    } catch (caught) {
      initiation?.abandon();
      setProblem({ kind: 'failed', message: caught instanceof Error ? caught.message : String(caught) });
    } finally {
      setBusy(false);
    }
  }

  async function onReject() {
    setBusy(true);
    setProblem(null);
    try {
      await reject(proposal.id, note.trim() || null);
    } catch (caught) {
      setProblem({ kind: 'failed', message: caught instanceof Error ? caught.message : String(caught) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="proposal-card-form" onSubmit={(event) => void onApprove(event)}>
      <label htmlFor={ids.title}>Title of the new session</label>
      <input id={ids.title} value={title} onChange={(event) => setTitle(event.target.value)} required maxLength={200} />
      <label htmlFor={ids.purpose}>Purpose</label>
      <textarea id={ids.purpose} value={purpose} onChange={(event) => setPurpose(event.target.value)} required rows={2} />
      <label htmlFor={ids.request}>Current request</label>
      <textarea id={ids.request} value={currentRequest} onChange={(event) => setCurrentRequest(event.target.value)} required rows={2} />
      <HandoffLists handoff={handoff} />
      <label htmlFor={ids.budget}>Token budget</label>
      <input id={ids.budget} type="number" min={64} max={1_000_000} value={tokenBudget} onChange={(event) => setTokenBudget(event.target.value)} required />
      <section className="proposal-card-preview" aria-label="What the new session would start with">
        <p>
          Would include {count('INCLUDED')} of {formatCount(preview.items.length, 'source')}
          {count('OMITTED') > 0 && `, omit ${count('OMITTED')}`}
          {count('UNAVAILABLE') > 0 && `, skip ${count('UNAVAILABLE')} unavailable`}, using {preview.tokenCost.toLocaleString()} of{' '}
          {formatCount(preview.tokenBudget, 'token')} (as the agent drafted it).
        </p>
        <TokenBudgetBar tokenBudget={preview.tokenBudget} tokenCost={preview.tokenCost} sections={preview.context.sections} />
        <ManifestItemList items={preview.items} sessionNames={{ [proposal.session.id]: `“${proposal.session.title}”` }} citedBy="the agent" />
      </section>
      {problem?.kind === 'refused' && <OperationErrorNotice lead="The continuation was refused." error={problem.error} />}
      {problem?.kind === 'failed' && (
        <p className="notice notice-error" role="alert">
          The decision could not be sent: {problem.message}
        </p>
      )}
      <p className="continuation-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          Approve
        </button>
      </p>
      <label htmlFor={ids.note}>Note for the agent (why not, what instead)</label>
      <textarea id={ids.note} value={note} onChange={(event) => setNote(event.target.value)} rows={2} maxLength={2000} />
      <p className="continuation-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void onReject()}>
          Reject
        </button>
      </p>
    </form>
  );
}

/** The handoff's lists, read-only: the approval keeps them as the agent wrote them unless the handoff is edited. */
function HandoffLists({ handoff }: { handoff: ProposalCardFragment['handoff'] }) {
  const lists: [string, string[]][] = [
    ['Established facts', handoff.establishedFacts],
    ['Decisions', handoff.decisions],
    ['Open questions', handoff.openQuestions],
    ['Next actions', handoff.nextActions],
    ['Cautions', handoff.cautions],
  ];
  const shown = lists.filter(([, items]) => items.length > 0);
  if (shown.length === 0) return null;
  return (
    <dl className="proposal-card-lists">
      {shown.map(([name, items]) => (
        <div key={name}>
          <dt>{name}</dt>
          {items.map((item, index) => (
            <dd key={index}>{item}</dd>
          ))}
        </div>
      ))}
    </dl>
  );
}

function withoutTypename<T extends { __typename?: string }>(value: T): Omit<T, '__typename'> {
  const { __typename: _typename, ...rest } = value;
  return rest;
}
