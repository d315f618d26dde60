import 'reflect-metadata';
import './enums';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AttachmentResolver } from './attachments/attachment.resolver';
import { AccountResolver } from './accounts/account.resolver';
import { OperationErrorResolver } from './common/operation-error.resolver';
import { ContinuationResolver, ManifestItemResolver, ProjectionManifestResolver } from './continuations/continuation.resolver';
import { NodeResolver } from './nodes/node.resolver';
import type { AppPubSub } from './pubsub';
import { PlanResolver } from './plans/plan.resolver';
import { ManifestProposalResolver, ProposalResolver, SessionProposalResolver } from './proposals/proposal.resolver';
import { MemoryResolver, ResourceResolver } from './resources/resource.resolver';
import { RunResolver } from './runs/run.resolver';
import { scalarsMap } from './scalars';
import { RecommendationResolver } from './recommendations/recommendation.resolver';
import { SearchResolver } from './search/search.resolver';
import { SessionResolver } from './sessions/session.resolver';
import { refuseUnstorableText } from './storable-text';
import { EventResolver } from './transcript/event.resolver';

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
