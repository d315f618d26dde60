import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  Actor,
  ContinuationReason,
  ContinueSessionRequest,
  Handoff,
  PlanTransfer,
  SourceInput,
  SourceKind,
  TransferredState,
  describeCarried,
  lineageBlock,
  nextContinuationStreak,
  normalizeHandoff,
  requestFingerprint,
  validateContinueSessionRequest,
} from '../domain/continuations';
import { ErrorCode, ErrorDetail, OperationFailure, Outcome, fail, succeed } from '../domain/errors';
import { isId } from '../domain/ids';
import {
  COMPILER_VERSION,
  ContextSectionKind,
  DEFAULT_TOKEN_BUDGET,
  EventRangeRead,
  MODEL_VERSION,
  ManifestItemStatus,
  Projection,
  ProjectedEvent,
  ProjectionSourceReader,
  RECENT_EXCHANGE_EVENTS,
  ResolvedContentSource,
  ResolvedEventSource,
  RecommendedRange,
  ResolvedSource,
  UnavailableSource,
  compileProjection,
  contentItem,
  manifestHash,
  readStart,
} from '../domain/projection';
import { rankedSources } from './recommendations.service';
import { RunKind } from '../domain/runs';
import { SessionKind, SessionStatus, TITLE_MAX_CHARS } from '../domain/sessions';
import { EventKind, GENESIS_HASH } from '../domain/transcript';
import { ContinuationEdgeEntity } from '../db/entities/continuation-edge.entity';
import { EventEntity } from '../db/entities/event.entity';
import { ProjectionManifestEntity } from '../db/entities/projection-manifest.entity';
import { RunEntity } from '../db/entities/run.entity';
import { SessionEntity } from '../db/entities/session.entity';
import { PlanRevisionEntity } from '../db/entities/plan-revision.entity';
import { isUniqueViolation } from '../db/errors';
import { latestPlan, nextPlanRevision } from '../db/repositories/plan.repository';
import { queuedRun } from '../db/repositories/run.repository';
import { resolveMemorySource, resolveResourceSource } from './resources.service';
import {
  ContinuationSnapshot,
  EventPrefetch,
  SnapshotQuery,
  continuationSnapshot,
  lockWithSnapshot,
  readEventRanges,
} from '../db/repositories/continuation.repository';
import { chainEvents } from '../db/repositories/transcript.repository';
import { CombinedStatement } from '../db/statement';
import { inWriteTransaction, WriteTransaction } from '../db/write-transaction';
import { ChangeNotifier } from './notifications';
import { Viewer } from './viewer';
import { metrics } from '../metrics';

/** Limits against pathological transitions; the README documents them and their variables. */
export interface ContinuationPolicy {
  /** Continuations in a row along one lineage with no new user message between them. */
  streakLimit: number;
  /** Continuations per account per minute. */
  perAccountPerMinute: number;
  defaultTokenBudget: number;
}

export const DEFAULT_CONTINUATION_POLICY: ContinuationPolicy = {
  streakLimit: 3,
  perAccountPerMinute: 600,
  defaultTokenBudget: DEFAULT_TOKEN_BUDGET,
};

/** Edge and manifest ids are new on every attempt; their tokens vary by a few, so advised minimums include this. */
const LINEAGE_ID_ALLOWANCE = 24;

/** Recommendations considered for an assisted continuation: more than any budget holds, so that it is filled. */
const RECOMMENDED_CANDIDATES = 20;

/** Tools every agent of this server may call; a successor's identity lists them, recomputed each time. */
export const AGENT_TOOLS = ['continue_session', 'read_events', 'search_history', 'read_manifest', 'read_resource', 'read_memory', 'walk_lineage', 'delegate'];

export interface ContinuationResult {
  edge: ContinuationEdgeEntity;
  successor: SessionEntity;
  run: RunEntity;
  replayed: boolean;
}

export interface ContinueOptions {
  actor: Actor;
  /** The run that asked for the continuation: it does not count as a turn in progress. */
  callerRunId?: string;
}

/** A branch's first message: it lives in the successor, since a continued session takes no writes. */
interface BranchMessage {
  text: string;
  clientMessageId: string | null;
}

/** What a continuation decided before writing anything. */
interface Prepared {
  /** The predecessor's initiating message; null for a branch, whose message is new. */
  initiating: EventEntity | null;
  sources: ResolvedSource[];
  pins: (ResolvedContentSource | UnavailableSource)[];
  transferred: TransferredState;
  plan: PlanRevisionEntity | null;
  /** Whether the user wrote in the predecessor since it began, beyond a replayed message. */
  hasNewUserMessage: boolean;
  /** What assisted selection recommends, when asked for. */
  recommended: RecommendedRange[];
}

interface Created extends ContinuationResult {
  /** Pending delegated runs that now report to the successor. */
  movedRuns: RunEntity[];
  predecessorEvents: EventEntity[];
  successorEvents: EventEntity[];
}

/** Thrown inside the transaction to roll it back with an expected failure. */
class Refused extends Error {
  constructor(readonly failure: OperationFailure) {
    super(failure.message);
  }
}

function refuse(code: ErrorCode, message: string, details: ErrorDetail[] = []): never {
  throw new Refused({ code, message, details });
}

function projected(event: EventEntity): ProjectedEvent {
  return {
    id: event.id,
    sessionId: event.sessionId,
    seq: event.seq,
    kind: event.kind,
    text: event.text,
    data: event.data,
    tokenCount: event.tokenCount,
    tokenTotal: event.tokenTotal,
    hash: event.hash,
  };
}

/**
 * Reads event ranges for the compiler: those `prefetched` holds (as much of each as asked) are
 * answered from it, the others in one query.
 */
function eventReader(manager: EntityManager, prefetched: EventEntity[] = []): ProjectionSourceReader {
  const held = new Map<string, ProjectedEvent>();
  const hold = (events: EventEntity[]) => events.forEach((event) => held.set(`${event.sessionId}:${event.seq}`, projected(event)));
  hold(prefetched);
  const fromHeld = (read: EventRangeRead): ProjectedEvent[] | null => {
    const start = readStart(read, (seq) => held.get(`${read.sessionId}:${seq}`));
    if (start === null) return null;
    const events: ProjectedEvent[] = [];
    for (let seq = start; seq <= read.toSeq; seq++) events.push(held.get(`${read.sessionId}:${seq}`)!);
    return events;
  };
  return {
    async eventsInRanges(reads) {
      const missing = reads.filter((read) => fromHeld(read) === null);
      if (missing.length) hold(await readEventRanges(manager, missing));
      return reads.map((read) => fromHeld(read) ?? []);
    },
  };
}

export class ContinuationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifier: ChangeNotifier,
    private readonly policy: ContinuationPolicy = DEFAULT_CONTINUATION_POLICY,
  ) {}

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
    if (!isId(input.sessionId)) return notFound();
    const fingerprint = requestFingerprint(input, options.actor);
    // Read before the lock: events never change, and a recommendation is a suggestion, not a check.
    const recommended = await this.recommendations(this.dataSource.manager, viewer, input);
    let created: Created | Outcome<ContinuationResult>;
    try {
      created = await inWriteTransaction(this.dataSource, (transaction) =>
        this.create(transaction, viewer, input, options, fingerprint, branchMessage, recommended),
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
    this.notifier.runsChanged([created.run, ...created.movedRuns]);
    return succeed({ edge: created.edge, successor: created.successor, run: created.run, replayed: false });
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
    const [successor, run] = await Promise.all([
      manager.findOneByOrFail(SessionEntity, { id: edge.successorId }),
      manager.findOneOrFail(RunEntity, { where: { sessionId: edge.successorId, kind: RunKind.TURN }, order: { createdAt: 'ASC' } }),
    ]);
    return succeed({ edge, successor, run, replayed: true });
  }

  private async create(
    transaction: WriteTransaction,
    viewer: Viewer,
    input: ContinueSessionRequest,
    options: ContinueOptions,
    fingerprint: string,
    branchMessage: BranchMessage | null,
    recommended: RecommendedRange[],
  ): Promise<Created | Outcome<ContinuationResult>> {
    const manager = transaction.manager;
    const { predecessor, snapshot, prefetched } = await lockWithSnapshot(
      transaction,
      this.snapshotQuery(viewer, input),
      this.eventPrefetch(input, branchMessage !== null),
    );
    if (!predecessor) return refuse(ErrorCode.NOT_FOUND, 'No such session.', [{ path: ['input', 'sessionId'], message: 'No such session.' }]);
    // A call with the same key may have committed while this one waited for the lock.
    if (snapshot.earlierEdgeId) return (await this.replay(manager, viewer, input.idempotencyKey, fingerprint))!;

    const prepared = { ...(await this.prepare(manager, viewer, predecessor, input, options, snapshot, branchMessage !== null)), recommended };
    const { initiating, transferred, plan } = prepared;
    const streak = this.checkRateLimits(predecessor, prepared.hasNewUserMessage, snapshot.recentContinuations);

    const now = new Date();
    const edgeId = randomUUID();
    const manifestId = randomUUID();
    const handoff = normalizeHandoff(input.handoff);
    const successor = Object.assign(new SessionEntity(), {
      id: randomUUID(),
      accountId: viewer.accountId,
      kind: SessionKind.CONTINUATION,
      status: SessionStatus.ACTIVE,
      title: input.title.trim(),
      description: input.description ?? null,
      createdAt: now,
      originId: predecessor.originId,
      lineageDepth: predecessor.lineageDepth + 1,
      continuationStreak: streak,
    });
    // Everything is built in memory first, then written in one statement.
    Object.assign(successor, { eventCount: 0, tokenCount: 0, lastEventHash: GENESIS_HASH });
    const opened = chainEvents(successor, [
      {
        kind: EventKind.CONTINUATION,
        text: `Continued from "${predecessor.title}"`,
        data: { role: 'banner', edgeId, manifestId, predecessorId: predecessor.id, predecessorTitle: predecessor.title, reason: input.reason, actor: options.actor },
      },
      branchMessage
        ? { kind: EventKind.USER_MESSAGE, text: branchMessage.text, clientMessageId: branchMessage.clientMessageId }
        : {
            kind: EventKind.USER_MESSAGE,
            text: initiating!.text,
            replayOfId: initiating!.id,
            tokenCount: initiating!.data == null ? initiating!.tokenCount : undefined,
          },
    ]);
    Object.assign(successor, opened.totals);
    const successorEvents = opened.events;
    const initiatingEvent = initiating ?? successorEvents[1];
    const { block, projection } = await this.compile(
      eventReader(manager, prefetched),
      viewer,
      input,
      predecessor,
      prepared,
      initiatingEvent,
      { edgeId, manifestId },
    );
    const edge = Object.assign(new ContinuationEdgeEntity(), {
      id: edgeId,
      accountId: viewer.accountId,
      predecessorId: predecessor.id,
      predecessorDepth: predecessor.lineageDepth,
      successorId: successor.id,
      successorDepth: successor.lineageDepth,
      reason: input.reason,
      actor: options.actor,
      initiatingEventId: initiatingEvent.id,
      idempotencyKey: input.idempotencyKey,
      requestFingerprint: fingerprint,
      createdAt: now,
    });
    // A cited range split by the budget counts as included: the successor sees its end.
    const included = projection.citedItems.filter((items) => items.some((item) => item.status === ManifestItemStatus.INCLUDED)).length;
    const carded = chainEvents(predecessor, [
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
          actor: options.actor,
          carried: describeCarried(
            handoff,
            projection.sections.some((section) => section.kind === ContextSectionKind.HANDOFF),
            included,
            transferred,
          ),
          includedSources: included,
          omittedSources: prepared.sources.length - included,
        },
      },
    ]);
    const predecessorEvents = carded.events;
    const run = queuedRun(
      { accountId: viewer.accountId, sessionId: successor.id, kind: RunKind.TURN, triggerEventId: successorEvents[1].id },
      now,
    );
    const planRevisions =
      plan && transferred.plan === PlanTransfer.CARRY
        ? [nextPlanRevision(successor, null, { closed: false, steps: plan.steps }, now)]
        : plan && transferred.plan === PlanTransfer.CLOSE
          ? [nextPlanRevision(predecessor, plan, { closed: true, steps: plan.steps }, now)]
          : [];

    await new CombinedStatement(manager)
      .insert(SessionEntity, [successor])
      .insert(EventEntity, [...successorEvents, ...predecessorEvents])
      .insert(ContinuationEdgeEntity, [edge])
      .insert(ProjectionManifestEntity, [this.manifest(manifestId, edge, predecessor, successor, handoff, input, transferred, block, projection, now)])
      .insert(RunEntity, [run])
      .insert(PlanRevisionEntity, planRevisions)
      .raw('UPDATE runs SET session_id = $1, updated_at = $2 WHERE session_id = $3 AND id = ANY($4::uuid[])', [
        successor.id,
        now,
        predecessor.id,
        transferred.pendingRunIds,
      ])
      .raw('UPDATE sessions SET status = $1, event_count = $2, token_count = $3, last_event_hash = $4 WHERE id = $5', [
        SessionStatus.CONTINUED,
        carded.totals.eventCount,
        carded.totals.tokenCount,
        carded.totals.lastEventHash,
        predecessor.id,
      ])
      .commitIn(transaction);
    Object.assign(predecessor, carded.totals, { status: SessionStatus.CONTINUED });
    const movedRuns = snapshot.activeRuns
      .filter((pending) => transferred.pendingRunIds.includes(pending.id))
      .map((pending) => Object.assign(pending, { sessionId: successor.id, updatedAt: now }));
    return { edge, successor, run, movedRuns, replayed: false, predecessorEvents, successorEvents };
  }

  /**
   * What continueSession would give the successor, computed the same way and writing nothing:
   * the budget estimate before continuing. Fails as continueSession would, but for rate limits.
   */
  async previewProjection(viewer: Viewer, input: ContinueSessionRequest): Promise<Outcome<Projection & { tokenBudget: number }>> {
    const details = validateContinueSessionRequest(input);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    if (!isId(input.sessionId)) return notFound();
    const manager = this.dataSource.manager;
    const predecessor = await manager.findOneBy(SessionEntity, { id: input.sessionId, accountId: viewer.accountId });
    if (!predecessor) return notFound();
    try {
      const snapshot = await continuationSnapshot(manager, this.snapshotQuery(viewer, input));
      const prepared = {
        ...(await this.prepare(manager, viewer, predecessor, input, { actor: Actor.AGENT }, snapshot, false)),
        recommended: await this.recommendations(manager, viewer, input),
      };
      const { projection } = await this.compile(eventReader(manager), viewer, input, predecessor, prepared, prepared.initiating!, {
        edgeId: randomUUID(),
        manifestId: randomUUID(),
      });
      return succeed({ ...projection, tokenBudget: this.budget(input) });
    } catch (error) {
      if (error instanceof Refused) return { ok: false, error: error.failure };
      throw error;
    }
  }

  /** What the compiler will read, as `compile` asks for it: fetched with the lock, and checked again by the reader. */
  private eventPrefetch(input: ContinueSessionRequest, branching: boolean): EventPrefetch {
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
      tokenBudget: this.budget(input),
      recentEvents: RECENT_EXCHANGE_EVENTS,
    };
  }

  private snapshotQuery(viewer: Viewer, input: ContinueSessionRequest): SnapshotQuery {
    const eventIds = input.sources.flatMap((source) => [source.fromEventId, source.toEventId, source.eventId]);
    return {
      accountId: viewer.accountId,
      sessionId: input.sessionId,
      idempotencyKey: input.idempotencyKey,
      eventIds: eventIds.filter((id): id is string => typeof id === 'string' && isId(id)),
      since: new Date(Date.now() - 60_000),
      countUpTo: this.policy.perAccountPerMinute,
    };
  }

  /** Checks everything a continuation needs of the predecessor and its sources; refuses by throwing. */
  private async prepare(
    manager: EntityManager,
    viewer: Viewer,
    predecessor: SessionEntity,
    input: ContinueSessionRequest,
    options: ContinueOptions,
    snapshot: ContinuationSnapshot,
    branching: boolean,
  ): Promise<Omit<Prepared, 'recommended'>> {
    const { latestUserMessage, activeRuns, unresolvedToolCallId } = snapshot;
    const initiating = branching ? null : await this.initiatingEvent(manager, predecessor, input.initiatingEventId, latestUserMessage);
    this.assertTurnBoundary(activeRuns, unresolvedToolCallId, options.callerRunId);
    const pendingRunIds = this.transferablePendingRuns(activeRuns, input.transfer?.pendingRuns ?? []);
    const sources = await this.resolveSources(manager, viewer, input, snapshot.citedEvents);
    const { state: transferred, plan, pins } = await this.transferredState(manager, viewer, predecessor, input, pendingRunIds);
    // The latest user message is a replay only when nobody wrote since this session was continued into.
    const hasNewUserMessage = latestUserMessage !== null && latestUserMessage.replayOfId === null;
    return { initiating, sources, pins, transferred, plan, hasNewUserMessage };
  }

  /** With `assist`, the lineage's sources ranked for the handoff's purpose and current request; none otherwise. */
  private async recommendations(manager: EntityManager, viewer: Viewer, input: ContinueSessionRequest): Promise<RecommendedRange[]> {
    if (!input.assist) return [];
    const session = await manager.findOne(SessionEntity, { select: { originId: true }, where: { id: input.sessionId, accountId: viewer.accountId } });
    if (!session) return [];
    const purpose = `${input.handoff.purpose} ${input.handoff.currentRequest}`;
    return rankedSources(manager, viewer.accountId, session.originId, purpose, RECOMMENDED_CANDIDATES);
  }

  /** The successor's initial context; refuses (INVALID_INPUT) when the budget cannot hold its fixed part. */
  private async compile(
    reader: ProjectionSourceReader,
    viewer: Viewer,
    input: ContinueSessionRequest,
    predecessor: SessionEntity,
    prepared: Prepared,
    initiatingEvent: EventEntity,
    ids: { edgeId: string; manifestId: string },
  ): Promise<{ block: string; projection: Projection }> {
    const block = lineageBlock({
      originId: predecessor.originId,
      predecessorId: predecessor.id,
      edgeId: ids.edgeId,
      initiatingEventId: initiatingEvent.id,
      manifestId: ids.manifestId,
    });
    const projection = await compileProjection(
      {
        tokenBudget: this.budget(input),
        identity: {
          accountId: viewer.accountId,
          accountName: viewer.name,
          grants: ['read and write every session, event, resource and memory entry of this account'],
          tools: AGENT_TOOLS,
        },
        transferred: prepared.transferred,
        carriedPlan: prepared.transferred.plan === PlanTransfer.CARRY ? prepared.plan : null,
        lineageBlock: block,
        manifestId: ids.manifestId,
        initiatingEvent: projected(initiatingEvent),
        recentBefore: {
          sessionId: predecessor.id,
          seq: prepared.initiating ? prepared.initiating.seq : predecessor.eventCount + 1,
        },
        handoff: normalizeHandoff(input.handoff),
        pins: prepared.pins,
        sources: prepared.sources,
        recommended: prepared.recommended,
        minimumAllowance: LINEAGE_ID_ALLOWANCE,
      },
      reader,
    );
    if (!projection.ok) return refuse(projection.error.code, projection.error.message, projection.error.details);
    return { block, projection: projection.value };
  }

  private budget(input: ContinueSessionRequest): number {
    return input.tokenBudget ?? this.policy.defaultTokenBudget;
  }

  private manifest(
    id: string,
    edge: ContinuationEdgeEntity,
    predecessor: SessionEntity,
    successor: SessionEntity,
    handoff: Handoff,
    input: ContinueSessionRequest,
    transferred: TransferredState,
    block: string,
    projection: Projection,
    createdAt: Date,
  ): ProjectionManifestEntity {
    const content = {
      id,
      edgeId: edge.id,
      predecessorId: predecessor.id,
      successorId: successor.id,
      originId: predecessor.originId,
      initiatingEventId: edge.initiatingEventId,
      actor: edge.actor,
      reason: edge.reason,
      handoff,
      sources: input.sources,
      items: projection.items,
      transferredState: transferred,
      lineageBlock: block,
      context: projection.sections,
      compilerVersion: COMPILER_VERSION,
      modelVersion: MODEL_VERSION,
      tokenBudget: this.budget(input),
      tokenCost: projection.tokenCost,
      createdAt: createdAt.toISOString(),
    };
    return Object.assign(new ProjectionManifestEntity(), {
      ...content,
      accountId: edge.accountId,
      createdAt,
      hash: manifestHash(content),
    });
  }

  private async initiatingEvent(
    manager: EntityManager,
    predecessor: SessionEntity,
    initiatingEventId: string | null | undefined,
    latestUserMessage: EventEntity | null,
  ): Promise<EventEntity> {
    const path = ['input', 'initiatingEventId'];
    if (initiatingEventId != null) {
      const event = isId(initiatingEventId)
        ? await manager.findOneBy(EventEntity, { id: initiatingEventId, sessionId: predecessor.id })
        : null;
      if (!event || event.kind !== EventKind.USER_MESSAGE) {
        return refuse(ErrorCode.INVALID_INPUT, 'initiatingEventId must name a user message of the session being continued.', [
          { path, message: 'Not a user message of this session.' },
        ]);
      }
      return event;
    }
    if (!latestUserMessage) {
      return refuse(ErrorCode.INVALID_INPUT, 'The session has no user message to continue from.', [
        { path, message: 'The session has no user message.' },
      ]);
    }
    return latestUserMessage;
  }

  /** Continuation happens between turns: no other run active, no tool call without its result. */
  private assertTurnBoundary(activeRuns: RunEntity[], unresolvedToolCallId: string | null, callerRunId?: string): void {
    const others = activeRuns.filter((run) => run.kind === RunKind.TURN && run.id !== callerRunId);
    if (others.length > 0) {
      refuse(ErrorCode.TURN_IN_PROGRESS, 'A turn is still running in this session: continue once it has ended.', [
        { path: ['input', 'sessionId'], message: `Run ${others[0].id} is ${others[0].status}.` },
      ]);
    }
    if (unresolvedToolCallId !== null) {
      refuse(ErrorCode.TURN_IN_PROGRESS, 'A tool call has no result yet: continue once it is resolved.', [
        { path: ['input', 'sessionId'], message: `Tool call ${unresolvedToolCallId} is unresolved.` },
      ]);
    }
  }

  /** Pending delegated runs must all be named in `transfer.pendingRuns`, and only those may be. */
  private transferablePendingRuns(activeRuns: RunEntity[], named: string[]): string[] {
    const pending = activeRuns.filter((run) => run.kind === RunKind.DELEGATED);
    const pendingIds = new Set(pending.map((run) => run.id));
    const unknown = named.map((id, index) => ({ id, index })).filter(({ id }) => !pendingIds.has(id));
    if (unknown.length > 0) {
      refuse(
        ErrorCode.INVALID_INPUT,
        'transfer.pendingRuns may name only pending delegated runs of the session being continued.',
        unknown.map(({ id, index }) => ({
          path: ['input', 'transfer', 'pendingRuns', String(index)],
          message: `${id} is not a pending delegated run of this session.`,
        })),
      );
    }
    const left = pending.filter((run) => !named.includes(run.id));
    if (left.length > 0) {
      refuse(
        ErrorCode.PENDING_RUNS_NOT_TRANSFERRED,
        'Delegated runs are still pending: name them in transfer.pendingRuns or let them settle first.',
        left.map((run) => ({ path: ['input', 'transfer', 'pendingRuns'], message: `Run ${run.id} is ${run.status}.` })),
      );
    }
    return [...new Set(named)];
  }

  /**
   * Every cited source must exist in the viewer's account: events in one session and in order,
   * resources and memory pinned to what they resolve to now. Refuses with SOURCE_NOT_FOUND.
   */
  private async resolveSources(
    manager: EntityManager,
    viewer: Viewer,
    input: ContinueSessionRequest,
    citedEvents: EventEntity[],
  ): Promise<ResolvedSource[]> {
    const byId = new Map(citedEvents.map((event) => [event.id, event]));
    const missing: ErrorDetail[] = [];
    const sources: ResolvedSource[] = [];
    for (const [index, source] of input.sources.entries()) {
      const path = ['input', 'sources', String(index)];
      if (source.kind === SourceKind.RESOURCE || source.kind === SourceKind.MEMORY) {
        const content = await this.resolveContentSource(manager, viewer, source);
        if (content) sources.push(content);
        else missing.push({ path, message: `No such ${source.kind === SourceKind.RESOURCE ? 'resource version or block' : 'memory entry'} in this account.` });
        continue;
      }
      const single = source.kind === SourceKind.SESSION_EVENT;
      const first = byId.get((single ? source.eventId : source.fromEventId) ?? '');
      const last = byId.get((single ? source.eventId : source.toEventId) ?? '');
      if (!first || !last || first.sessionId !== source.sessionId || last.sessionId !== source.sessionId) {
        missing.push({ path, message: 'No such event in that session.' });
      } else if (first.seq > last.seq) {
        missing.push({ path: [...path, 'fromEventId'], message: 'fromEventId comes after toEventId.' });
      } else {
        sources.push({ type: 'EVENTS', input: source, first: projected(first), last: projected(last), handoffManifestId: null });
      }
    }
    if (missing.length > 0) {
      refuse(ErrorCode.SOURCE_NOT_FOUND, 'A cited source does not exist in this account.', missing);
    }
    await this.nameHandoffManifests(manager, viewer, sources);
    return sources;
  }

  /** A range from a successor's first event cites its banner: name the manifest behind that handoff. */
  private async nameHandoffManifests(manager: EntityManager, viewer: Viewer, sources: ResolvedSource[]): Promise<void> {
    const opening = sources.filter(
      (source): source is ResolvedEventSource =>
        source.type === 'EVENTS' && source.first.seq === 1 && source.first.kind === EventKind.CONTINUATION,
    );
    if (opening.length === 0) return;
    const manifests: { successor_id: string; id: string }[] = await manager.query(
      `SELECT edge.successor_id, manifest.id FROM continuation_edges edge
       JOIN projection_manifests manifest ON manifest.edge_id = edge.id
       WHERE edge.account_id = $1 AND edge.successor_id = ANY($2::uuid[])`,
      [viewer.accountId, [...new Set(opening.map((source) => source.first.sessionId))]],
    );
    const bySuccessor = new Map(manifests.map((row) => [row.successor_id, row.id]));
    for (const source of opening) source.handoffManifestId = bySuccessor.get(source.first.sessionId) ?? null;
  }

  /**
   * A resource or memory source pinned to the exact version or cid it resolves to now: a revoked
   * resource becomes an UNAVAILABLE breadcrumb; null when there is no such source.
   */
  private async resolveContentSource(
    manager: EntityManager,
    viewer: Viewer,
    source: SourceInput,
  ): Promise<ResolvedContentSource | UnavailableSource | null> {
    if (source.kind === SourceKind.MEMORY) {
      const memory = await resolveMemorySource(manager, viewer.accountId, { path: source.path!, cid: source.cid });
      if (memory.status === 'NOT_FOUND') return null;
      const reference = { url: null, version: null, blockId: null, path: memory.path, cid: memory.cid };
      return { type: 'CONTENT', item: contentItem(SourceKind.MEMORY, source.relevance, reference, memory), text: memory.text };
    }
    const resource = await resolveResourceSource(manager, viewer.accountId, {
      url: source.url!,
      version: source.version,
      blockId: source.blockId,
    });
    if (resource.status === 'NOT_FOUND') return null;
    const reference = { url: resource.url, version: resource.version, blockId: resource.blockId, path: null };
    if (resource.status === 'UNAVAILABLE') {
      return { type: 'UNAVAILABLE', item: contentItem(SourceKind.RESOURCE, source.relevance, { ...reference, cid: null }, null) };
    }
    return {
      type: 'CONTENT',
      item: contentItem(SourceKind.RESOURCE, source.relevance, { ...reference, cid: resource.cid }, resource),
      text: resource.text,
    };
  }

  /** What the successor receives of the predecessor's structured state; the plan must exist and be open to move. */
  private async transferredState(
    manager: EntityManager,
    viewer: Viewer,
    predecessor: SessionEntity,
    input: ContinueSessionRequest,
    pendingRunIds: string[],
  ): Promise<{ state: TransferredState; plan: PlanRevisionEntity | null; pins: (ResolvedContentSource | UnavailableSource)[] }> {
    const transfer = input.transfer;
    const mode = transfer?.plan ?? PlanTransfer.OMIT;
    const plan = mode === PlanTransfer.OMIT ? null : await latestPlan(manager, predecessor.id);
    if (mode !== PlanTransfer.OMIT && (!plan || plan.closed)) {
      refuse(ErrorCode.INVALID_INPUT, plan ? 'The plan is already closed: there is nothing to carry or close.' : 'The session has no plan to carry or close.', [
        { path: ['input', 'transfer', 'plan'], message: plan ? `Plan revision ${plan.revision} is closed.` : 'The session has no plan.' },
      ]);
    }
    const unknownTools = (transfer?.pinnedTools ?? []).filter((tool) => !AGENT_TOOLS.includes(tool));
    if (unknownTools.length > 0) {
      refuse(ErrorCode.INVALID_INPUT, `Unknown tools cannot be pinned: ${unknownTools.join(', ')}.`, [
        { path: ['input', 'transfer', 'pinnedTools'], message: `Known tools: ${AGENT_TOOLS.join(', ')}.` },
      ]);
    }
    const pins: (ResolvedContentSource | UnavailableSource)[] = [];
    const missing: ErrorDetail[] = [];
    for (const [index, ref] of (transfer?.pinnedResources ?? []).entries()) {
      const pin = await this.resolveContentSource(manager, viewer, {
        kind: SourceKind.RESOURCE,
        relevance: 'a pinned resource',
        url: ref.url,
        version: ref.version,
        blockId: ref.blockId,
      });
      if (pin) pins.push(pin);
      else missing.push({ path: ['input', 'transfer', 'pinnedResources', String(index)], message: 'No such resource version or block.' });
    }
    if (missing.length > 0) refuse(ErrorCode.SOURCE_NOT_FOUND, 'A pinned resource does not exist in this account.', missing);
    return {
      state: {
        plan: mode,
        planRevision: plan?.revision ?? null,
        pendingRunIds,
        pinnedTools: [...new Set(transfer?.pinnedTools ?? [])],
        // Pins carry the exact version they resolved to; a revoked one stays behind as a broken breadcrumb.
        pinnedResources: pins
          .filter((pin) => pin.type === 'CONTENT')
          .map(({ item }) => ({ url: item.url!, version: item.version, blockId: item.blockId })),
      },
      plan,
      pins,
    };
  }

  /** The successor's continuation streak, or RATE_LIMITED. */
  private checkRateLimits(predecessor: SessionEntity, hasNewUserMessage: boolean, recentContinuations: number): number {
    const streak = nextContinuationStreak(predecessor.continuationStreak, hasNewUserMessage);
    if (streak > this.policy.streakLimit) {
      refuse(
        ErrorCode.RATE_LIMITED,
        `${this.policy.streakLimit} continuations in a row without a new user message: wait for the user before continuing again.`,
        [{ path: ['input', 'sessionId'], message: `Continuation streak would be ${streak}.` }],
      );
    }
    if (recentContinuations >= this.policy.perAccountPerMinute) {
      refuse(ErrorCode.RATE_LIMITED, `At most ${this.policy.perAccountPerMinute} continuations a minute per account: try again shortly.`);
    }
    return streak;
  }
}

/** A branch is named after what it branches from, so that the lineage tree tells them apart. */
function branchTitle(title: string): string {
  const prefix = 'Branch of ';
  return prefix + (title.length + prefix.length > TITLE_MAX_CHARS ? `${title.slice(0, TITLE_MAX_CHARS - prefix.length - 1)}…` : title);
}

function notFound<T>(): Outcome<T> {
  return fail(ErrorCode.NOT_FOUND, 'No such session.', [{ path: ['input', 'sessionId'], message: 'No such session.' }]);
}
