import { DataSource } from 'typeorm';
import { accountRows } from '../../platform/db/rows';
import { Actor, ContinueSessionRequest, validateContinueSessionRequest } from './continuations';
import { ErrorCode, Outcome, fail, succeed, notFound, notFoundFailure } from '../../shared/errors';
import { isId, newRowId } from '../../shared/ids';
import { Projection } from './projection/model';
import { DEFAULT_PROPOSAL_TTL_MS, ProposalEdits, ProposalStatus, approvedRequest, draftOf, expiresAt, proposalToolResult, proposedText, rejectedText, undecidableReason, validateNote } from './proposals';
import { RunKind } from '../conversation/runs';
import { SessionStatus, ContinuationApproval } from '../conversation/sessions';
import { EventKind } from '../conversation/transcript';
import { ContinuationProposalEntity } from './continuation-proposal.entity';
import { EventEntity } from '../conversation/event.entity';
import { RunEntity } from '../conversation/run.entity';
import { SessionEntity } from '../conversation/session.entity';
import { isUniqueViolation } from '../../platform/db/errors';
import { expireNextDue, lockProposal, nextExpiry, pendingProposals, supersedePending } from './proposal.repository';
import { queuedRun } from '../conversation/run.repository';
import { EventDraft, appendEvents, lockSession } from '../conversation/transcript.repository';
import { logger } from '../../platform/observability/logger';
import { alignOne } from '../../shared/batch';
import { ContinuationResult, ContinuationService } from './continuations.service';
import { Refused, refuse, refuseWith } from './steps/refusal';
import { ContinuationNotifier } from './notifications';
import { Viewer } from '../../shared/viewer';
import { enqueueWebhooks } from '../webhooks/webhook.repository';
import { proposalCreated, proposalDecided } from './webhook-events';

export interface ApprovalSettings {
  /** The approval mode of a new session that names none. */
  defaultApproval: ContinuationApproval;
  /** How long a proposal waits for a decision. */
  proposalTtlMs: number;
}

export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = { defaultApproval: ContinuationApproval.AUTOMATIC, proposalTtlMs: DEFAULT_PROPOSAL_TTL_MS };

/** The agent's tool call that a proposal records, with the proposal's note. */
export interface ProposingCall {
  /** The runtime's run making the call; null for an agent outside the runtime (MCP). */
  runId: string | null;
  /** Names the call: the same id again returns the same proposal. */
  toolCallId: string;
  /**
   * The TOOL_CALL event as the runtime records every call, appended with its result; null for an
   * agent outside the runtime, whose calls are not in the transcript.
   */
  callEvent: EventDraft | null;
}

/** How often pending proposals are swept at the least: those another process made and did not live to expire. */
const SWEEP_FALLBACK_MS = 60_000;
/** Proposals one sweep marks expired; a sweep that fills it runs again at once. */
const SWEEP_BATCH = 100;

const proposalNotFound = <T>(path: string[]) => notFound<T>('proposal', path);

/**
 * Approval of agent-initiated continuations: a session's approval mode, the proposals its agent
 * makes in ASK mode, a person's decision on them, and their expiry. An approval is a continuation
 * like any other (the continuation service writes it), by the USER, with the proposal marked
 * APPROVED in the same transaction.
 */
export class ProposalService {
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweepDueAt = Infinity;
  private sweeping: Promise<void> | null = null;
  private sweepsStopped = true;

  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ContinuationNotifier,
    private readonly continuations: ContinuationService,
    /** Whether an agent answers: a rejection then queues the turn in which it answers in place. */
    private readonly startsTurns: boolean,
    private readonly settings: ApprovalSettings = DEFAULT_APPROVAL_SETTINGS,
  ) {}

  get defaultApproval(): ContinuationApproval {
    return this.settings.defaultApproval;
  }

  /** Sets a session's approval mode; its pending proposal, if any, stays pending. Fails with NOT_FOUND. */
  async setApproval(viewer: Viewer, sessionId: string, approval: ContinuationApproval): Promise<Outcome<SessionEntity>> {
    const path = ['sessionId'];
    if (!isId(sessionId)) return notFound('session', path);
    const session = await this.dataSource.transaction(async (manager) => {
      const locked = await lockSession(manager, viewer.accountId, sessionId);
      if (locked) await manager.update(SessionEntity, { id: locked.id }, { continuationApproval: approval });
      return locked && Object.assign(locked, { continuationApproval: approval });
    });
    return session ? succeed(session) : notFound('session', path);
  }

  /**
   * The agent's continue_session in an ASK session: checked exactly as the continuation would be
   * (the same failures, nothing written), then stored PENDING with the call and its result and a
   * SYSTEM event naming the proposal, superseding the session's earlier pending one. The same tool
   * call again returns its proposal (`replayed`) and writes nothing.
   */
  async propose(viewer: Viewer, request: ContinueSessionRequest, call: ProposingCall): Promise<Outcome<{ proposal: ContinuationProposalEntity; replayed: boolean }>> {
    const details = validateContinueSessionRequest(request);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    const earlier = await this.byToolCall(viewer, call.toolCallId);
    if (earlier) return succeed({ proposal: earlier, replayed: true });
    let written: { proposal: ContinuationProposalEntity; superseded: ContinuationProposalEntity[]; events: EventEntity[] };
    try {
      written = await this.dataSource.transaction(async (manager) => {
        const session = await lockSession(manager, viewer.accountId, request.sessionId);
        if (!session) return refuseWith(notFoundFailure('session', ['input', 'sessionId']));
        await this.continuations.checkContinuation(manager, viewer, session, request, call.runId);
        const now = new Date();
        const superseded = await supersedePending(manager, session.id, now);
        const proposal = Object.assign(new ContinuationProposalEntity(), {
          id: newRowId(),
          accountId: viewer.accountId,
          sessionId: session.id,
          toolCallId: call.toolCallId,
          status: ProposalStatus.PENDING,
          draft: draftOf(request),
          note: null,
          edgeId: null,
          createdAt: now,
          expiresAt: expiresAt(now, this.settings.proposalTtlMs),
          decidedAt: null,
        });
        await manager.insert(ContinuationProposalEntity, proposal);
        await enqueueWebhooks(manager, [proposalCreated(proposal)]);
        const note: EventDraft = { kind: EventKind.SYSTEM, text: proposedText(request.title), data: { role: 'continuation_proposal', proposalId: proposal.id } };
        const events = await appendEvents(
          manager,
          session,
          call.callEvent
            ? [
                call.callEvent,
                {
                  kind: EventKind.TOOL_RESULT,
                  text: proposalToolResult(proposal.id),
                  toolCallId: call.toolCallId,
                  data: { name: 'continue_session', error: false, proposalId: proposal.id },
                },
                note,
              ]
            : [note],
        );
        return { proposal, superseded, events };
      });
    } catch (error) {
      if (error instanceof Refused) return { ok: false, error: error.failure };
      if (!isUniqueViolation(error, 'continuation_proposals_tool_call')) throw error;
      // The same call, replayed at the same moment, committed first.
      return succeed({ proposal: (await this.byToolCall(viewer, call.toolCallId))!, replayed: true });
    }
    this.notifier.eventsAppended(written.events);
    this.notifier.proposalsChanged([...written.superseded, written.proposal]);
    this.scheduleSweep(written.proposal.expiresAt);
    return succeed({ proposal: written.proposal, replayed: false });
  }

  /**
   * Approves a proposal with a person's edits: the continuation of its draft with the edits laid
   * over it, by the USER, checked against the session as it is now, with the proposal marked
   * APPROVED in the same transaction. Approving it again returns the same successor (`replayed`).
   * Fails as continueSession does, with NOT_FOUND for another account's proposal and INVALID_INPUT
   * for one rejected or expired.
   */
  async approve(viewer: Viewer, input: ProposalEdits & { proposalId: string }): Promise<Outcome<ContinuationResult>> {
    const path = ['input', 'proposalId'];
    if (!isId(input.proposalId)) return proposalNotFound(path);
    const proposal = await this.dataSource.manager.findOneBy(ContinuationProposalEntity, { id: input.proposalId, accountId: viewer.accountId });
    if (!proposal) return proposalNotFound(path);
    if (proposal.status === ProposalStatus.APPROVED) return succeed(await this.continuations.continuationOf(proposal.edgeId!));
    const request = approvedRequest(proposal.sessionId, proposal.id, proposal.draft, input);
    const continued = await this.continuations.continueSession(viewer, request, {
      actor: Actor.USER,
      approving: { proposalId: proposal.id, draft: proposal.draft },
    });
    if (continued.ok && !continued.value.replayed) {
      this.notifier.proposalsChanged([Object.assign(proposal, { status: ProposalStatus.APPROVED, edgeId: continued.value.edge.id, decidedAt: continued.value.edge.createdAt })]);
    }
    return continued;
  }

  /**
   * Rejects a pending proposal with a person's note: it becomes REJECTED, a SYSTEM event tells the
   * agent the note, and a turn is queued in which it answers in place. Fails with NOT_FOUND, or
   * INVALID_INPUT for a note over its limit or a proposal already decided or expired.
   */
  async reject(viewer: Viewer, proposalId: string, note: string | null): Promise<Outcome<ContinuationProposalEntity>> {
    const details = validateNote(note);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    if (!isId(proposalId)) return proposalNotFound(['proposalId']);
    const found = await this.dataSource.manager.findOne(ContinuationProposalEntity, {
      select: { sessionId: true },
      where: { id: proposalId, accountId: viewer.accountId },
    });
    if (!found) return proposalNotFound(['proposalId']);
    const given = note?.trim() ? note.trim() : null;
    let written: { proposal: ContinuationProposalEntity; events: EventEntity[]; run: RunEntity | null };
    try {
      written = await this.dataSource.transaction(async (manager) => {
        // The session first, as every write to it locks: then the proposal.
        const session = (await lockSession(manager, viewer.accountId, found.sessionId))!;
        const { proposal, decidable } = (await lockProposal(manager, viewer.accountId, proposalId))!;
        if (!decidable) {
          // Still PENDING but not decidable: past its time by the database's clock.
          const reason = undecidableReason(proposal.status === ProposalStatus.PENDING ? ProposalStatus.EXPIRED : proposal.status)!;
          refuse(ErrorCode.INVALID_INPUT, reason, [{ path: ['proposalId'], message: reason }]);
        }
        const now = new Date();
        Object.assign(proposal, { status: ProposalStatus.REJECTED, note: given, decidedAt: now });
        await manager.update(ContinuationProposalEntity, { id: proposal.id }, { status: proposal.status, note: given, decidedAt: now });
        await enqueueWebhooks(manager, [proposalDecided(proposal)]);
        // A session continued meanwhile takes no more events: the rejection is only recorded.
        if (session.status !== SessionStatus.ACTIVE) return { proposal, events: [], run: null };
        const events = await appendEvents(manager, session, [
          {
            kind: EventKind.SYSTEM,
            text: rejectedText(proposal.draft.title, given),
            data: { role: 'continuation_rejected', proposalId: proposal.id, title: proposal.draft.title, note: given },
          },
        ]);
        const run = this.startsTurns
          ? queuedRun({ accountId: session.accountId, sessionId: session.id, kind: RunKind.TURN, triggerEventId: events[0].id }, now)
          : null;
        if (run) await manager.insert(RunEntity, run);
        return { proposal, events, run };
      });
    } catch (error) {
      if (error instanceof Refused) return { ok: false, error: error.failure };
      throw error;
    }
    this.notifier.eventsAppended(written.events);
    if (written.run) this.notifier.runsChanged([written.run]);
    this.notifier.proposalsChanged([written.proposal]);
    return succeed(written.proposal);
  }

  /** What approving the proposal unedited would carry, omit and find unavailable, compiled now. */
  preview(viewer: Viewer, proposal: ContinuationProposalEntity): Promise<Outcome<Projection & { tokenBudget: number }>> {
    return this.continuations.previewProjection(viewer, approvedRequest(proposal.sessionId, proposal.id, proposal.draft, {}), { anyTurnState: true });
  }

  async proposalsByIds(accountId: string, ids: readonly string[]): Promise<(ContinuationProposalEntity | null)[]> {
    const found = await accountRows(this.dataSource.manager, ContinuationProposalEntity, 'id', accountId, ids);
    return alignOne(ids, found, (proposal) => proposal.id);
  }

  /** Each session's pending proposal that is not past its time, aligned with `sessionIds`. */
  async pendingBySessionIds(accountId: string, sessionIds: readonly string[]): Promise<(ContinuationProposalEntity | null)[]> {
    return alignOne(sessionIds, await pendingProposals(this.dataSource.manager, accountId, sessionIds), (proposal) => proposal.sessionId);
  }

  private byToolCall(viewer: Viewer, toolCallId: string): Promise<ContinuationProposalEntity | null> {
    return this.dataSource.manager.findOneBy(ContinuationProposalEntity, { accountId: viewer.accountId, toolCallId });
  }

  /**
   * Starts marking proposals EXPIRED as their time comes, announcing each. The time itself is
   * enforced where a proposal is decided, by the database's clock: the sweep only tells subscribers.
   */
  startExpirySweeps(): void {
    this.sweepsStopped = false;
    this.sweeping = this.sweep();
  }

  async stopExpirySweeps(): Promise<void> {
    this.sweepsStopped = true;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.sweepTimer = null;
    await this.sweeping;
  }

  private scheduleSweep(at: Date): void {
    if (this.sweepsStopped) return;
    const dueAt = Math.min(at.getTime(), Date.now() + SWEEP_FALLBACK_MS);
    if (this.sweepTimer && this.sweepDueAt <= dueAt) return;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.sweepDueAt = dueAt;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = null;
      this.sweeping = this.sweep();
    }, Math.max(0, dueAt - Date.now()));
    this.sweepTimer.unref();
  }

  private async sweep(): Promise<void> {
    let next: Date | null = null;
    try {
      const expired: ContinuationProposalEntity[] = [];
      for (let proposal = await this.expireNextDue(); proposal; proposal = await this.nextDue(expired.length)) {
        expired.push(proposal);
      }
      if (expired.length) this.notifier.proposalsChanged(expired);
      next = expired.length === SWEEP_BATCH ? new Date() : await nextExpiry(this.dataSource.manager);
    } catch (error) {
      if (this.sweepsStopped) return;
      logger.error({ err: error }, 'The sweep of expired continuation proposals failed');
    }
    this.scheduleSweep(next ?? new Date(Date.now() + SWEEP_FALLBACK_MS));
  }

  /** The next proposal past its time, while this sweep has room for it. */
  private nextDue(swept: number): Promise<ContinuationProposalEntity | null> {
    return swept < SWEEP_BATCH ? this.expireNextDue() : Promise.resolve(null);
  }

  private expireNextDue(): Promise<ContinuationProposalEntity | null> {
    return this.dataSource.transaction((manager) => expireNextDue(manager));
  }
}
