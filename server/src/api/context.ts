import DataLoader from 'dataloader';
import type { ContinuationEdgeEntity } from '../modules/continuation/continuation-edge.entity';
import type { RunEntity } from '../modules/conversation/run.entity';
import type { PlanRevisionEntity } from '../modules/plans/plan-revision.entity';
import type { EventEntity } from '../modules/conversation/event.entity';
import type { ProjectionManifestEntity } from '../modules/continuation/projection-manifest.entity';
import type { SessionEntity } from '../modules/conversation/session.entity';
import { ErrorCode } from '../shared/errors';
import { failureError } from '../shared/graphql/errors';
import type { AccountService } from '../modules/accounts/accounts.service';
import type { AttachmentService } from '../modules/attachments/attachments.service';
import type { AttachmentEntity } from '../modules/attachments/attachment.entity';
import type { ContinuationService } from '../modules/continuation/continuations.service';
import type { LineageService } from '../modules/continuation/lineage/lineage.service';
import type { PlanService } from '../modules/plans/plans.service';
import type { ResourceService } from '../modules/resources/resources.service';
import type { SessionService } from '../modules/conversation/sessions.service';
import type { TranscriptService } from '../modules/conversation/transcript.service';
import type { RunService } from '../modules/conversation/runs.service';
import type { SearchService } from '../modules/search/search.service';
import type { RecommendationService } from '../modules/continuation/assisted/recommendations.service';
import type { ProposalService } from '../modules/continuation/approval/proposals.service';
import type { ContinuationProposalEntity } from '../modules/continuation/approval/continuation-proposal.entity';
import type { ContextUsage } from '../agent/agent';
import type { Viewer } from '../shared/viewer';
import type { AppPubSub } from './pubsub';
import type { Logger } from 'pino';

export interface Services {
  accounts: AccountService;
  sessions: SessionService;
  transcript: TranscriptService;
  continuations: ContinuationService;
  lineage: LineageService;
  plans: PlanService;
  resources: ResourceService;
  runs: RunService;
  search: SearchService;
  recommendations: RecommendationService;
  proposals: ProposalService;
  attachments: AttachmentService;
}

/** Per-operation loaders: batching and caching live only as long as one operation (or one subscription event). */
export interface Loaders {
  sessionById: DataLoader<string, SessionEntity | null>;
  eventById: DataLoader<string, EventEntity | null>;
  edgeById: DataLoader<string, ContinuationEdgeEntity | null>;
  edgeBySuccessorId: DataLoader<string, ContinuationEdgeEntity | null>;
  edgesByPredecessorId: DataLoader<string, ContinuationEdgeEntity[]>;
  manifestById: DataLoader<string, ProjectionManifestEntity | null>;
  manifestByEdgeId: DataLoader<string, ProjectionManifestEntity | null>;
  planBySessionId: DataLoader<string, PlanRevisionEntity | null>;
  runById: DataLoader<string, RunEntity | null>;
  recallCountsByManifestId: DataLoader<string, Map<number, number>>;
  childrenByParentId: DataLoader<string, SessionEntity[]>;
  contextUsageBySessionId: DataLoader<string, ContextUsage | null>;
  proposalById: DataLoader<string, ContinuationProposalEntity | null>;
  pendingProposalBySessionId: DataLoader<string, ContinuationProposalEntity | null>;
  attachmentByCid: DataLoader<string, AttachmentEntity | null>;
}

export interface Context {
  viewer: Viewer;
  services: Services;
  loaders: Loaders;
  pubSub: AppPubSub;
  /** The HTTP request's id, which its log lines and an internal error's `extensions` carry. */
  requestId?: string;
  /** The request's logger. */
  log?: Logger;
}

export function createLoaders(viewer: Viewer, services: Services): Loaders {
  const { accountId } = viewer;
  return {
    sessionById: new DataLoader((ids) => services.sessions.sessionsByIds(accountId, ids)),
    eventById: new DataLoader((ids) => services.transcript.eventsByIds(accountId, ids)),
    edgeById: new DataLoader((ids) => services.lineage.edgesByIds(accountId, ids)),
    edgeBySuccessorId: new DataLoader((ids) => services.lineage.edgesBySuccessorIds(accountId, ids)),
    edgesByPredecessorId: new DataLoader((ids) => services.lineage.edgesByPredecessorIds(accountId, ids)),
    manifestById: new DataLoader((ids) => services.lineage.manifestsByIds(accountId, ids)),
    manifestByEdgeId: new DataLoader((ids) => services.lineage.manifestsByEdgeIds(accountId, ids)),
    planBySessionId: new DataLoader((ids) => services.plans.plansBySessionIds(ids)),
    runById: new DataLoader((ids) => services.runs.runsByIds(accountId, ids)),
    recallCountsByManifestId: new DataLoader((ids) => services.lineage.recallCounts(ids)),
    childrenByParentId: new DataLoader((ids) => services.sessions.childrenOf(accountId, ids)),
    contextUsageBySessionId: new DataLoader((ids) => services.runs.contextUsage(accountId, ids)),
    proposalById: new DataLoader((ids) => services.proposals.proposalsByIds(accountId, ids)),
    pendingProposalBySessionId: new DataLoader((ids) => services.proposals.pendingBySessionIds(accountId, ids)),
    attachmentByCid: new DataLoader((cids) => services.attachments.attachmentsByCids(accountId, cids)),
  };
}

export function createContext(viewer: Viewer, services: Services, pubSub: AppPubSub): Context {
  return { viewer, services, pubSub, loaders: createLoaders(viewer, services) };
}

/** A subscription's context lives for many events: each event starts with empty caches, so nothing read is stale. */
export function freshLoaders(ctx: Context): void {
  ctx.loaders = createLoaders(ctx.viewer, ctx.services);
}

/** The viewer's session a subscription names; NOT_FOUND, before anything is subscribed, when there is none. */
export async function subscribedSession(ctx: Context, sessionId: string): Promise<SessionEntity> {
  const session = await ctx.services.sessions.findSession(ctx.viewer, sessionId);
  if (!session) {
    throw failureError({
      code: ErrorCode.NOT_FOUND,
      message: 'No such session.',
      details: [{ path: ['sessionId'], message: 'No such session.' }],
    });
  }
  return session;
}
