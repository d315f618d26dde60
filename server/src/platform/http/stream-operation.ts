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
import { randomUUID } from 'node:crypto';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { formatGraphQLError, isUnexpectedError } from '../../shared/graphql/errors';
import { logger } from '../observability/logger';
import { limitRules, operationLimitError, parseOptions } from './graphql-limits';

const validationRules = [...specifiedRules, ...limitRules];

/** Each schema's documents that parsed and validated, by their text: as Apollo Server's document store does over HTTP. */
const validDocumentsBySchema = new WeakMap<GraphQLSchema, Map<string, DocumentNode>>();
const VALID_DOCUMENTS_KEPT = 1_000;

/** The document of `query`, parsed and validated once, or the request errors it gets. */
function validDocument(schema: GraphQLSchema, query: string): DocumentNode | GraphQLError[] {
  let validDocuments = validDocumentsBySchema.get(schema);
  if (!validDocuments) {
    validDocuments = new Map();
    validDocumentsBySchema.set(schema, validDocuments);
  }
  const known = validDocuments.get(query);
  if (known) return known;
  let document: DocumentNode;
  try {
    document = parse(query, parseOptions);
  } catch (error) {
    if (error instanceof GraphQLError) return [withCode(error, 'GRAPHQL_PARSE_FAILED')];
    throw error;
  }
  const invalid = validate(schema, document, validationRules);
  if (invalid.length > 0) return invalid.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED'));
  if (validDocuments.size >= VALID_DOCUMENTS_KEPT) validDocuments.delete(validDocuments.keys().next().value!);
  validDocuments.set(query, document);
  return document;
}

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
 * An operation's errors as a streaming transport (WebSocket, Server-Sent Events) sends them: such
 * an operation has no HTTP request, so each unexpected error gets an id of its own in the log.
 */
export function formatStreamErrors(errors: readonly GraphQLError[], development: boolean, transport: string): GraphQLFormattedError[] {
  return errors.map((error) => {
    const formatted = error.toJSON();
    if (!isUnexpectedError(formatted, error)) return formatGraphQLError(formatted, error, development);
    const requestId = randomUUID();
    logger.error({ err: unwrapResolverError(error), reqId: requestId }, `Unexpected error in a GraphQL operation over ${transport}`);
    return formatGraphQLError({ ...formatted, extensions: { ...formatted.extensions, requestId } }, error, development);
  });
}

/**
 * What Apollo Server does before executing, for an operation that arrives over graphql-ws or graphql-sse: parse
 * within the token limit and validate with the same rules (once per document text, which also
 * lets subscribers of one selection share its results), coerce the variables, apply the page and
 * cost limits. Returns the arguments to execute with, or the request errors to answer with an
 * `error` message on that subscription (a thrown error would close the whole socket).
 */
export function prepareOperation(
  schema: GraphQLSchema,
  payload: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null },
): ExecutionArgs | GraphQLError[] {
  const document = validDocument(schema, payload.query);
  if (Array.isArray(document)) return document;
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
