import type { Server } from 'node:http';
import { GraphQLError, GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Viewer } from '../../shared/viewer';
import { metrics } from '../observability/metrics';
import { CorsOrigins, webSocketOriginAllowed } from './cors';
import { shareResults, subscribeSharingResults } from './subscription-fan-out';
import { formatStreamErrors, prepareOperation } from './stream-operation';
import { connectionsByKey } from './key-connections';
import { RequestThrottle, THROTTLED_CLOSE_CODE, Throttled, throttledMessage } from './rate-limits';

export interface GraphQLWebSocketOptions {
  schema: GraphQLSchema;
  development: boolean;
  corsOrigins: CorsOrigins;
  /** The caller the connection's `authorization` parameter names; null refuses the connection. */
  authenticate(authorization: unknown): Promise<Viewer | null>;
  createContext(viewer: Viewer): object;
  /** Told of each upgrade refused for its Origin. */
  onOriginRefused?(origin: string): void;
  /** Calls the listener with each key revoked, in any process; returns what stops it. */
  watchKeyRevocations?(listener: (keyId: string) => void): () => void;
  /** Failed sign-ins per address and subscriptions per key; none when absent. */
  throttle?: RequestThrottle;
}

/** The close code of a connection whose key was revoked or expired: 4403, as graphql-ws's 4403 Forbidden. */
export const KEY_REFUSED_CLOSE_CODE = 4403;

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
  const keySockets = connectionsByKey(options.watchKeyRevocations);
  // Operation ids of each connection that are streaming a subscription now.
  const streaming = new WeakMap<object, Set<string>>();
  const served = useServer<Record<string, unknown>, { viewer: Viewer; scope: string }>(
    {
      schema,
      // A published event reaches every subscriber as one object: executed and serialised once per selection.
      subscribe: subscribeSharingResults,
      onSubscribe: async (ctx, _id, payload) => {
        const throttled = await options.throttle?.request((ctx.extra.viewer as Viewer | undefined)?.keyId ?? null);
        if (throttled) {
          ctx.extra.socket.close(THROTTLED_CLOSE_CODE, throttledMessage(throttled));
          return [new GraphQLError(throttledMessage(throttled), { extensions: { code: 'RATE_LIMITED', retryAfterSeconds: throttled.retryAfterSeconds } })];
        }
        return prepareOperation(schema, payload);
      },
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
        const { request, socket } = ctx.extra;
        const refuse = (throttled: Throttled) => {
          socket.close(THROTTLED_CLOSE_CODE, throttledMessage(throttled));
          return false;
        };
        const blocked = await options.throttle?.beforeSignIn(request);
        if (blocked) return refuse(blocked);
        const authorization = ctx.connectionParams?.authorization;
        const viewer = await options.authenticate(authorization);
        if (!viewer) {
          const throttled = authorization === undefined ? null : await options.throttle?.signInFailed(request);
          return throttled ? refuse(throttled) : false;
        }
        const { socket: opened } = ctx.extra;
        keySockets.add(viewer, (reason) => opened.close(KEY_REFUSED_CLOSE_CODE, reason), (closed) => opened.once('close', closed));
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
  return {
    dispose() {
      keySockets.stop();
      return served.dispose();
    },
  };
}
