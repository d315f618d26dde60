import 'reflect-metadata';
import './enums';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AttachmentResolver } from '../modules/attachments/attachment.resolver';
import { AccountResolver } from '../modules/accounts/account.resolver';
import { OperationErrorResolver } from '../modules/conversation/graphql/operation-error.resolver';
import { ContinuationResolver, ManifestItemResolver, ProjectionManifestResolver } from '../modules/continuation/graphql/continuation.resolver';
import { NodeResolver } from './node.resolver';
import type { AppPubSub } from './pubsub';
import { PlanResolver } from '../modules/plans/plan.resolver';
import { ManifestProposalResolver, ProposalResolver, SessionProposalResolver } from '../modules/continuation/approval/proposal.resolver';
import { MemoryResolver, ResourceResolver } from '../modules/resources/resource.resolver';
import { RunResolver } from '../modules/conversation/graphql/run.resolver';
import { scalarsMap } from '../shared/graphql/scalars';
import { RecommendationResolver } from '../modules/continuation/assisted/recommendation.resolver';
import { SearchResolver } from '../modules/search/search.resolver';
import { SessionResolver } from '../modules/conversation/graphql/session.resolver';
import { refuseUnstorableText } from './storable-text';
import { EventResolver } from '../modules/conversation/graphql/event.resolver';

/**
 * The schema; `pubSub` is the one that subscriptions listen on and services publish to. Text the
 * database cannot store is refused at every argument (see `refuseUnstorableText`).
 */
export async function buildAppSchema(pubSub: AppPubSub): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    pubSub,
    resolvers: [
      AccountResolver,
      SessionResolver,
      EventResolver,
      OperationErrorResolver,
      ContinuationResolver,
      ProjectionManifestResolver,
      ManifestItemResolver,
      RunResolver,
      PlanResolver,
      ResourceResolver,
      MemoryResolver,
      SearchResolver,
      RecommendationResolver,
      NodeResolver,
      ProposalResolver,
      SessionProposalResolver,
      ManifestProposalResolver,
      AttachmentResolver,
    ],
    scalarsMap,
    validate: false,
  });
  describeRootTypes(schema);
  return refuseUnstorableText(schema);
}

/** type-graphql takes no descriptions for the root types, so they are set on the built schema. */
function describeRootTypes(schema: GraphQLSchema): void {
  schema.getQueryType()!.description =
    "Reads, each scoped to the viewer's account: another account's objects are answered as if they did not exist.";
  schema.getMutationType()!.description =
    'Writes. Expected failures are an OperationError where the result is a union, otherwise a GraphQL error with extensions.code.';
  schema.getSubscriptionType()!.description =
    "Live changes over WebSocket (graphql-ws), authenticated by the API key in connectionParams.authorization; another account's session is refused with NOT_FOUND.";
}

/** The SDL committed as schema.graphql: sorted, so that the file changes only when the API does. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
