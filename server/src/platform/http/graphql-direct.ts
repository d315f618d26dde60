import type { IncomingMessage, ServerResponse } from 'node:http';
import Negotiator from 'negotiator';
import {
  DocumentNode,
  ExecutionResult,
  GraphQLError,
  GraphQLFormattedError,
  GraphQLSchema,
  OperationDefinitionNode,
  execute,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import type { Logger } from 'pino';
import { formatGraphQLError } from '../../shared/graphql/errors';
import { limitRules, operationCostError, parseOptions } from './graphql-limits';
import { timeOperation } from './metrics-route';
import { nameOperation, withLoggedUnexpectedErrors } from './request-log';

/** The media types a single result is answered in, as Apollo Server writes them. */
const APPLICATION_JSON = 'application/json; charset=utf-8';
const SINGLE_RESULT_TYPES = [APPLICATION_JSON, 'application/graphql-response+json; charset=utf-8', 'application/json; callbackSpec=1.0; charset=utf-8'];

/** How much document text a server keeps parsed and validated, and the longest document it keeps. */
const DOCUMENT_TEXT_KEPT = 1024 * 1024;
const LONGEST_DOCUMENT_KEPT = 16 * 1024;

/** The answer's media type by Accept header: a client sends the same header every time. */
const answerTypes = new Map<string, string | null>();
const ACCEPT_HEADERS_KEPT = 100;

/** A POST body this path serves: one operation with its query; a persisted query is Apollo Server's. */
interface OperationBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  /** Read by nothing here, as by nothing of Apollo Server's but persisted queries (Apollo Client sends `clientLibrary`). */
  extensions?: Record<string, unknown> | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function servableBody(body: unknown): body is OperationBody {
  if (!isRecord(body) || typeof body.query !== 'string' || body.query === '') return false;
  const { variables, operationName, extensions } = body;
  return (
    (variables === undefined || variables === null || isRecord(variables)) &&
    (operationName === undefined || operationName === null || typeof operationName === 'string') &&
    (extensions === undefined || extensions === null || (isRecord(extensions) && !('persistedQuery' in extensions)))
  );
}

/** The media type Apollo Server answers a single result in for this Accept header; null when it would refuse (406). */
function answerType(accept: string | undefined): string | null {
  if (!accept) return APPLICATION_JSON;
  let type = answerTypes.get(accept);
  if (type === undefined) {
    type = new Negotiator({ headers: { accept } }).mediaType(SINGLE_RESULT_TYPES) ?? null;
    if (answerTypes.size >= ACCEPT_HEADERS_KEPT) answerTypes.clear();
    answerTypes.set(accept, type);
  }
  return type;
}

/**
 * The documents that parsed and passed the same validation as Apollo Server's against `schema`,
 * by their text: clients send the same few over and over. Bounded by their text, of which a
 * syntax tree is a few times the size: a document with long literals in it is parsed again each
 * time rather than kept.
 */
function validDocuments(schema: GraphQLSchema): (query: string) => DocumentNode | null {
  const kept = new Map<string, DocumentNode>();
  let textKept = 0;
  return (query) => {
    let document = kept.get(query);
    if (document) return document;
    try {
      document = parse(query, parseOptions);
    } catch {
      return null;
    }
    if (validate(schema, document, [...specifiedRules, ...limitRules]).length > 0) return null;
    if (query.length <= LONGEST_DOCUMENT_KEPT) {
      if (textKept + query.length > DOCUMENT_TEXT_KEPT) {
        kept.clear();
        textKept = 0;
      }
      kept.set(query, document);
      textKept += query.length;
    }
    return document;
  };
}

/** The operation to run, when it is one this path runs: a query or mutation within the limits. */
function runnableOperation(schema: GraphQLSchema, document: DocumentNode, body: OperationBody): OperationDefinitionNode | null {
  const operation = getOperationAST(document, body.operationName);
  if (!operation || operation.operation === 'subscription') return null;
  try {
    return operationCostError(schema, document, operation, body.variables ?? undefined) ? null : operation;
  } catch {
    return null;
  }
}

/** An `http` extension Apollo Server takes out of an error into the answer's status and headers. */
function httpHead(value: unknown): { status?: number; headers?: Map<string, string> } | null {
  if (!value || typeof value !== 'object') return null;
  const head = value as { status?: unknown; headers?: unknown };
  return (!('status' in head) || typeof head.status === 'number') && (!('headers' in head) || head.headers instanceof Map)
    ? (head as { status?: number; headers?: Map<string, string> })
    : null;
}

/**
 * Errors formatted as Apollo Server formats them: a code on each (INTERNAL_SERVER_ERROR when the
 * error has none), an `http` extension taken out into the answer's status and headers, the
 * stack in development, then the server's own formatting.
 */
function formattedErrors(errors: readonly GraphQLError[], development: boolean) {
  let status: number | undefined;
  const headers = new Map<string, string>();
  const enriched = (error: GraphQLError): GraphQLFormattedError => {
    const extensions: Record<string, unknown> = { ...error.extensions, code: error.extensions.code ?? 'INTERNAL_SERVER_ERROR' };
    const http = httpHead(extensions.http);
    if (http) {
      if (http.status) status = http.status;
      for (const [name, value] of http.headers ?? []) headers.set(name, value);
      delete extensions.http;
    }
    if (development) extensions.stacktrace = error.stack?.split('\n');
    return { ...error.toJSON(), extensions };
  };
  // The server's own formatting cannot fail: it only picks fields.
  const formatted = errors.map((error) => formatGraphQLError(enriched(error), error, development));
  return { formatted, status, headers };
}

export interface DirectExecution {
  schema: GraphQLSchema;
  development: boolean;
  logger: Logger;
}

/**
 * Serves the usual GraphQL request without Apollo Server's per-request pipeline, whose plugin
 * hooks, query hashing and content negotiation cost 12 to 16% of the server's CPU per posted
 * message: a JSON POST of one query or mutation whose document is valid, within the
 * limits, from a client that accepts JSON. It answers exactly as Apollo Server would: the same
 * execution by graphql-js, the same error formatting, log lines and metrics. Anything else
 * (GET, batches, persisted queries, invalid documents, refused operations, a context that fails,
 * variables that do not coerce, which execution reports before running anything) is left to
 * Apollo Server: the returned function then resolves to false, having written nothing.
 */
export function directExecution({ schema, development, logger }: DirectExecution) {
  const validDocument = validDocuments(schema);
  return async <TContext extends { requestId?: string; log?: Logger }>(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    context: () => Promise<TContext>,
  ): Promise<boolean> => {
    if (req.method !== 'POST' || !servableBody(body)) return false;
    const type = answerType(req.headers.accept);
    const document = type && validDocument(body.query);
    const operation = document && runnableOperation(schema, document, body);
    if (!type || !document || !operation) return false;
    let contextValue: TContext;
    try {
      contextValue = await context();
    } catch {
      return false;
    }
    const recordOperation = timeOperation();
    const operationName = operation.name?.value ?? null;
    if (operationName) nameOperation(req, operationName);
    let result: ExecutionResult;
    try {
      result = await execute({ schema, document, contextValue, variableValues: body.variables, operationName: body.operationName });
    } catch {
      return false;
    }
    if (result.data === undefined) return false;
    const { formatted, status, headers } = result.errors ? formattedErrors(result.errors, development) : { formatted: undefined, status: undefined, headers: null };
    const errors = formatted && withLoggedUnexpectedErrors(formatted, result.errors, contextValue, operationName, logger);
    recordOperation(operation, errors);
    for (const [name, value] of headers ?? []) res.setHeader(name, value);
    res.setHeader('content-type', type);
    res.statusCode = status ?? 200;
    res.end(`${JSON.stringify({ errors, data: result.data, extensions: result.extensions })}\n`);
    return true;
  };
}
