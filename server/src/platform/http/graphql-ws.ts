import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Viewer } from '../../shared/viewer';
import { formatGraphQLError, isUnexpectedError } from '../../shared/graphql/errors';
import { logger } from '../observability/logger';
import { metrics } from '../observability/metrics';
import { CorsOrigins, webSocketOriginAllowed } from './cors';
import { shareResults, subscribeSharingResults } from './subscription-fan-out';
import { prepareOperation } from './ws-operation';

export interface GraphQLWebSocketOptions {
  schema: GraphQLSchema;
  development: boolean;
  corsOrigins: CorsOrigins;
  /** The caller the connection's `authorization` parameter names; null refuses the connection. */
  authenticate(authorization: unknown): Promise<Viewer | null>;
  createContext(viewer: Viewer): object;
}

/**
 * graphql-ws on the HTTP server's `/graphql` upgrades: every connection authenticates with its
 * `connectionParams.authorization`, and an unexpected error gets an id of its own in the log.
 * Returns what stops it.
 */
export function serveGraphQLOverWebSocket(httpServer: Server, options: GraphQLWebSocketOptions): { dispose(): void | Promise<void> } {
  const { schema, development, corsOrigins } = options;
  // A subscription's errors have no HTTP request: each unexpected one gets an id of its own.
  const formatForSocket = (errors: readonly GraphQLError[]) =>
    errors.map((error) => {
      const formatted = error.toJSON();
      if (!isUnexpectedError(formatted, error)) return formatGraphQLError(formatted, error, development);
      const requestId = randomUUID();
      logger.error({ err: unwrapResolverError(error), reqId: requestId }, 'Unexpected error in a GraphQL operation over WebSocket');
      return formatGraphQLError({ ...formatted, extensions: { ...formatted.extensions, requestId } }, error, development);
    });
  const wsServer = new WebSocketServer({
    server: httpServer,
    path: '/graphql',
    // Browsers apply no CORS to WebSockets: checking the Origin of an upgrade is the server's part.
    verifyClient: ({ origin, req }, allow) =>
      webSocketOriginAllowed(corsOrigins, origin, req.headers.host) ? allow(true) : allow(false, 403, 'Origin not allowed'),
  });
  wsServer.on('connection', (socket) => {
    metrics.webSocketConnections.inc();
    socket.once('close', () => metrics.webSocketConnections.dec());
  });
  // Operation ids of each connection that are streaming a subscription now.
  const streaming = new WeakMap<object, Set<string>>();
  return useServer<Record<string, unknown>, { viewer: Viewer; scope: string }>(
    {
      schema,
      // A published event reaches every subscriber as one object: executed and serialised once per selection.
      subscribe: subscribeSharingResults,
      onSubscribe: (_ctx, _id, payload) => prepareOperation(schema, payload),
      onOperation: (ctx, id, _payload, _args, result) => {
        // A subscription the client stopped while it was starting never streams.
        if (!(Symbol.asyncIterator in result) || !(id in ctx.subscriptions)) return;
        const ids = streaming.get(ctx) ?? new Set<string>();
        streaming.set(ctx, ids.add(id));
        metrics.activeSubscriptions.inc();
      },
      onComplete: (ctx, id) => {
        if (streaming.get(ctx)?.delete(id)) metrics.activeSubscriptions.dec();
      },
      onConnect: async (ctx) => {
        const viewer = await options.authenticate(ctx.connectionParams?.authorization);
        if (!viewer) return false;
        ctx.extra.viewer = viewer;
        ctx.extra.scope = JSON.stringify(viewer);
        return true;
      },
      context: (ctx, id) => {
        const context = options.createContext(ctx.extra.viewer as Viewer);
        const { socket } = ctx.extra;
        const head = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
        shareResults(context, {
          scope: ctx.extra.scope as string,
          // graphql-ws's next message, written around the payload serialised once for every subscriber.
          send: (payload) => {
            if (socket.readyState === socket.OPEN) socket.send(`${head}${payload}}`);
          },
        });
        return context;
      },
      onError: (_ctx, _id, _payload, errors) => formatForSocket(errors),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: formatForSocket(result.errors) } : result),
    },
    wsServer,
  );
}
