import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Actor, ContinuationReason, ContinueSessionRequest, SourceKind, requestFingerprint, validateContinueSessionRequest } from './continuations';
import { ErrorCode, Outcome, fail, succeed, notFound, notFoundFailure } from '../../shared/errors';
import { isId, newRowId } from '../../shared/ids';
import { ManifestProposal, ProposalStatus, undecidableReason } from './proposals';
import { Projection, RECENT_EXCHANGE_EVENTS } from './projection/model';
import { recommendedReads } from './projection/candidates';
import { RunKind } from '../conversation/runs';
import { Lease, LeaseLost, settleLeasedRunStatement, settledRun, settledRunWebhooks } from '../conversation/run.repository';
import { ContinuationApproval, erasedSessionFailure } from '../conversation/sessions';
import { sessionTitle } from '../conversation/session-rows';
import { EventKind } from '../conversation/transcript';
import { ContinuationEdgeEntity } from './continuation-edge.entity';
import type { ContinuationProposalEntity } from './continuation-proposal.entity';
import { EventEntity } from '../conversation/event.entity';
import { ProjectionManifestEntity } from './projection-manifest.entity';
import { RunEntity } from '../conversation/run.entity';
import type { PlanRevisionEntity } from '../plans/plan-revision.entity';
import { SessionEntity } from '../conversation/session.entity';
import { isUniqueViolation } from '../../platform/db/errors';
import { EventPrefetch, SnapshotQuery, continuationSnapshot, lockWithSnapshot } from './continuation.repository';
import { lockProposal, supersedePending } from './proposal.repository';
import { inWriteTransaction, WriteTransaction } from '../../platform/db/write-transaction';
import { checkRateLimits } from './steps/checks';
import { Prepared, RecommendationQuery, RecommendationsAhead, compile, initiatingAttachments, prepare, readAhead, recommendations, recommendedFor, tokenBudget } from './steps/compile';
import { AttachmentService, attachmentReference } from '../attachments/attachments.service';
import { CitedAttachment } from './steps/sources';
import { ContinuationPolicy, DEFAULT_CONTINUATION_POLICY } from './steps/policy';
import { Refused, refuse, refuseWith } from './steps/refusal';
import { eventReader } from './steps/sources';
import { BranchMessage, Written, writeContinuation } from './steps/write';
import { ContinuationNotifier } from './notifications';
import type { Recommendation } from './assisted/recommendations.service';

export type { RecommendationsAhead } from './steps/compile';
import { Viewer } from '../../shared/viewer';
import { metrics } from '../../platform/observability/metrics';

export { DEFAULT_CONTINUATION_POLICY, type ContinuationPolicy } from './steps/policy';

/** A text attachment is read for an excerpt only up to this size, so that citing a file never reads a large one whole. */
const ATTACHMENT_EXCERPT_MAX_BYTES = 256 * 1024;

export interface ContinuationResult {
  edge: ContinuationEdgeEntity;
  successor: SessionEntity;
  run: RunEntity;
  replayed: boolean;
  /** What this call wrote of the successor, as written: absent on a replay. */
  written?: { manifest: ProjectionManifestEntity; successorEvents: EventEntity[]; plan: PlanRevisionEntity | null; movedRuns: RunEntity[] };
}

/** What a continuation reads before it writes: never changed by the write, so read outside the lock. */
interface ReadBefore {
  recommended: Recommendation[];
  attachments: ReadonlyMap<string, CitedAttachment>;
}

export interface ContinueOptions {
  actor: Actor;
  /** The run that asked for the continuation: it does not count as a turn in progress. */
  callerRunId?: string;
  /** The proposal a person approves: checked under the predecessor's lock and marked APPROVED with the continuation. */
  approving?: ManifestProposal;
  /**
   * A worker that starts the successor's turn itself: its run is written leased to `owner`
   * (RUNNING, attempt 1), so no other slot or process claims it in between.
   */
  leaseTo?: { owner: string; leaseMs: number };
  /**
   * The caller's run, settled SUCCEEDED in the continuation's own transaction (its work goes on
   * in the successor); nothing is written, and {@link LeaseLost} is thrown, when its lease is gone.
   */
  settles?: Lease;
  /** The predecessor's origin, from the caller's own read of the session: assisted selection does not look it up again. */
  originId?: string;
  /** Recommendations read ahead ({@link ContinuationService.recommendationsAhead}): used when the request asks for the same. */
  recommendedAhead?: RecommendationsAhead;
  /** Told what is written before the commit is sent, so before it is known to succeed: a worker may begin the successor's first model call, which the commit waits a turn of the event loop for. */
  beforeCommit?: (result: ContinuationResult) => void;
}

function resultOf(written: Written): ContinuationResult {
  const { edge, successor, run, manifest, successorEvents, successorPlan, movedRuns } = written;
  return { edge, successor, run, replayed: false, written: { manifest, successorEvents, plan: successorPlan, movedRuns } };
}

/**
 * The continuation's stages, each in its own module under `continuations/`: checks of the
 * predecessor, resolution of the cited sources, compilation of the projection, and the write.
 * This service orders them around the predecessor's lock and answers replays.
 */
export class ContinuationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ContinuationNotifier,
    private readonly attachments: AttachmentService,
    private readonly policy: ContinuationPolicy = DEFAULT_CONTINUATION_POLICY,
  ) {}

  /** The budget of a successor's initial context when a request names none. */
  get defaultTokenBudget(): number {
    return this.policy.defaultTokenBudget;
  }

  /**
   * Continues a session in a new successor, atomically: the successor with its banner and the
   * replayed initiating message, the edge, the manifest, the transferred state, the predecessor
   * marked CONTINUED with its transition card, and the successor's queued initial run.
   * Replaying an idempotency key returns the first successor with `replayed: true`.
   * Fails (writing nothing) with INVALID_INPUT, NOT_FOUND, SOURCE_NOT_FOUND, TURN_IN_PROGRESS,
   * PENDING_RUNS_NOT_TRANSFERRED, IDEMPOTENCY_KEY_REUSED or RATE_LIMITED.
   */
  async continueSession(viewer: Viewer, input: ContinueSessionRequest, options: ContinueOptions): Promise<Outcome<ContinuationResult>> {
    const outcome = await this.run(viewer, input, options, null);
    metrics.continuations.inc({ reason: input.reason, outcome: outcome.ok ? (outcome.value.replayed ? 'replayed' : 'continued') : outcome.error.code });
    return outcome;
  }

  /**
   * Writing to a continued session with `branch`: a new continuation of it, by the user, whose
   * runtime-written handoff cites the predecessor's whole transcript, receives the message.
   */
  async branchWithMessage(
    viewer: Viewer,
    predecessor: SessionEntity,
    message: BranchMessage,
  ): Promise<Outcome<ContinuationResult & { message: EventEntity }>> {
    const idempotencyKey = `branch:${predecessor.id}:${message.clientMessageId ?? randomUUID()}`;
    const earlier = await this.dataSource.manager.findOneBy(ContinuationEdgeEntity, {
      accountId: viewer.accountId,
      idempotencyKey,
    });
    // A replayed clientMessageId returns the first branch, like a replayed message anywhere else.
    const outcome = earlier
      ? await this.replayOf(this.dataSource.manager, earlier)
      : await this.run(viewer, await this.branchRequest(predecessor, message.text, idempotencyKey), { actor: Actor.USER }, message);
    if (!outcome.ok) return outcome;
    const event = await this.dataSource.manager.findOneByOrFail(EventEntity, {
      sessionId: outcome.value.successor.id,
      kind: EventKind.USER_MESSAGE,
      seq: 2,
    });
    return succeed({ ...outcome.value, message: event });
  }

  /** A user's branch: the handoff cites the predecessor's whole transcript; the new message is the request. */
  private async branchRequest(predecessor: SessionEntity, text: string, idempotencyKey: string): Promise<ContinueSessionRequest> {
    const [first, last] = await Promise.all([
      this.dataSource.manager.findOneByOrFail(EventEntity, { sessionId: predecessor.id, seq: 1 }),
      this.dataSource.manager.findOneByOrFail(EventEntity, { sessionId: predecessor.id, seq: predecessor.eventCount }),
    ]);
    return {
      sessionId: predecessor.id,
      idempotencyKey,
      reason: ContinuationReason.USER_REQUEST,
      title: branchTitle(predecessor.title),
      description: predecessor.description,
      handoff: {
        purpose: `A new branch of "${predecessor.title}", started by the user writing there after it was continued.`,
        currentRequest: text,
        cautions: ['The predecessor has other continuations; this branch goes its own way from the end of its transcript.'],
      },
      sources: [
        {
          kind: SourceKind.SESSION_EVENTS,
          relevance: 'the whole transcript of the session this branch continues',
          sessionId: predecessor.id,
          fromEventId: first.id,
          toEventId: last.id,
        },
      ],
    };
  }

  private async run(
    viewer: Viewer,
    input: ContinueSessionRequest,
    options: ContinueOptions,
    branchMessage: BranchMessage | null,
  ): Promise<Outcome<ContinuationResult>> {
    const details = validateContinueSessionRequest(input);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    if (!isId(input.sessionId)) return notFound('session', ['input', 'sessionId']);
    const fingerprint = requestFingerprint(input, options.actor);
    // Read before the lock: events never change, and a recommendation is a suggestion, not a check.
    // Attachments never change either, and their bytes may be elsewhere than the database.
    // Read to the end before the transaction takes its connection: reads running beside it would
    // wait for another, and the embedded database has only the one.
    const [recommended, attachments] = await Promise.all([recommendedFor(this.dataSource.manager, viewer, input, options.originId, options.recommendedAhead), this.citedAttachments(viewer, input)]);
    const readBefore: ReadBefore = { recommended, attachments };
    let created: (Written & { superseded: ContinuationProposalEntity[]; settled: RunEntity[] }) | Outcome<ContinuationResult>;
    try {
      created = await inWriteTransaction(this.dataSource, (transaction) =>
        this.create(transaction, viewer, input, options, fingerprint, branchMessage, readBefore),
      );
    } catch (error) {
      if (error instanceof Refused) return { ok: false, error: error.failure };
      if (!isUniqueViolation(error, 'continuation_edges_idempotency')) throw error;
      // Another call with the same key committed first: answer as its replay.
      const winner = await this.replay(this.dataSource.manager, viewer, input.idempotencyKey, fingerprint);
      if (!winner) throw error;
      return winner;
    }
    if ('ok' in created) return created;
    this.notifier.eventsAppended([...created.predecessorEvents, ...created.successorEvents]);
    this.notifier.sessionContinued(created.edge);
    this.notifier.runsChanged([...created.settled, created.run, ...created.movedRuns]);
    if (created.superseded.length) this.notifier.proposalsChanged(created.superseded);
    return succeed(resultOf(created));
  }

  /**
   * Starts reading assisted selection's recommendations for a continuation of `query.sessionId`
   * that is still being written (a model drafting the rest of its handoff); see {@link readAhead}.
   */
  recommendationsAhead(viewer: Viewer, query: RecommendationQuery, originId: string): RecommendationsAhead {
    return readAhead(this.dataSource.manager, viewer, query, originId);
  }

  /** The result of an earlier call with this key, or IDEMPOTENCY_KEY_REUSED for a different request. */
  private async replay(
    manager: EntityManager,
    viewer: Viewer,
    idempotencyKey: string,
    fingerprint: string,
  ): Promise<Outcome<ContinuationResult> | null> {
    const edge = await manager.findOneBy(ContinuationEdgeEntity, { accountId: viewer.accountId, idempotencyKey });
    if (!edge) return null;
    if (edge.requestFingerprint !== fingerprint) {
      return fail(ErrorCode.IDEMPOTENCY_KEY_REUSED, 'This idempotency key was already used for a different request.', [
        { path: ['input', 'idempotencyKey'], message: `Already used by continuation ${edge.id}.` },
      ]);
    }
    return this.replayOf(manager, edge);
  }

  private async replayOf(manager: EntityManager, edge: ContinuationEdgeEntity): Promise<Outcome<ContinuationResult>> {
    return succeed(await this.replayed(manager, edge));
  }

  private async replayed(manager: EntityManager, edge: ContinuationEdgeEntity): Promise<ContinuationResult> {
    const [successor, run] = await Promise.all([
      manager.findOneByOrFail(SessionEntity, { id: edge.successorId }),
      manager.findOneOrFail(RunEntity, { where: { sessionId: edge.successorId, kind: RunKind.TURN }, order: { createdAt: 'ASC' } }),
    ]);
    return { edge, successor, run, replayed: true };
  }

  private async create(
    transaction: WriteTransaction,
    viewer: Viewer,
    input: ContinueSessionRequest,
    options: ContinueOptions,
    fingerprint: string,
    branchMessage: BranchMessage | null,
    readBefore: ReadBefore,
  ): Promise<(Written & { superseded: ContinuationProposalEntity[]; settled: RunEntity[] }) | Outcome<ContinuationResult>> {
    const manager = transaction.manager;
    // The caller's run is settled in the lock's round trip: a refusal or a replay below rolls it back.
    const locked = await lockWithSnapshot(
      transaction,
      this.snapshotQuery(viewer, input),
      this.eventPrefetch(input, branchMessage !== null, readBefore.recommended),
      options.settles ? settleLeasedRunStatement(manager, options.settles) : null,
    );
    if (!locked.predecessor) return refuseWith(notFoundFailure('session', ['input', 'sessionId']));
    const { predecessor, snapshot, prefetched, alsoReturned } = locked;
    if (predecessor.erasedAt) return refuseWith(erasedSessionFailure(['input', 'sessionId']));
    if (options.approving) {
      // Approvals of one proposal queue on the lock; all but the first find it approved.
      const approved = await this.claimProposal(manager, viewer, options.approving.proposalId);
      if (approved) return approved;
    }
    // A call with the same key may have committed while this one waited for the lock.
    if (snapshot.earlierEdgeId) return (await this.replay(manager, viewer, input.idempotencyKey, fingerprint))!;
    const checked = await prepare(
      manager,
      viewer,
      predecessor,
      input,
      snapshot,
      { callerRunId: options.callerRunId, branching: branchMessage !== null },
      readBefore.attachments,
    );
    // Continuing an asking session some other way answers the proposal waiting there: it is
    // superseded, not left to be approved later into a second successor.
    const superseded =
      predecessor.continuationApproval === ContinuationApproval.ASK && !options.approving ? await supersedePending(manager, predecessor.id, new Date()) : [];
    const settled = options.settles ? [settledCallerRun(manager, alsoReturned)] : [];
    const written = await writeContinuation(transaction, this.policy, {
      viewer,
      input,
      actor: options.actor,
      fingerprint,
      branchMessage,
      predecessor,
      snapshot,
      prefetched,
      prepared: { ...checked, recommended: readBefore.recommended },
      approving: options.approving ?? null,
      leaseTo: options.leaseTo ?? null,
      webhooks: settled.flatMap(settledRunWebhooks),
      beforeCommit: options.beforeCommit && ((written) => options.beforeCommit!(resultOf(written))),
    });
    return { ...written, superseded, settled };
  }

  /** The continuation an approved proposal became; refuses a proposal that cannot be decided (rejected, expired). */
  private async claimProposal(manager: EntityManager, viewer: Viewer, proposalId: string): Promise<Outcome<ContinuationResult> | null> {
    const locked = await lockProposal(manager, viewer.accountId, proposalId);
    const path = ['input', 'proposalId'];
    if (!locked) return refuseWith(notFoundFailure('proposal', path));
    const { proposal, decidable } = locked;
    if (proposal.status === ProposalStatus.APPROVED) {
      return this.replayOf(manager, await manager.findOneByOrFail(ContinuationEdgeEntity, { id: proposal.edgeId! }));
    }
    if (decidable) return null;
    // Still PENDING but not decidable: past its time by the database's clock.
    const reason = undecidableReason(proposal.status === ProposalStatus.PENDING ? ProposalStatus.EXPIRED : proposal.status)!;
    return refuse(ErrorCode.INVALID_INPUT, reason, [{ path, message: reason }]);
  }

  /**
   * Every check continueSession makes of `input` and the compilation of its projection, for a
   * predecessor the caller holds locked in `manager`'s transaction; writes nothing. Throws
   * {@link Refused} with the failure continueSession would answer.
   */
  async checkContinuation(manager: EntityManager, viewer: Viewer, predecessor: SessionEntity, input: ContinueSessionRequest, callerRunId: string | null): Promise<void> {
    const snapshot = await continuationSnapshot(manager, this.snapshotQuery(viewer, input));
    const prepared = await this.prepared(manager, viewer, predecessor, input, snapshot, { callerRunId: callerRunId ?? undefined, branching: false });
    checkRateLimits(this.policy, predecessor, prepared.hasNewUserMessage, snapshot.recentContinuations);
    const attached = await initiatingAttachments(manager, viewer, prepared.initiating!);
    await compile(eventReader(manager), this.policy, viewer, input, predecessor, prepared, prepared.initiating!, attached, {
      edgeId: newRowId(),
      manifestId: newRowId(),
    });
  }

  private async prepared(
    manager: EntityManager,
    viewer: Viewer,
    predecessor: SessionEntity,
    input: ContinueSessionRequest,
    snapshot: Awaited<ReturnType<typeof continuationSnapshot>>,
    turn: Parameters<typeof prepare>[5],
  ): Promise<Prepared> {
    const attachments = await this.citedAttachments(viewer, input);
    return { ...(await prepare(manager, viewer, predecessor, input, snapshot, turn, attachments)), recommended: await recommendations(manager, viewer, input) };
  }

  /** The successor and initial run of an edge, as a replay answers them. */
  async continuationOf(edgeId: string): Promise<ContinuationResult> {
    const manager = this.dataSource.manager;
    return this.replayed(manager, await manager.findOneByOrFail(ContinuationEdgeEntity, { id: edgeId }));
  }

  /**
   * What continueSession would give the successor, computed the same way and writing nothing:
   * the budget estimate before continuing. Fails as continueSession would, but for rate limits,
   * and with `anyTurnState` not for a turn in progress either (a proposal's preview, shown while
   * the agent answers another message).
   */
  async previewProjection(
    viewer: Viewer,
    input: ContinueSessionRequest,
    options: { anyTurnState?: boolean } = {},
  ): Promise<Outcome<Projection & { tokenBudget: number }>> {
    const details = validateContinueSessionRequest(input);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    if (!isId(input.sessionId)) return notFound('session', ['input', 'sessionId']);
    const manager = this.dataSource.manager;
    const predecessor = await manager.findOneBy(SessionEntity, { id: input.sessionId, accountId: viewer.accountId });
    if (!predecessor) return notFound('session', ['input', 'sessionId']);
    try {
      const snapshot = await continuationSnapshot(manager, this.snapshotQuery(viewer, input));
      const prepared = await this.prepared(manager, viewer, predecessor, input, snapshot, { branching: false, anyTurnState: options.anyTurnState });
      const initiating = prepared.initiating!;
      const attached = await initiatingAttachments(manager, viewer, initiating);
      const { projection } = await compile(eventReader(manager), this.policy, viewer, input, predecessor, prepared, initiating, attached, {
        edgeId: newRowId(),
        manifestId: newRowId(),
      });
      return succeed({ ...projection, tokenBudget: tokenBudget(this.policy, input) });
    } catch (error) {
      if (error instanceof Refused) return { ok: false, error: error.failure };
      throw error;
    }
  }

  /**
   * The viewer's attachments the sources cite, each with the content of a text attachment small
   * enough to be an excerpt; a cid the viewer does not hold is missing (resolution refuses it).
   */
  private async citedAttachments(viewer: Viewer, input: ContinueSessionRequest): Promise<Map<string, CitedAttachment>> {
    const cids = input.sources.flatMap((source) => (source.kind === SourceKind.ATTACHMENT && typeof source.cid === 'string' ? [source.cid] : []));
    const found = (await this.attachments.attachmentsByCids(viewer.accountId, [...new Set(cids)])).filter((attachment) => attachment !== null);
    const cited = await Promise.all(
      found.map(async (attachment) => ({ reference: attachmentReference(attachment), excerpt: await this.attachments.text(attachment, ATTACHMENT_EXCERPT_MAX_BYTES) })),
    );
    return new Map(cited.map((attachment) => [attachment.reference.cid, attachment]));
  }

  /** What the compiler will read, as `compile` asks for it: fetched with the lock, and checked again by the reader. */
  private eventPrefetch(input: ContinueSessionRequest, branching: boolean, recommended: Recommendation[]): EventPrefetch {
    const citedRanges = input.sources.flatMap((source) => {
      const [fromEventId, toEventId] =
        source.kind === SourceKind.SESSION_EVENT ? [source.eventId, source.eventId] : [source.fromEventId, source.toEventId];
      return typeof fromEventId === 'string' && isId(fromEventId) && typeof toEventId === 'string' && isId(toEventId)
        ? [{ fromEventId, toEventId }]
        : [];
    });
    const initiatingEventId = input.initiatingEventId;
    return {
      initiatingEventId: typeof initiatingEventId === 'string' && isId(initiatingEventId) ? initiatingEventId : null,
      branching,
      citedRanges,
      tokenBudget: tokenBudget(this.policy, input),
      recentEvents: RECENT_EXCHANGE_EVENTS,
      reads: recommendedReads(recommended, tokenBudget(this.policy, input)),
    };
  }

  private snapshotQuery(viewer: Viewer, input: ContinueSessionRequest): SnapshotQuery {
    // The initiating message is read with the cited events. Ranges often share an end (one ends
    // where the next starts): each event is looked up once.
    const eventIds = [input.initiatingEventId, ...input.sources.flatMap((source) => [source.fromEventId, source.toEventId, source.eventId])];
    return {
      accountId: viewer.accountId,
      sessionId: input.sessionId,
      idempotencyKey: input.idempotencyKey,
      eventIds: [...new Set(eventIds.filter((id): id is string => typeof id === 'string' && isId(id)))],
    };
  }
}

/** A branch is named after what it branches from, so that the lineage tree tells them apart. */
function branchTitle(title: string): string {
  return sessionTitle(title, { prefix: 'Branch of ' });
}

/** The caller's run SUCCEEDED, under the predecessor's lock (sessions before runs, as every run write takes them). */
function settledCallerRun(manager: EntityManager, returned: unknown): RunEntity {
  const settled = settledRun(manager, returned);
  if (!settled) throw new LeaseLost();
  return settled;
}
