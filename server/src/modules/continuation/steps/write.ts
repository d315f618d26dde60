import { setImmediate as nextTurn } from 'node:timers/promises';
import { Actor, ContinueSessionRequest, Handoff, PlanTransfer, describeCarried, normalizeHandoff } from '../continuations';
import { ContextSectionKind, ManifestItemStatus, Projection } from '../projection/model';
import { RunKind, RunStatus } from '../../conversation/runs';
import { SessionStatus } from '../../conversation/sessions';
import { continuationSession } from '../../conversation/session-rows';
import { ManifestProposal, ProposalStatus } from '../proposals';
import { EventKind } from '../../conversation/transcript';
import { ContinuationEdgeEntity } from '../continuation-edge.entity';
import { EventEntity } from '../../conversation/event.entity';
import { PlanRevisionEntity } from '../../plans/plan-revision.entity';
import { ProjectionManifestEntity } from '../projection-manifest.entity';
import { RunEntity } from '../../conversation/run.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { ContinuationSnapshot } from '../continuation.repository';
import { RATE_WINDOW_MS, rateWindowStart } from '../rate-window';
import { nextPlanRevision } from '../../plans/plan.repository';
import { queuedRun } from '../../conversation/run.repository';
import { chainEvents } from '../../conversation/transcript.repository';
import { CombinedStatement } from '../../../platform/db/statement';
import { withWebhooks } from '../../webhooks/webhook.repository';
import type { WebhookEvent } from '../../webhooks/webhooks';
import { messagesPosted } from '../../conversation/webhook-events';
import { proposalDecided, sessionContinued } from '../webhook-events';
import { WriteTransaction } from '../../../platform/db/write-transaction';
import { Viewer } from '../../../shared/viewer';
import { checkRateLimits } from './checks';
import { Prepared, compile, initiatingAttachments, manifestEntity, tokenBudget } from './compile';
import { ContinuationPolicy } from './policy';
import { eventReader } from './sources';
import { newRowId } from '../../../shared/ids';

/** A branch's first message: it lives in the successor, since a continued session takes no writes. */
export interface BranchMessage {
  text: string;
  clientMessageId: string | null;
  attachmentCids: string[];
}

export interface Written {
  edge: ContinuationEdgeEntity;
  successor: SessionEntity;
  run: RunEntity;
  manifest: ProjectionManifestEntity;
  /** Pending delegated runs that now report to the successor. */
  movedRuns: RunEntity[];
  /** The successor's plan: the carried revision, if any. */
  successorPlan: PlanRevisionEntity | null;
  predecessorEvents: EventEntity[];
  successorEvents: EventEntity[];
}

export interface ContinuationWrite {
  viewer: Viewer;
  input: ContinueSessionRequest;
  actor: Actor;
  fingerprint: string;
  branchMessage: BranchMessage | null;
  predecessor: SessionEntity;
  snapshot: ContinuationSnapshot;
  prefetched: EventEntity[];
  prepared: Prepared;
  /** The proposal a person approved: marked APPROVED in the same statement, its draft kept in the manifest. */
  approving: ManifestProposal | null;
  /** The worker the successor's run is leased to at once, when one starts it itself. */
  leaseTo: { owner: string; leaseMs: number } | null;
  /** Announcements of what the transaction wrote before (a settled run), queued with the rest. */
  webhooks: WebhookEvent[];
  /**
   * Told what is written before the statement that commits it is built, which waits a turn of the
   * event loop; it is not committed yet, and may never be.
   */
  beforeCommit?: (written: Written) => void;
}

/**
 * Builds everything in memory (the successor with its banner and replayed message, the edge, the
 * manifest, the transition card, the queued run, the plan revision, the moved runs) and writes it
 * in one statement inside the caller's transaction, which holds the predecessor's lock.
 */
export async function writeContinuation(transaction: WriteTransaction, policy: ContinuationPolicy, write: ContinuationWrite): Promise<Written> {
  const { viewer, input, actor, predecessor, snapshot, prepared } = write;
  const manager = transaction.manager;
  const { initiating, transferred } = prepared;
  const streak = checkRateLimits(policy, predecessor, prepared.hasNewUserMessage, snapshot.recentContinuations);

  const ids = { now: new Date(), edgeId: newRowId(), manifestId: newRowId() };
  const { now, edgeId, manifestId } = ids;
  const handoff = normalizeHandoff(input.handoff);
  const { successor, successorEvents } = openSuccessor(write, streak, ids);
  const initiatingEvent = initiating ?? successorEvents[1];
  const attached = await initiatingAttachments(manager, viewer, initiatingEvent);
  const { block, projection } = await compile(eventReader(manager, write.prefetched), policy, viewer, input, predecessor, prepared, initiatingEvent, attached, {
    edgeId,
    manifestId,
  });
  const edge = Object.assign(new ContinuationEdgeEntity(), {
    id: edgeId,
    accountId: viewer.accountId,
    predecessorId: predecessor.id,
    predecessorDepth: predecessor.lineageDepth,
    successorId: successor.id,
    successorDepth: successor.lineageDepth,
    reason: input.reason,
    actor,
    initiatingEventId: initiatingEvent.id,
    idempotencyKey: input.idempotencyKey,
    requestFingerprint: write.fingerprint,
    createdAt: now,
  });
  const carded = transitionCard(write, successor, handoff, projection, ids);
  const run = queuedRun({ accountId: viewer.accountId, sessionId: successor.id, kind: RunKind.TURN, triggerEventId: successorEvents[1].id }, now);
  // Written as a claim would leave it; the worker's first heartbeat restates the expiry in the database's clock.
  if (write.leaseTo) {
    const leaseExpiresAt = new Date(now.getTime() + write.leaseTo.leaseMs);
    Object.assign(run, { status: RunStatus.RUNNING, attempt: 1, leaseOwner: write.leaseTo.owner, leaseExpiresAt, startedAt: now });
  }
  const manifest = manifestEntity(
    manifestId,
    edge,
    { predecessor, successor },
    handoff,
    input,
    tokenBudget(policy, input),
    { transferred, block, projection },
    now,
    write.approving,
  );

  const revisions = planRevisions(write, successor, now);
  const movedRuns = snapshot.activeRuns
    .filter((pending) => transferred.pendingRunIds.includes(pending.id))
    .map((pending) => Object.assign(pending, { sessionId: successor.id, updatedAt: now }));
  const successorPlan = revisions.find((revision) => revision.sessionId === successor.id) ?? null;
  const written = { edge, successor, run, manifest, movedRuns, successorPlan, predecessorEvents: carded.events, successorEvents };
  await tellBeforeCommit(write, written);
  const statement = new CombinedStatement(manager)
    .insert(SessionEntity, [successor])
    .insert(EventEntity, [...successorEvents, ...carded.events])
    .insert(ContinuationEdgeEntity, [edge])
    .insert(ProjectionManifestEntity, [manifest])
    .insert(RunEntity, [run])
    .insert(PlanRevisionEntity, revisions);
  // Every part of the statement is set up on each run, one that changes nothing too.
  if (transferred.pendingRunIds.length > 0) {
    statement.raw('UPDATE runs SET session_id = $1, updated_at = $2 WHERE session_id = $3 AND id = ANY($4::uuid[])', [
      successor.id,
      now,
      predecessor.id,
      transferred.pendingRunIds,
    ]);
  }
  statement
    .raw(COUNT_IN_RATE_WINDOW, [viewer.accountId, rateWindowStart(now)])
    .raw('UPDATE sessions SET status = $1, event_count = $2, token_count = $3, last_event_hash = $4 WHERE id = $5', [
      SessionStatus.CONTINUED,
      carded.totals.eventCount,
      carded.totals.tokenCount,
      carded.totals.lastEventHash,
      predecessor.id,
    ]);
  if (write.approving) {
    statement.raw('UPDATE continuation_proposals SET status = $1, decided_at = $2, edge_id = $3 WHERE id = $4', [
      ProposalStatus.APPROVED,
      now,
      edgeId,
      write.approving.proposalId,
    ]);
  }
  const decided = write.approving
    ? [proposalDecided({ id: write.approving.proposalId, accountId: viewer.accountId, sessionId: predecessor.id, status: ProposalStatus.APPROVED, edgeId, decidedAt: now })]
    : [];
  // Without an endpoint when the lock was taken, the outbox would write nothing (see `hasActiveEndpoint`).
  const announced = snapshot.hasWebhookEndpoint ? withWebhooks(statement, [...write.webhooks, sessionContinued(edge), ...messagesPosted(successorEvents), ...decided]) : statement;
  await announced.commitIn(transaction);
  Object.assign(predecessor, carded.totals, { status: SessionStatus.CONTINUED });
  return written;
}

/**
 * Counts the continuation in its account's rate window (`rate-window.ts`): a new window keeps the
 * count of the one just before it as its previous count. A window older than the stored one (a
 * process whose clock is a little behind) counts in the stored one.
 */
const COUNT_IN_RATE_WINDOW = `INSERT INTO continuation_rate_windows AS stored (account_id, window_start, current_count, previous_count)
  VALUES ($1, $2, 1, 0)
  ON CONFLICT (account_id) DO UPDATE SET
    previous_count = CASE WHEN excluded.window_start <= stored.window_start THEN stored.previous_count
                          WHEN excluded.window_start = stored.window_start + interval '${RATE_WINDOW_MS} milliseconds' THEN stored.current_count
                          ELSE 0 END,
    current_count = CASE WHEN excluded.window_start <= stored.window_start THEN stored.current_count + 1 ELSE 1 END,
    window_start = greatest(stored.window_start, excluded.window_start)`;

/**
 * Tells `beforeCommit`, if given, what is written, and leaves the rest of this turn of the event
 * loop to a successor's first model call begun there: its request gets under way before the
 * statement is built and sent. The user waits for the model, not for the commit.
 */
async function tellBeforeCommit(write: ContinuationWrite, written: Written): Promise<void> {
  if (!write.beforeCommit) return;
  write.beforeCommit(written);
  await nextTurn();
}

interface WriteIds {
  now: Date;
  edgeId: string;
  manifestId: string;
}

/** The successor, opened by its banner and the message it answers: replayed exactly, or a branch's own. */
function openSuccessor(write: ContinuationWrite, streak: number, { now, edgeId, manifestId }: WriteIds) {
  const { viewer, input, actor, branchMessage, predecessor } = write;
  const initiating = write.prepared.initiating;
  const successor = continuationSession({
    accountId: viewer.accountId,
    title: input.title.trim(),
    description: input.description,
    createdAt: now,
    predecessor,
    continuationStreak: streak,
  });
  const opened = chainEvents(successor, [
    {
      kind: EventKind.CONTINUATION,
      text: `Continued from "${predecessor.title}"`,
      data: { role: 'banner', edgeId, manifestId, predecessorId: predecessor.id, predecessorTitle: predecessor.title, reason: input.reason, actor },
    },
    branchMessage
      ? { kind: EventKind.USER_MESSAGE, text: branchMessage.text, clientMessageId: branchMessage.clientMessageId, attachmentCids: branchMessage.attachmentCids }
      : {
          kind: EventKind.USER_MESSAGE,
          text: initiating!.text,
          replayOfId: initiating!.id,
          // The same attachments by cid: linked again, never copied.
          attachmentCids: initiating!.attachmentCids,
          tokenCount: initiating!.data == null ? initiating!.tokenCount : undefined,
        },
  ]);
  Object.assign(successor, opened.totals);
  return { successor, successorEvents: opened.events };
}

/** The predecessor's durable transition card: where it continued, why, and what was carried. */
function transitionCard(write: ContinuationWrite, successor: SessionEntity, handoff: Handoff, projection: Projection, { edgeId, manifestId }: WriteIds) {
  const { input, actor, predecessor, prepared } = write;
  // A cited range split by the budget counts as included: the successor sees its end.
  const included = projection.citedItems.filter((items) => items.some((item) => item.status === ManifestItemStatus.INCLUDED)).length;
  const handoffShown = projection.sections.some((section) => section.kind === ContextSectionKind.HANDOFF);
  return chainEvents(predecessor, [
    {
      kind: EventKind.CONTINUATION,
      text: `Continued in "${successor.title}"`,
      data: {
        role: 'transition_card',
        edgeId,
        manifestId,
        successorId: successor.id,
        successorTitle: successor.title,
        reason: input.reason,
        actor,
        carried: describeCarried(handoff, handoffShown, included, prepared.transferred),
        includedSources: included,
        omittedSources: prepared.sources.length - included,
      },
    },
  ]);
}

/** The plan's next revision: carried into the successor whole, or closed in the predecessor. */
function planRevisions(write: ContinuationWrite, successor: SessionEntity, now: Date): PlanRevisionEntity[] {
  const { plan, transferred } = write.prepared;
  if (plan && transferred.plan === PlanTransfer.CARRY) return [nextPlanRevision(successor, null, { closed: false, steps: plan.steps }, now)];
  if (plan && transferred.plan === PlanTransfer.CLOSE) return [nextPlanRevision(write.predecessor, plan, { closed: true, steps: plan.steps }, now)];
  return [];
}
