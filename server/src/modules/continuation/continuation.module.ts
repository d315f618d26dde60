import './graphql/continuation.enums';
import { ManifestProposalResolver, ProposalResolver, SessionProposalResolver } from './graphql/proposal.resolver';
import { RecommendationResolver } from './graphql/recommendation.resolver';
import { ContinuationResolver, ManifestItemResolver, ProjectionManifestResolver } from './graphql/continuation.resolver';
import { SessionLineageResolver } from './graphql/session-lineage.resolver';

/** Continuations: edges, projections and their manifests, lineage, approval and assisted selection. */
export const continuationResolvers = [
  ContinuationResolver,
  ProjectionManifestResolver,
  ManifestItemResolver,
  SessionLineageResolver,
  ProposalResolver,
  SessionProposalResolver,
  ManifestProposalResolver,
  RecommendationResolver,
] as const;
