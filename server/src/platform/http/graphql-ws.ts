import type { Server } from 'node:http';
import { GraphQLError, GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Viewer } from '../../shared/viewer';
import { metrics } from '../observability/metrics';
import { CorsOrigins, webSocketOriginAllowed } from './cors';
import { shareResults, subscribeSharingResults } from './subscription-fan-out';
import { formatStreamErrors, prepareOperation } from './stream-operation';

export interface GraphQLWebSocketOptions {
  schema: GraphQLSchema;
  development: boolean;
  corsOrigins: CorsOrigins;
  /** The caller the connection's `authorization` parameter names; null refuses the connection. */
  authenticate(authorization: unknown): Promise<Viewer | null>;
  createContext(viewer: Viewer): object;
  /** Told of each upgrade refused for its Origin. */
  onOriginRefused?(origin: string): void;
}

/**
 * graphql-ws on the HTTP server's `/graphql` upgrades: every connection authenticates with its
 * `connectionParams.authorization`, and an unexpected error gets an id of its own in the log.
 * Returns what stops it.
 */
export function serveGraphQLOverWebSocket(httpServer: Server, options: GraphQLWebSocketOptions): { dispose(): void | Promise<void> } {
  const { schema, development, corsOrigins } = options;
  const formatForSocket = (errors: readonly GraphQLError[]) => formatStreamErrors(errors, development, 'WebSocket');
  const wsServer = new WebSocketServer({
    server: httpServer,
    path: '/graphql',
    // Browsers apply no CORS to WebSockets: checking the Origin of an upgrade is the server's part.
    verifyClient: ({ origin, req }, allow) => {
      if (webSocketOriginAllowed(corsOrigins, origin, req.headers.host)) return allow(true);
      options.onOriginRefused?.(origin);
      allow(false, 403, 'Origin not allowed');
    },
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
