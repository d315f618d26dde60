import DataLoader from 'dataloader';
import type { TopicPubSub } from '../../../platform/pubsub/topic-pub-sub';
import type { LoaderFactories } from '../../../shared/graphql/lazy-loaders';
import type { ConversationTopics } from '../../conversation/conversation.topics';
import type { PlanLoaders, PlanServices, PlansContext } from '../../plans/plans.context';
import type { RunEntity } from '../../conversation/run.entity';
import type { ContinuationEdgeEntity } from '../continuation-edge.entity';
import type { ContinuationService } from '../continuations.service';
import type { ContinuationTopics } from '../continuation.topics';
import type { ProjectionManifestEntity } from '../projection-manifest.entity';
import type { ContinuationProposalEntity } from '../continuation-proposal.entity';
import type { ProposalService } from '../proposals.service';
import type { RecommendationService } from '../assisted/recommendations.service';
import type { LineageService } from '../lineage/lineage.service';
import type { LineageTreeNode } from '../lineage/lineage.repository';
import type { SessionEntity } from '../../conversation/session.entity';

export interface ContinuationServices extends PlanServices {
  continuations: ContinuationService;
  lineage: LineageService;
  proposals: ProposalService;
  recommendations: RecommendationService;
}

export interface ContinuationLoaders extends PlanLoaders {
  edgeById: DataLoader<string, ContinuationEdgeEntity | null>;
  /** A successor's initial run, by the successor's id. */
  initialRunBySuccessorId: DataLoader<string, RunEntity | null>;
  edgeBySuccessorId: DataLoader<string, ContinuationEdgeEntity | null>;
  edgesByPredecessorId: DataLoader<string, ContinuationEdgeEntity[]>;
  manifestById: DataLoader<string, ProjectionManifestEntity | null>;
  manifestByEdgeId: DataLoader<string, ProjectionManifestEntity | null>;
  recallCountsByManifestId: DataLoader<string, Map<number, number>>;
  proposalById: DataLoader<string, ContinuationProposalEntity | null>;
  pendingProposalBySessionId: DataLoader<string, ContinuationProposalEntity | null>;
  /** The end of the newest continuation chain from a session, by the session's id. */
  currentContinuationById: DataLoader<string, SessionEntity | null>;
  lineageTreeByOriginId: DataLoader<string, LineageTreeNode[]>;
}

export interface ContinuationContext extends PlansContext {
  services: ContinuationServices;
  loaders: ContinuationLoaders;
  pubSub: TopicPubSub<ConversationTopics & ContinuationTopics>;
}

/** The continuation module's own loaders; the modules below it bring theirs. */
export const continuationLoaders: LoaderFactories<Omit<ContinuationLoaders, keyof PlanLoaders>, ContinuationServices> = {
  edgeById: ({ accountId }, { lineage }) => new DataLoader((ids) => lineage.edgesByIds(accountId, ids)),
  initialRunBySuccessorId: ({ accountId }, { runs }) => new DataLoader((ids) => runs.firstTurnRuns(accountId, ids)),
  edgeBySuccessorId: ({ accountId }, { lineage }) => new DataLoader((ids) => lineage.edgesBySuccessorIds(accountId, ids)),
  edgesByPredecessorId: ({ accountId }, { lineage }) => new DataLoader((ids) => lineage.edgesByPredecessorIds(accountId, ids)),
  manifestById: ({ accountId }, { lineage }) => new DataLoader((ids) => lineage.manifestsByIds(accountId, ids)),
  manifestByEdgeId: ({ accountId }, { lineage }) => new DataLoader((ids) => lineage.manifestsByEdgeIds(accountId, ids)),
  recallCountsByManifestId: (_viewer, { lineage }) => new DataLoader((ids) => lineage.recallCounts(ids)),
  proposalById: ({ accountId }, { proposals }) => new DataLoader((ids) => proposals.proposalsByIds(accountId, ids)),
  pendingProposalBySessionId: ({ accountId }, { proposals }) => new DataLoader((ids) => proposals.pendingBySessionIds(accountId, ids)),
  currentContinuationById: ({ accountId }, { lineage }) => new DataLoader((ids) => lineage.currentContinuations(accountId, ids)),
  lineageTreeByOriginId: ({ accountId }, { lineage }) => new DataLoader((ids) => lineage.lineageTrees(accountId, ids)),
};
