import 'reflect-metadata';
import './enums';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AccountResolver } from './accounts/account.resolver';
import { OperationErrorResolver } from './common/operation-error.resolver';
import { ContinuationResolver, ManifestItemResolver, ProjectionManifestResolver } from './continuations/continuation.resolver';
import { NodeResolver } from './nodes/node.resolver';
import type { AppPubSub } from './pubsub';
import { PlanResolver } from './plans/plan.resolver';
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
    ],
    scalarsMap,
    validate: false,
  });
  return refuseUnstorableText(schema);
}

/** The SDL committed as schema.graphql: sorted, so that the file changes only when the API does. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
