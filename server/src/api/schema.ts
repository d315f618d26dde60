import 'reflect-metadata';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { accountsResolvers } from '../modules/accounts/accounts.module';
import { attachmentsResolvers } from '../modules/attachments/attachments.module';
import { continuationResolvers } from '../modules/continuation/continuation.module';
import { conversationResolvers } from '../modules/conversation/conversation.module';
import { lifecycleResolvers } from '../modules/lifecycle/lifecycle.module';
import { plansResolvers } from '../modules/plans/plans.module';
import { resourcesResolvers } from '../modules/resources/resources.module';
import { searchResolvers } from '../modules/search/search.module';
import { webhooksResolvers } from '../modules/webhooks/webhooks.module';
import { scalarsMap } from '../shared/graphql/scalars';
import { NodeResolver } from './node.resolver';
import type { AppPubSub } from './pubsub';
import { refuseUnstorableText } from './storable-text';
import { enforceFieldAccess } from './field-access-enforcement';

/**
 * The schema; `pubSub` is the one that subscriptions listen on and services publish to. Text the
 * database cannot store is refused at every argument (see `refuseUnstorableText`), and every root
 * field asks the key its scope and reach (see `FIELD_ACCESS`).
 */
export async function buildAppSchema(pubSub: AppPubSub): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    pubSub,
    resolvers: [
      ...accountsResolvers,
      ...attachmentsResolvers,
      ...resourcesResolvers,
      ...conversationResolvers,
      ...plansResolvers,
      ...searchResolvers,
      ...continuationResolvers,
      ...lifecycleResolvers,
      ...webhooksResolvers,
      NodeResolver,
    ],
    scalarsMap,
    validate: false,
  });
  describeRootTypes(schema);
  return enforceFieldAccess(refuseUnstorableText(schema));
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
