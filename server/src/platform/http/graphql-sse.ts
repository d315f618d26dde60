import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError, GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';
import type { Viewer } from '../../shared/viewer';
import { unauthenticatedError } from '../../shared/graphql/errors';
import { logger } from '../observability/logger';
import { metrics } from '../observability/metrics';
import { requestIdOf, requestLog } from './request-log';
import { formatStreamErrors, prepareOperation } from './stream-operation';
import { shareResults, subscribeSharingResults } from './subscription-fan-out';
import { connectionsByKey } from './key-connections';

/** Where GraphQL over Server-Sent Events is served. */
export const GRAPHQL_SSE_PATH = '/graphql/stream';

export interface GraphQLSseOptions {
  schema: GraphQLSchema;
  development: boolean;
  /** The caller an `Authorization` header value names; null refuses the request with 401. */
  authenticate(authorization: unknown): Promise<Viewer | null>;
  createContext(viewer: Viewer): object;
  /** Calls the listener with each key revoked, in any process (that key's open streams end); returns what stops it. */
  watchKeyRevocations?(listener: (keyId: string) => void): () => void;
}

export interface GraphQLSse {
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Ends every open event stream, so that the HTTP server can close. */
  dispose(): void;
}

/**
 * graphql-sse in its distinct connections mode (one event stream per operation) at
 * `/graphql/stream`, for clients and networks without WebSocket: each request authenticates with
 * its `Authorization` header, and operations get graphql-ws's limits (parse, validation, cost,
 * variables), its per-subscriber access checks and its shared executions.
 */
export function serveGraphQLOverSse(options: GraphQLSseOptions): GraphQLSse {
  const { schema, development } = options;
  const viewers = new WeakMap<IncomingMessage, Viewer>();
  const streaming = new WeakSet<IncomingMessage>();
  const open = new Set<ServerResponse>();
  const responses = new WeakMap<IncomingMessage, ServerResponse>();
  const keyStreams = connectionsByKey(options.watchKeyRevocations);
  // The library types results' errors as GraphQLError but sends them through JSON.stringify: the formatted ones are what it sends.
  const formatted = (errors: readonly GraphQLError[]) => formatStreamErrors(errors, development, 'Server-Sent Events') as unknown as GraphQLError[];
  const handler = createHandler<Record<string, unknown>>({
    schema,
    // Null: no single connection mode, whose reservation token would be a second credential.
    authenticate: async (req) => {
      const viewer = await options.authenticate(req.headers.get('authorization'));
      if (!viewer) {
        const { message, extensions } = unauthenticatedError();
        const body = JSON.stringify({ errors: [{ message, extensions: { code: extensions.code } }] });
        return [body, { status: 401, statusText: 'Unauthorized', headers: { 'content-type': 'application/json; charset=utf-8' } }];
      }
      viewers.set(req.raw, viewer);
      const res = responses.get(req.raw);
      if (res) keyStreams.add(viewer, () => res.end(), (closed) => res.once('close', closed));
      return null;
    },
    onSubscribe: (req, params) => {
      const prepared = prepareOperation(schema, params);
      // A request error is the stream's one `next` event, as the protocol asks (onNext formats it).
      if (Array.isArray(prepared)) return { data: null, errors: prepared };
      const viewer = viewers.get(req.raw)!;
      const contextValue = options.createContext(viewer) as Record<string, unknown>;
      // The library's JSON serialises each result: executions are shared, the bytes are not.
      shareResults(contextValue, { scope: JSON.stringify(viewer) });
      return { ...prepared, contextValue };
    },
    // prepareOperation has validated the document with the server's rules.
    validate: () => [],
    subscribe: subscribeSharingResults,
    onOperation: (_ctx, req, _args, result) => {
      if (!(Symbol.asyncIterator in Object(result))) return;
      streaming.add(req.raw);
      metrics.activeSubscriptions.inc();
    },
    onNext: (_ctx, _req, result) => (result.errors ? { ...result, errors: formatted(result.errors) } : result),
    onComplete: (_ctx, req) => {
      if (streaming.delete(req.raw)) metrics.activeSubscriptions.dec();
    },
  });
  return {
    async serve(req, res) {
      open.add(res);
      responses.set(req, res);
      res.once('close', () => open.delete(res));
      try {
        await handler(req, res);
      } catch (error) {
        requestLog(req, logger).error({ err: error }, 'Unexpected error serving GraphQL over Server-Sent Events');
        if (!res.headersSent) {
          const body = JSON.stringify({ errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: requestIdOf(req) } }] });
          res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(body);
        } else {
          res.destroy();
        }
      }
    },
    dispose() {
      keyStreams.stop();
      for (const res of open) res.end();
    },
  };
}
