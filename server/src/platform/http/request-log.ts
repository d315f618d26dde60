import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

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

/**
 * One JSON line per HTTP request, what an operator needs: method, path, status, duration, the
 * request id (which the response echoes in `x-request-id`) and the GraphQL operation's name.
 * Headers only at `debug`, and never the credentials among them. The query string is left out:
 * it can carry an API key (`/?key=`) or a GET query's variables.
 */
export function requestLogger(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  const headersToo = () => logger.isLevelEnabled('debug');
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const forwarded = req.headers['x-request-id'];
      const id = typeof forwarded === 'string' && FORWARDED_REQUEST_ID.test(forwarded) ? forwarded : randomUUID();
      res.setHeader('x-request-id', id);
      return id;
    },
    serializers: {
      req: (req: { id: string; method: string; url: string; headers: Record<string, unknown> }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?', 1)[0],
        ...(headersToo() ? { headers: withoutSecrets(req.headers) } : {}),
      }),
      res: (res: { statusCode: number; headers: Record<string, unknown> }) => ({
        statusCode: res.statusCode,
        ...(headersToo() ? { headers: res.headers } : {}),
      }),
    },
    // Read as the request ends, when the operation is known.
    customProps: (req) => {
      const operationName = operationNames.get(req);
      return operationName ? { operationName } : {};
    },
    // A request's own lines carry only its id; the line that ends it has the request and response.
    quietReqLogger: true,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
  });
}

/** The request id pino-http gave a request. */
export function requestIdOf(req: IncomingMessage): string {
  return String((req as IncomingMessage & { id: unknown }).id);
}

/** The logger of one request: its lines carry the request id. */
export function requestLog(req: IncomingMessage, fallback: Logger): Logger {
  return (req as IncomingMessage & { log?: Logger }).log ?? fallback;
}

const isInternal = (error: GraphQLFormattedError) => error.extensions?.code === 'INTERNAL_SERVER_ERROR';

/**
 * Logs each unexpected error of an operation once, with the request id, and adds that id to the
 * error's `extensions` so that whoever reports it can point at the log line. Operation-level only.
 */
export function unexpectedErrorLog<TContext extends { requestId?: string; log?: Logger }>(fallback: Logger): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, errors, contextValue, operationName }) {
          if (response.body.kind !== 'single' || !response.body.singleResult.errors?.some(isInternal)) return;
          const requestId = contextValue.requestId ?? randomUUID();
          const log = contextValue.log ?? fallback.child({ reqId: requestId });
          response.body.singleResult.errors = response.body.singleResult.errors.map((formatted, index) => {
            if (!isInternal(formatted)) return formatted;
            const error = errors?.[index];
            log.error({ err: error ? unwrapResolverError(error) : formatted, operationName }, 'Unexpected error in a GraphQL operation');
            return { ...formatted, extensions: { ...formatted.extensions, requestId } };
          });
        },
      };
    },
  };
}
