import { DataSource, EntityManager, In } from 'typeorm';
import { ErrorCode, Outcome, fail, notFound, succeed } from '../../../shared/errors';
import { isId, newRowId } from '../../../shared/ids';
import { Viewer } from '../../../shared/viewer';
import { deleteAttachments } from '../../attachments/attachment.repository';
import type { AttachmentEntity } from '../../attachments/attachment.entity';
import type { AttachmentService } from '../../attachments/attachments.service';
import { EventEntity } from '../../conversation/event.entity';
import type { ConversationNotifier } from '../../conversation/notifications';
import type { RunEntity } from '../../conversation/run.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { forgetSessionTerms, recountTermsWithout } from '../../search/search-terms.repository';
import { ErasureActor, ErasureScope, sessionErased, validateErasureReason } from './erasure';
import { enqueueWebhooks } from '../../webhooks/webhook.repository';
import { ErasureReceiptEntity } from './erasure-receipt.entity';
import {
  ErasureTargets,
  coveredSessions,
  earliestTarget,
  eraseEvents,
  eraseManifests,
  erasePlans,
  eraseProposals,
  forgetTurnOutput,
  linkedCids,
  lockSessions,
  markSessionsErased,
  replaysOutside,
  stopRuns,
  unlinkedCids,
} from './erasure.repository';

export interface EraseSessionRequest {
  sessionId: string;
  scope: ErasureScope;
  reason: string;
}

/** One erasure as its transaction sees it: what to erase, and who asks why. */
export interface ErasureOrder {
  accountId: string;
  scope: ErasureScope;
  /** Whole sessions, locked by the caller. */
  sessionIds: string[];
  /** For a redaction: the event. */
  eventId: string | null;
  reason: string;
  actor: ErasureActor;
  requestedBy: string;
}

/** What an erasure did, for its caller to announce once the transaction has committed. */
export interface ErasureDone {
  receipt: ErasureReceiptEntity;
  stoppedRuns: RunEntity[];
  deletedAttachments: AttachmentEntity[];
}

export const RECEIPTS_PAGE_MAX = 100;

/**
 * Erasure: the content of a session, a lineage or one event removed for good, in one transaction,
 * everywhere it was kept (events, replayed copies, manifests compiled from it, plans, proposals,
 * run output, search statistics, attachments no longer linked), while the structure stays as
 * recorded (ids, seq, kinds, edges, times, hashes), so that lineages still walk and hash chains
 * still verify around what was erased. Each erasure leaves a receipt.
 */
export class ErasureService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ConversationNotifier,
    private readonly attachments: AttachmentService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Erases a session (with the child sessions it delegated to) or its whole lineage. Returns the
   * receipt. Fails with NOT_FOUND for a session that is not the viewer's, INVALID_INPUT for a bad
   * reason or scope, or a session erased already; nothing is written then.
   */
  async eraseSession(viewer: Viewer, request: EraseSessionRequest): Promise<Outcome<ErasureReceiptEntity>> {
    const details = validateErasureReason(request.reason, ['input', 'reason']);
    if (request.scope === ErasureScope.EVENT) details.push({ path: ['input', 'scope'], message: 'Erase one event with redactEvent.' });
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    if (!isId(request.sessionId)) return notFound('session', ['input', 'sessionId']);
    const wholeLineage = request.scope === ErasureScope.LINEAGE;
    const outcome = await this.dataSource.transaction(async (manager): Promise<Outcome<ErasureDone>> => {
      const sessionIds = await lockCovered(manager, viewer.accountId, request.sessionId, wholeLineage);
      if (sessionIds.length === 0) return notFound('session', ['input', 'sessionId']);
      const named = await manager.findOneByOrFail(SessionEntity, { id: request.sessionId });
      if (named.erasedAt && (!wholeLineage || (await allErased(manager, sessionIds)))) {
        return fail(ErrorCode.INVALID_INPUT, 'This session was erased already.', [{ path: ['input', 'sessionId'], message: 'Already erased.' }]);
      }
      const order = { accountId: viewer.accountId, scope: request.scope, sessionIds, eventId: null, reason: request.reason.trim() };
      return succeed(await this.eraseIn(manager, { ...order, actor: ErasureActor.USER, requestedBy: viewer.name }));
    });
    return this.announced(outcome);
  }

  /**
   * Erases one event's content (and its replayed copies), keeping its neighbours, its place and
   * its hash. Fails with NOT_FOUND for an event that is not the viewer's, INVALID_INPUT for a bad
   * reason or an event erased already.
   */
  async redactEvent(viewer: Viewer, eventId: string, reason: string): Promise<Outcome<ErasureReceiptEntity>> {
    const details = validateErasureReason(reason, ['reason']);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    if (!isId(eventId)) return notFound('event', ['eventId']);
    const outcome = await this.dataSource.transaction(async (manager): Promise<Outcome<ErasureDone>> => {
      const peek = await manager.findOneBy(EventEntity, { id: eventId, accountId: viewer.accountId });
      if (!peek) return notFound('event', ['eventId']);
      await lockSessions(manager, viewer.accountId, [peek.sessionId]);
      const event = await manager.findOneByOrFail(EventEntity, { id: eventId });
      if (event.erasedAt) return fail(ErrorCode.INVALID_INPUT, 'This event was erased already.', [{ path: ['eventId'], message: 'Already erased.' }]);
      const order = { accountId: viewer.accountId, scope: ErasureScope.EVENT, sessionIds: [], eventId, reason: reason.trim() };
      return succeed(await this.eraseIn(manager, { ...order, actor: ErasureActor.USER, requestedBy: viewer.name }));
    });
    return this.announced(outcome);
  }

  /** The account's receipts, newest first. */
  receipts(viewer: Viewer, first: number): Promise<ErasureReceiptEntity[]> {
    return this.dataSource.manager.find(ErasureReceiptEntity, {
      where: { accountId: viewer.accountId },
      order: { erasedAt: 'DESC', id: 'DESC' },
      take: first,
    });
  }

  /** The account's receipts written at each instant (ISO strings), aligned with `instants`: a DataLoader batch function. */
  async receiptsAt(accountId: string, instants: readonly string[]): Promise<ErasureReceiptEntity[][]> {
    const rows = await this.dataSource.manager.find(ErasureReceiptEntity, { where: { accountId, erasedAt: In(instants.map((instant) => new Date(instant))) } });
    return instants.map((instant) => rows.filter((row) => row.erasedAt.getTime() === new Date(instant).getTime()));
  }

  /**
   * Performs an erasure inside the caller's transaction, which holds the locks of its sessions;
   * call {@link announce} with the result once it has committed.
   */
  async eraseIn(manager: EntityManager, order: ErasureOrder): Promise<ErasureDone> {
    const now = this.clock();
    const { accountId, sessionIds } = order;
    const targets: ErasureTargets = { accountId, sessionIds, eventIds: order.eventId ? [order.eventId] : [] };
    targets.eventIds.push(...(await replaysOutside(manager, targets)));
    const cids = await linkedCids(manager, targets);
    const since = (await earliestTarget(manager, targets)) ?? new Date(0);
    // The statistics read the words from the events, so before those lose their text.
    await recountTermsWithout(manager, accountId, targets.eventIds);
    await forgetSessionTerms(manager, accountId, sessionIds);
    const erased = await eraseEvents(manager, targets, now);
    await eraseManifests(manager, accountId, [...new Set([...sessionIds, ...erased.sessionIds])], since, now);
    await erasePlans(manager, accountId, sessionIds, now);
    await eraseProposals(manager, accountId, sessionIds, now);
    const stoppedRuns = await stopRuns(manager, accountId, sessionIds);
    if (order.eventId) await forgetTurnOutput(manager, order.eventId);
    const deletedAttachments = await deleteAttachments(manager, accountId, await unlinkedCids(manager, accountId, cids));
    await markSessionsErased(manager, accountId, sessionIds, now);
    const receipt = Object.assign(new ErasureReceiptEntity(), {
      id: newRowId(),
      accountId,
      scope: order.scope,
      sessionIds: order.eventId ? erased.sessionIds : sessionIds,
      eventId: order.eventId,
      eventCount: erased.count,
      attachmentCount: deletedAttachments.length,
      reason: order.reason,
      actor: order.actor,
      requestedBy: order.requestedBy,
      erasedAt: now,
    });
    await manager.insert(ErasureReceiptEntity, receipt);
    await enqueueWebhooks(manager, [sessionErased(receipt)]);
    return { receipt, stoppedRuns, deletedAttachments };
  }

  /** After commit: stopped runs are announced (their workers stop at once) and bytes kept outside the database are removed. */
  async announce(done: ErasureDone): Promise<void> {
    if (done.stoppedRuns.length) this.notifier.runsChanged(done.stoppedRuns);
    await this.attachments.discardBytes(done.deletedAttachments);
  }

  private async announced(outcome: Outcome<ErasureDone>): Promise<Outcome<ErasureReceiptEntity>> {
    if (!outcome.ok) return outcome;
    await this.announce(outcome.value);
    return succeed(outcome.value.receipt);
  }
}

/**
 * Locks every session the erasure covers. A continuation may have added a successor while the
 * first locks were awaited; once a session is locked nothing more can be added to it, so the
 * covered set is read again until it holds still.
 */
export async function lockCovered(manager: EntityManager, accountId: string, sessionId: string, wholeLineage: boolean): Promise<string[]> {
  let locked: string[] = [];
  for (;;) {
    const covered = await coveredSessions(manager, accountId, sessionId, wholeLineage);
    if (covered.every((id) => locked.includes(id))) return locked;
    locked = await lockSessions(manager, accountId, [...new Set([...locked, ...covered])]);
  }
}

async function allErased(manager: EntityManager, sessionIds: string[]): Promise<boolean> {
  const [row]: { live: number }[] = await manager.query(`SELECT count(*)::int AS live FROM sessions WHERE id = ANY($1::uuid[]) AND erased_at IS NULL`, [sessionIds]);
  return row.live === 0;
}
