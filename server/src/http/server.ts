import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import express, { ErrorRequestHandler } from 'express';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { bearerKey } from '../domain/api-keys';
import type { Viewer } from '../services/viewer';
import { Context, Services, createContext } from '../graphql/context';
import { formatGraphQLError, isUnexpectedError, unauthenticatedError } from '../graphql/errors';
import { limitRules, operationLimitError, parseOptions } from '../graphql/limits';
import type { AppPubSub } from '../graphql/pubsub';
import type { CorsOrigins } from '../config';
import { corsHandler, webSocketOriginAllowed } from './cors';
import { graphqlOverHttp } from './graphql-http';
import type { ReadinessReport } from './readiness';
import { prepareOperation } from './ws-operation';
import { logger } from '../logger';
import { requestIdOf, requestLog, requestLogger, unexpectedErrorLog } from './request-log';
import { measureRequest, metricsRoute, operationMetrics } from './metrics-route';
import { metrics } from '../metrics';
import { graphiqlLandingPage, serveGraphiQL } from './graphiql';
import { mcpRoute } from '../mcp/route';
import { attachmentsRouter } from './attachments-route';

export interface HttpServerOptions {
  host: string;
  port: number;
  schema: GraphQLSchema;
  services: Services;
  pubSub: AppPubSub;
  development: boolean;
  clientDist: string;
  /** What `/readyz` reports: whether the database and cross-process delivery work. */
  readiness(): Promise<ReadinessReport>;
  corsOrigins?: CorsOrigins;
  /** When set, `/metrics` answers only requests bearing it. */
  metricsToken?: string;
}

export interface RunningHttpServer {
  /** Base URL, e.g. http://127.0.0.1:4000 */
  url: string;
  httpServer: Server;
  /** Stops accepting, lets in-flight requests finish, closes WebSocket connections. */
  close(): Promise<void>;
}

/** Failures outside GraphQL answer in GraphQL's error shape, never with a stack. */
const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  requestLog(req, logger).error({ err: error }, 'Unexpected error serving a request');
  res.status(500).json({ errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: requestIdOf(req) } }] });
};

/** Whether a request is for the GraphQL endpoint, which is served without Express. */
function isGraphQLPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?', 1)[0];
  return path === '/graphql' || path === '/graphql/';
}

/**
 * Apollo Server over HTTP and graphql-ws over WebSocket, both at `/graphql`; Express serves the
 * rest (health, the built client).
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { schema, services, pubSub, development } = options;
  // A subscription's errors have no HTTP request: each unexpected one gets an id of its own.
  const formatForSocket = (errors: readonly GraphQLError[]) =>
    errors.map((error) => {
      const formatted = error.toJSON();
      if (!isUnexpectedError(formatted, error)) return formatGraphQLError(formatted, error, development);
      const requestId = randomUUID();
      logger.error({ err: unwrapResolverError(error), reqId: requestId }, 'Unexpected error in a GraphQL operation over WebSocket');
      return formatGraphQLError({ ...formatted, extensions: { ...formatted.extensions, requestId } }, error, development);
    });
  const app = express();
  // Requests are routed once Apollo Server has started, before the server listens.
  const httpServer = createServer();
  const corsOrigins = options.corsOrigins ?? [];
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

  const wsServerCleanup = useServer<Record<string, unknown>, { viewer: Viewer }>(
    {
      schema,
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
        const viewer = await services.accounts.authenticate(bearerKey(ctx.connectionParams?.authorization));
        if (!viewer) return false;
        ctx.extra.viewer = viewer;
        return true;
      },
      context: (ctx): Context => createContext(ctx.extra.viewer as Viewer, services, pubSub),
      onError: (_ctx, _id, _payload, errors) => formatForSocket(errors),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: formatForSocket(result.errors) } : result),
    },
    wsServer,
  );

  const apollo = new ApolloServer<Context>({
    schema,
    includeStacktraceInErrorResponses: development,
    // The API is public and typed: codegen and GraphiQL introspect it in production too (Apollo's
    // default turns introspection off under NODE_ENV=production).
    introspection: true,
    parseOptions,
    validationRules: limitRules,
    // The process entry point owns signals: it stops HTTP, WebSocket and the database in order.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => formatGraphQLError(formatted, error, development),
    logger,
    plugins: [
      unexpectedErrorLog<Context>(logger),
      operationMetrics<Context>(),
      graphiqlLandingPage(),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      // No cache hints are served; the default cache-control plugin would hook every resolved field.
      ApolloServerPluginCacheControlDisabled(),
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ request, document, operation }) {
              // Apollo Server has resolved the operation by now; its type cannot say so.
              const error = operation && operationLimitError(schema, document, operation, request.variables);
              if (error) throw error;
            },
          };
        },
      },
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await wsServerCleanup.dispose();
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  app.disable('x-powered-by');
  const serveGraphQL = graphqlOverHttp(apollo, async (req) => {
    const requestId = requestIdOf(req);
    const log = requestLog(req, logger);
    const viewer = await services.accounts.authenticate(bearerKey(req.headers.authorization)).catch((error: unknown) => {
      // Apollo Server runs no plugin for a context that fails: its error is logged here.
      log.error({ err: error }, 'Unexpected error authenticating a GraphQL request');
      throw new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR', requestId, http: { status: 500 } } });
    });
    if (!viewer) throw unauthenticatedError();
    return { ...createContext(viewer, services, pubSub), requestId, log };
  });
  const logRequest = requestLogger(logger);
  const applyCors = corsHandler(corsOrigins);
  httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    measureRequest(req, res);
    logRequest(req, res);
    applyCors(req, res, () => (isGraphQLPath(req.url) ? void serveGraphQL(req, res) : app(req, res)));
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/metrics', metricsRoute(options.metricsToken));
  serveGraphiQL(app, options.clientDist);
  app.get('/readyz', async (_req, res) => {
    const report = await options.readiness();
    res.status(report.ready ? 200 : 503).json(report);
  });
  app.all('/mcp', mcpRoute({ services, schema, corsOrigins, listenHost: options.host }));
  app.use(attachmentsRouter(services));
  if (existsSync(path.join(options.clientDist, 'index.html'))) serveClient(app, options.clientDist);
  app.use(errorHandler);

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostForUrl}:${port}`,
    httpServer,
    close: () => apollo.stop(),
  };
}

/** The built client, with its client-side routes (e.g. /sessions/<id>) falling back to index.html. */
function serveClient(app: express.Express, clientDist: string): void {
  app.use(express.static(clientDist, { index: 'index.html' }));
  app.use((req, res, next) => {
    if (req.method !== 'GET' || req.path.startsWith('/graphql') || !req.accepts('html')) return next();
    res.sendFile(path.join(clientDist, 'index.html'));
  });
}
