import { defaultFieldResolver, GraphQLSchema } from 'graphql';
import type { Viewer } from '../shared/viewer';

/**
 * Makes every mutation record, before its payload is resolved and its answer sent, that the
 * viewer's account wrote: reads of that account (in the same request and the next ones, on any
 * process) then wait for a replica to have it, or go to the primary. Only with a replica.
 */
export function recordMutationWrites(schema: GraphQLSchema, wrote: (accountId: string) => Promise<void>): GraphQLSchema {
  const mutation = schema.getMutationType();
  for (const field of Object.values(mutation?.getFields() ?? {})) {
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = async (source, args, context: { viewer?: Viewer | null }, info) => {
      try {
        return await resolve(source, args, context, info);
      } finally {
        if (context.viewer) await wrote(context.viewer.accountId);
      }
    };
  }
  return schema;
}
