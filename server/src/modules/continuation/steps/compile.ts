import { EntityManager } from 'typeorm';
import { ContinueSessionRequest, Handoff, PlanTransfer, TransferredState, lineageBlock, normalizeHandoff } from '../continuations';
import { COMPILER_VERSION, MODEL_VERSION, Projection, ProjectionSourceReader, ResolvedContentSource, ResolvedSource, UnavailableSource } from '../projection/model';
import { compileProjection } from '../projection/compile';
import { manifestHash } from '../projection/manifest';
import { ManifestProposal } from '../proposals';
import { ContinuationEdgeEntity } from '../continuation-edge.entity';
import { EventEntity } from '../../conversation/event.entity';
import { PlanRevisionEntity } from '../../plans/plan-revision.entity';
import { ProjectionManifestEntity } from '../projection-manifest.entity';
import { SessionEntity } from '../../conversation/session.entity';
import { ContinuationSnapshot } from '../continuation.repository';
import { Recommendation, rankedSources } from '../assisted/recommendations.service';
import { PROJECTION_CANDIDATE_HITS } from '../assisted/recommendations';
import { Viewer } from '../../../shared/viewer';
import { assertTurnBoundary, initiatingEvent, transferablePendingRuns } from './checks';
import { ContinuationPolicy } from './policy';
import { AGENT_TOOLS } from '../../../shared/agent-tools';
import { refuseWith } from './refusal';
import { CitedAttachment, projected, resolveSources, transferredState } from './sources';
import { AttachmentReference } from '../../attachments/attachments';
import { findAttachments } from '../../attachments/attachment.repository';
import { attachmentReference } from '../../attachments/attachments.service';
import { keepCanonicalJson } from '../../../shared/canonical-json';

/** Edge and manifest ids are new on every attempt; their tokens vary by a few, so advised minimums include this. */
const LINEAGE_ID_ALLOWANCE = 24;


/** What a continuation decided before writing anything. */
export interface Prepared {
  /** The predecessor's initiating message; null for a branch, whose message is new. */
  initiating: EventEntity | null;
  sources: ResolvedSource[];
  pins: (ResolvedContentSource | UnavailableSource)[];
  transferred: TransferredState;
  plan: PlanRevisionEntity | null;
  /** Whether the user wrote in the predecessor since it began, beyond a replayed message. */
  hasNewUserMessage: boolean;
  /** What assisted selection recommends, when asked for. */
  recommended: Recommendation[];
}

export function tokenBudget(policy: ContinuationPolicy, input: ContinueSessionRequest): number {
  return input.tokenBudget ?? policy.defaultTokenBudget;
}

/** Checks everything a continuation needs of the predecessor and its sources; refuses by throwing. */
export async function prepare(
  manager: EntityManager,
  viewer: Viewer,
  predecessor: SessionEntity,
  input: ContinueSessionRequest,
  snapshot: ContinuationSnapshot,
  turn: { callerRunId?: string; branching: boolean; anyTurnState?: boolean },
  attachments: ReadonlyMap<string, CitedAttachment>,
): Promise<Omit<Prepared, 'recommended'>> {
  const { latestUserMessage, activeRuns, unresolvedToolCallId } = snapshot;
  const initiating = turn.branching ? null : initiatingEvent(predecessor, input.initiatingEventId, snapshot);
  const named = input.transfer?.pendingRuns ?? [];
  // A preview whatever the turn's state shows the named runs that are still pending; the continuation itself checks them.
  if (!turn.anyTurnState) assertTurnBoundary(activeRuns, unresolvedToolCallId, turn.callerRunId);
  const pendingRunIds = turn.anyTurnState ? named.filter((id) => activeRuns.some((run) => run.id === id)) : transferablePendingRuns(activeRuns, named);
  const sources = await resolveSources(manager, viewer, input, snapshot.citedEvents, attachments);
  const { state: transferred, plan, pins } = await transferredState(manager, viewer, predecessor, input, pendingRunIds);
  // The latest user message is a replay only when nobody wrote since this session was continued into.
  const hasNewUserMessage = latestUserMessage !== null && latestUserMessage.replayOfId === null;
  return { initiating, sources, pins, transferred, plan, hasNewUserMessage };
}

/** What assisted selection ranks a continuation's sources for: all it reads of the request but the session. */
export type RecommendationQuery = Pick<ContinueSessionRequest, 'sessionId' | 'assist'> & { handoff: Pick<Handoff, 'purpose' | 'currentRequest'> };

/** The text assisted selection ranks for: the handoff's purpose and current request. */
export function recommendationPurpose(handoff: RecommendationQuery['handoff']): string {
  return `${handoff.purpose} ${handoff.currentRequest}`;
}

/**
 * With `assist`, the lineage's sources ranked for the handoff's purpose and current request; none
 * otherwise. `originId` is the predecessor's lineage, when the caller holds its session already.
 */
export async function recommendations(manager: EntityManager, viewer: Viewer, input: RecommendationQuery, originId?: string): Promise<Recommendation[]> {
  if (!input.assist) return [];
  const origin =
    originId ?? (await manager.findOne(SessionEntity, { select: { originId: true }, where: { id: input.sessionId, accountId: viewer.accountId } }))?.originId;
  if (!origin) return [];
  // Every range around a candidate hit: evidence-first placement decides what the budget holds.
  return rankedSources(manager, viewer.accountId, origin, recommendationPurpose(input.handoff), PROJECTION_CANDIDATE_HITS, PROJECTION_CANDIDATE_HITS);
}

/** Assisted selection's recommendations, read before the request they are for was whole. */
export interface RecommendationsAhead {
  sessionId: string;
  purpose: string;
  /** Null when the read failed: the continuation reads them again. */
  recommended: Promise<Recommendation[] | null>;
}

/**
 * Starts reading the recommendations for a request still being written: {@link recommendedFor}
 * uses them when the request asks for the same (`assist`, the same session, purpose and current
 * request), as they are a suggestion read before the lock anyway.
 */
export function readAhead(manager: EntityManager, viewer: Viewer, query: RecommendationQuery, originId: string): RecommendationsAhead {
  return {
    sessionId: query.sessionId,
    purpose: recommendationPurpose(query.handoff),
    recommended: recommendations(manager, viewer, { ...query, assist: true }, originId).catch(() => null),
  };
}

/** The recommendations for `input`: those read ahead for the same request, or read now. */
export async function recommendedFor(
  manager: EntityManager,
  viewer: Viewer,
  input: ContinueSessionRequest,
  originId?: string,
  ahead?: RecommendationsAhead,
): Promise<Recommendation[]> {
  if (input.assist && ahead?.sessionId === input.sessionId && ahead.purpose === recommendationPurpose(input.handoff)) {
    const read = await ahead.recommended;
    if (read) return read;
  }
  return recommendations(manager, viewer, input, originId);
}

/** What the initiating message links, in its order: named in the successor's context and manifest. */
export async function initiatingAttachments(manager: EntityManager, viewer: Viewer, initiating: EventEntity): Promise<AttachmentReference[]> {
  const found = await findAttachments(manager, viewer.accountId, initiating.attachmentCids);
  const byCid = new Map(found.map((attachment) => [attachment.cid, attachmentReference(attachment)]));
  return initiating.attachmentCids.map((cid) => byCid.get(cid)!);
}

/** The successor's initial context; refuses (INVALID_INPUT) when the budget cannot hold its fixed part. */
export async function compile(
  reader: ProjectionSourceReader,
  policy: ContinuationPolicy,
  viewer: Viewer,
  input: ContinueSessionRequest,
  predecessor: SessionEntity,
  prepared: Prepared,
  initiatingEvent: EventEntity,
  attached: AttachmentReference[],
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
      tokenBudget: tokenBudget(policy, input),
      identity: {
        accountId: viewer.accountId,
        accountName: viewer.name,
        grants: ['read and write every session, event, resource and memory entry of this account'],
        tools: [...AGENT_TOOLS],
      },
      transferred: prepared.transferred,
      carriedPlan: prepared.transferred.plan === PlanTransfer.CARRY ? prepared.plan : null,
      lineageBlock: block,
      manifestId: ids.manifestId,
      initiatingEvent: projected(initiatingEvent),
      initiatingAttachments: attached,
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
  if (!projection.ok) return refuseWith(projection.error);
  return { block, projection: projection.value };
}

/** The manifest row: what the successor was given and why, hashed over its content. */
export function manifestEntity(
  id: string,
  edge: ContinuationEdgeEntity,
  parties: { predecessor: SessionEntity; successor: SessionEntity },
  handoff: Handoff,
  input: ContinueSessionRequest,
  budget: number,
  compiled: { transferred: TransferredState; block: string; projection: Projection },
  createdAt: Date,
  proposal: ManifestProposal | null,
): ProjectionManifestEntity {
  const { predecessor, successor } = parties;
  // Encoded once: for the hash, then for the insert of the JSON columns.
  for (const column of [handoff, input.sources, compiled.projection.items, compiled.transferred, compiled.projection.sections]) keepCanonicalJson(column);
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
    items: compiled.projection.items,
    transferredState: compiled.transferred,
    lineageBlock: compiled.block,
    context: compiled.projection.sections,
    compilerVersion: COMPILER_VERSION,
    modelVersion: MODEL_VERSION,
    tokenBudget: budget,
    tokenCost: compiled.projection.tokenCost,
    createdAt: createdAt.toISOString(),
    // Only for an approved proposal, so that the manifests of before keep their hashes.
    ...(proposal ? { proposal } : {}),
  };
  return Object.assign(new ProjectionManifestEntity(), {
    proposal: null,
    ...content,
    accountId: edge.accountId,
    createdAt,
    hash: manifestHash(content),
  });
}
