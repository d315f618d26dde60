import { GraphQLFieldResolver, GraphQLSchema, defaultFieldResolver, getNamedType, isObjectType, isUnionType } from 'graphql';
import { ErrorCode, OperationFailure } from '../shared/errors';
import { unstorableText } from '../shared/text';
import { OperationError } from '../shared/graphql/operation-error.type';
import { failureError } from '../shared/graphql/errors';

/** The refusal of arguments holding text the database cannot store, or null. */
function unstorableArguments(args: Record<string, unknown>): OperationFailure | null {
  // Each argument is addressed by its name: the paths start there.
  const details = unstorableText(args, []);
  if (details.length === 0) return null;
  return { code: ErrorCode.INVALID_INPUT, message: `${details[0].path.join('.')}: ${details[0].message}`, details };
}

/**
 * Makes every field that takes arguments refuse, before its resolver runs, text the database
 * cannot store (see `unstorableText`): as the `OperationError` of its payload union where it has
 * one, else as an INVALID_INPUT GraphQL error. Fields without arguments keep their resolvers as
 * they are, so the check costs nothing where nothing can arrive.
 */
export function refuseUnstorableText(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      const returned = getNamedType(field.type);
      const answersWithOperationError = isUnionType(returned) && returned.getTypes().some((member) => member.name === 'OperationError');
      const guard =
        (resolve: GraphQLFieldResolver<unknown, unknown>, refuse: (failure: OperationFailure) => unknown): GraphQLFieldResolver<unknown, unknown> =>
        (source, args, context, info) => {
          const failure = unstorableArguments(args);
          return failure ? refuse(failure) : resolve(source, args, context, info);
        };
      const raise = (failure: OperationFailure) => {
        throw failureError(failure);
      };
      field.resolve = guard(field.resolve ?? defaultFieldResolver, answersWithOperationError ? OperationError.from : raise);
      if (field.subscribe) field.subscribe = guard(field.subscribe, raise);
    }
  }
  return schema;
}
