import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';

/** A request id a proxy in front may have set; anything else is replaced by our own. */
const FORWARDED_REQUEST_ID = /^[\w.:-]{1,64}$/;

/** The GraphQL operation each request ran, for its log line. */
const operationNames = new WeakMap<IncomingMessage, string>();

/** Names the GraphQL operation a request ran, for the line that logs the request. */
export function nameOperation(req: IncomingMessage, operationName: string): void {
  operationNames.set(req, operationName);
}

/** Headers that carry credentials: never logged, at any level. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

function withoutSecrets(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !SECRET_HEADERS.has(name.toLowerCase())));
}

type LoggedRequest = IncomingMessage & { id?: string; log?: Logger };

/** The request's id: a proxy's, when it set a usable one, else our own. */
function requestId(req: IncomingMessage): string {
  const forwarded = req.headers['x-request-id'];
  return typeof forwarded === 'string' && FORWARDED_REQUEST_ID.test(forwarded) ? forwarded : randomUUID();
}

/** The line that ends a request: the request and response as an operator reads them, headers only at `debug`. */
function completedLine(logger: Logger, req: LoggedRequest, res: ServerResponse, responseTime: number) {
  const headersToo = logger.isLevelEnabled('debug');
  const operationName = operationNames.get(req);
  return {
    reqId: req.id,
    req: {
      id: req.id,
      method: req.method,
      path: (req.url ?? '').split('?', 1)[0],
      ...(headersToo ? { headers: withoutSecrets(req.headers) } : {}),
    },
    res: { statusCode: res.statusCode, ...(headersToo ? { headers: res.getHeaders() } : {}) },
    responseTime,
    ...(operationName ? { operationName } : {}),
  };
}

/**
 * One JSON line per HTTP request, what an operator needs: method, path, status, duration, the
 * request id (which the response echoes in `x-request-id`) and the GraphQL operation's name.
 * Headers only at `debug`, and never the credentials among them. The query string is left out:
 * it can carry an API key (`/?key=`) or a GET query's variables. Lines a request logs meanwhile
 * carry its id (`requestLog`).
 *
 * Written here rather than with pino-http, which makes three or four child loggers for every
 * request (serialising the request into each): 6% of the server's CPU under `postMessage` load.
 */
export function requestLogger(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return (req: LoggedRequest, res) => {
    const id = requestId(req);
    res.setHeader('x-request-id', id);
    req.id = id;
    const started = Date.now();
    const ended = (error?: Error) => {
      res.removeListener('close', ended);
      res.removeListener('finish', ended);
      res.removeListener('error', ended);
      const failed = Boolean(error) || res.statusCode >= 500;
      // Below `info` (as under load, at `warn`) only failures are written: no line is made for the rest.
      if (!failed && !logger.isLevelEnabled('info')) return;
      const line = completedLine(logger, req, res, Date.now() - started);
      if (failed) logger.error({ ...line, err: error ?? new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
      else logger.info(line, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
    };
    res.on('close', ended);
    res.on('finish', ended);
    res.on('error', ended);
  };
}

/** The request id `requestLogger` gave a request. */
export function requestIdOf(req: IncomingMessage): string {
  return String((req as LoggedRequest).id);
}

/** The logger of one request, made when first asked for: its lines carry the request id. */
export function requestLog(req: IncomingMessage, fallback: Logger): Logger {
  const logged = req as LoggedRequest;
  logged.log ??= logged.id === undefined ? fallback : fallback.child({ reqId: logged.id });
  return logged.log;
}

const isInternal = (error: GraphQLFormattedError) => error.extensions?.code === 'INTERNAL_SERVER_ERROR';

/**
 * Logs each unexpected error of an operation once, with the request id, and returns the errors
 * with that id added to the `extensions` of those, so that whoever reports one can point at its
 * log line. `errors` are the raised errors the formatted ones were made from, in the same order.
 */
export function withLoggedUnexpectedErrors(
  formatted: readonly GraphQLFormattedError[],
  errors: readonly unknown[] | undefined,
  context: { requestId?: string; log?: Logger },
  operationName: string | null | undefined,
  fallback: Logger,
): readonly GraphQLFormattedError[] {
  if (!formatted.some(isInternal)) return formatted;
  const requestId = context.requestId ?? randomUUID();
  const log = context.log ?? fallback.child({ reqId: requestId });
  return formatted.map((error, index) => {
    if (!isInternal(error)) return error;
    const raised = errors?.[index];
    log.error({ err: raised ? unwrapResolverError(raised) : error, operationName }, 'Unexpected error in a GraphQL operation');
    return { ...error, extensions: { ...error.extensions, requestId } };
  });
}

/** {@link withLoggedUnexpectedErrors} for the operations Apollo Server runs. Operation-level only. */
export function unexpectedErrorLog<TContext extends { requestId?: string; log?: Logger }>(fallback: Logger): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, errors, contextValue, operationName }) {
          if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
          response.body.singleResult.errors = withLoggedUnexpectedErrors(response.body.singleResult.errors, errors, contextValue, operationName, fallback);
        },
      };
    },
  };
}
