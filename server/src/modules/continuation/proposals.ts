import { ContinueSessionRequest, ContinuationReason, SourceInput, TransferInput } from './continuations';
import { ErrorDetail } from '../../shared/errors';

export const ProposalStatus = { PENDING: 'PENDING', APPROVED: 'APPROVED', REJECTED: 'REJECTED', EXPIRED: 'EXPIRED' } as const;
export type ProposalStatus = (typeof ProposalStatus)[keyof typeof ProposalStatus];

/** A day: long enough for a person to come back to it, short enough that a stale draft does not linger. */
export const DEFAULT_PROPOSAL_TTL_MS = 86_400_000;

export const NOTE_MAX_CHARS = 2_000;

type HandoffDraft = ContinueSessionRequest['handoff'];

/** The agent's continue_session call as it was made: everything but the session and the idempotency key. */
export interface ContinuationDraft {
  reason: ContinuationReason;
  title: string;
  description: string | null;
  handoff: HandoffDraft;
  sources: SourceInput[];
  transfer: TransferInput | null;
  initiatingEventId: string | null;
  tokenBudget: number | null;
  assist: boolean;
}

/** What a person may change in a draft before approving it; absent fields keep the agent's. */
export interface ProposalEdits {
  title?: string | null;
  handoff?: HandoffDraft | null;
  sources?: SourceInput[] | null;
  tokenBudget?: number | null;
}

/** What a manifest keeps of the proposal it was approved from: the agent's draft beside the edited handoff. */
export interface ManifestProposal {
  proposalId: string;
  draft: ContinuationDraft;
}

export function draftOf(request: ContinueSessionRequest): ContinuationDraft {
  return {
    reason: request.reason,
    title: request.title,
    description: request.description ?? null,
    handoff: request.handoff,
    sources: request.sources,
    transfer: request.transfer ?? null,
    initiatingEventId: request.initiatingEventId ?? null,
    tokenBudget: request.tokenBudget ?? null,
    assist: request.assist === true,
  };
}

/**
 * The continuation an approval asks for: the draft with the person's edits laid over it. The key
 * is the proposal's own, so every approval of one proposal names the same continuation.
 */
export function approvedRequest(sessionId: string, proposalId: string, draft: ContinuationDraft, edits: ProposalEdits): ContinueSessionRequest {
  return {
    sessionId,
    idempotencyKey: proposalIdempotencyKey(proposalId),
    reason: draft.reason,
    title: edits.title ?? draft.title,
    description: draft.description,
    handoff: edits.handoff ?? draft.handoff,
    sources: edits.sources ?? draft.sources,
    transfer: draft.transfer,
    initiatingEventId: draft.initiatingEventId,
    tokenBudget: edits.tokenBudget ?? draft.tokenBudget,
    assist: draft.assist,
  };
}

export function proposalIdempotencyKey(proposalId: string): string {
  return `proposal:${proposalId}`;
}

export function expiresAt(createdAt: Date, ttlMs: number): Date {
  return new Date(createdAt.getTime() + ttlMs);
}

/** A PENDING proposal past its time is EXPIRED, whether or not the sweep has marked it yet. */
export function effectiveStatus(proposal: { status: ProposalStatus; expiresAt: Date }, now: Date): ProposalStatus {
  return proposal.status === ProposalStatus.PENDING && proposal.expiresAt.getTime() <= now.getTime() ? ProposalStatus.EXPIRED : proposal.status;
}

/** Why a proposal can no longer be decided, for a person to act on; null while it can. */
export function undecidableReason(status: ProposalStatus): string | null {
  switch (status) {
    case ProposalStatus.PENDING:
      return null;
    case ProposalStatus.APPROVED:
      return 'The proposal was already approved.';
    case ProposalStatus.REJECTED:
      return 'The proposal was already rejected.';
    case ProposalStatus.EXPIRED:
      return 'The proposal expired (or a newer one replaced it): ask the agent again.';
  }
}

export function validateNote(note: string | null | undefined): ErrorDetail[] {
  return note != null && note.length > NOTE_MAX_CHARS ? [{ path: ['note'], message: `At most ${NOTE_MAX_CHARS} characters.` }] : [];
}

/** The runtime's note in the transcript that a continuation waits for a person. */
export function proposedText(title: string): string {
  return `The agent proposes to continue in "${title}": waiting for a person to approve or reject it.`;
}

/** The runtime's note in the transcript that starts the agent's answer in place: it says what the person wrote. */
export function rejectedText(title: string, note: string | null): string {
  const said = note ? ` Their note: ${note}` : ' They left no note.';
  return `The person rejected the continuation into "${title}": the conversation stays in this session.${said} Answer here, taking it into account.`;
}

/** What the agent's continue_session call answers in an ASK session. */
export function proposalAnswer(proposalId: string): { status: 'awaiting_approval'; proposalId: string; message: string } {
  return {
    status: 'awaiting_approval',
    proposalId,
    message: 'A person was asked to approve this continuation; the conversation stays here until they decide.',
  };
}

/** The runtime's tool result for the call: the turn ends there. */
export function proposalToolResult(proposalId: string): string {
  return JSON.stringify(proposalAnswer(proposalId));
}
