import {
  DocumentNode,
  ExecutionArgs,
  GraphQLError,
  GraphQLSchema,
  getOperationAST,
  getVariableValues,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { limitRules, operationLimitError, parseOptions } from './graphql-limits';

const validationRules = [...specifiedRules, ...limitRules];

/** The error with the code Apollo Server gives the same failure over HTTP (and no HTTP status, which means nothing here). */
function withCode(error: GraphQLError, code: string): GraphQLError {
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...extensions, code },
  });
}

/**
 * What Apollo Server does before executing, for an operation that arrives over graphql-ws: parse
 * within the token limit, validate with the same rules, coerce the variables, apply the page and
 * cost limits. Returns the arguments to execute with, or the request errors to answer with an
 * `error` message on that subscription (a thrown error would close the whole socket).
 */
export function prepareOperation(
  schema: GraphQLSchema,
  payload: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null },
): ExecutionArgs | GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(payload.query, parseOptions);
  } catch (error) {
    if (error instanceof GraphQLError) return [withCode(error, 'GRAPHQL_PARSE_FAILED')];
    throw error;
  }
  const invalid = validate(schema, document, validationRules);
  if (invalid.length > 0) return invalid.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED'));
  const operation = getOperationAST(document, payload.operationName);
  if (!operation) {
    const message = payload.operationName ? `Unknown operation named "${payload.operationName}".` : 'Name the operation to run.';
    return [new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } })];
  }
  const variables = payload.variables ?? {};
  const refusal = operationLimitError(schema, document, operation, variables);
  if (refusal) return [withCode(refusal, String(refusal.extensions.code))];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) return coerced.errors.map((error) => withCode(error, 'BAD_USER_INPUT'));
  return { schema, document, operationName: payload.operationName, variableValues: variables };
}
