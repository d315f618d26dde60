import { existsSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import express, { ErrorRequestHandler } from 'express';
import { GraphQLError, GraphQLSchema } from 'graphql';
import type { Viewer } from '../../shared/viewer';
import { unauthenticatedError } from '../../shared/graphql/errors';
import { logger } from '../observability/logger';
import { startApollo } from './apollo';
import { CorsOrigins, corsHandler, corsRefusalLog } from './cors';
import { directExecution } from './graphql-direct';
import { graphqlOverHttp } from './graphql-http';
import { GRAPHQL_SSE_PATH, serveGraphQLOverSse } from './graphql-sse';
import { serveGraphQLOverWebSocket } from './graphql-ws';
import { serveGraphiQL } from './graphiql';
import { measureRequest, metricsRoute } from './metrics-route';
import type { ReadinessReport } from './readiness';
import { requestIdOf, requestLog, requestLogger } from './request-log';
import { RequestThrottle, Throttled, throttledMessage } from './rate-limits';
import { applyBaseSecurityHeaders, clientContentSecurityPolicy } from './security-headers';

export interface HttpServerOptions {
  host: string;
  port: number;
  schema: GraphQLSchema;
  development: boolean;
  clientDist: string;
  /** The caller an `Authorization` header value (or graphql-ws `authorization` parameter) names; null when none. */
  authenticate(authorization: unknown): Promise<Viewer | null>;
  /** A GraphQL operation's context for an authenticated caller. */
  createContext(viewer: Viewer): object;
  /** Calls the listener with each key revoked, in any process (open WebSockets of that key are closed); returns what stops it. */
  watchKeyRevocations?(listener: (keyId: string) => void): () => void;
  /** The capabilities' own routes (attachments, MCP), mounted before the web client. */
  mountRoutes(app: express.Express): void;
  /** What `/readyz` reports: whether the database and cross-process delivery work. */
  readiness(): Promise<ReadinessReport>;
  corsOrigins?: CorsOrigins;
  /** Failed sign-ins per address and requests per key; none when absent. */
  throttle?: RequestThrottle;
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

/** The paths that take an API key: requests to them are throttled. */
const KEYED_PATHS = /^\/(graphql|attachments|exports|imports|mcp)(\/|$)/;

/** 429 with Retry-After, in GraphQL's error shape with code RATE_LIMITED. */
function sendThrottled(res: ServerResponse, throttled: Throttled): void {
  const body = JSON.stringify({ errors: [{ message: throttledMessage(throttled), extensions: { code: 'RATE_LIMITED', retryAfterSeconds: throttled.retryAfterSeconds } }] });
  res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(throttled.retryAfterSeconds), 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Whether a request may go on: its address must not be over its failed sign-ins, a key it presents
 * that does not sign in counts as one, and a key that does must be under its request rate. The
 * route answers as usual; GraphQL's reuses the sign-in made here, other routes sign in again
 * (from the keys cached in memory).
 */
async function passesThrottle(req: IncomingMessage, res: ServerResponse, throttle: RequestThrottle, signIn: (req: IncomingMessage) => Promise<Viewer | null>): Promise<boolean> {
  if (!KEYED_PATHS.test((req.url ?? '').split('?', 1)[0]) || req.method === 'OPTIONS') return true;
  let throttled = await throttle.beforeSignIn(req);
  if (!throttled && req.headers.authorization !== undefined) {
    const viewer = await signIn(req).catch(() => undefined);
    if (viewer === null) throttled = await throttle.signInFailed(req);
    else if (viewer) throttled = await throttle.request(viewer.keyId);
  }
  if (!throttled) return true;
  req.resume();
  sendThrottled(res, throttled);
  return false;
}

/** Signs a request in once: the throttle's sign-in is the one GraphQL's context takes over. */
function signInOncePerRequest(authenticate: HttpServerOptions['authenticate']): (req: IncomingMessage) => Promise<Viewer | null> {
  const signIns = new WeakMap<IncomingMessage, Promise<Viewer | null>>();
  return (req) => {
    let viewer = signIns.get(req);
    if (!viewer) {
      viewer = authenticate(req.headers.authorization);
      signIns.set(req, viewer);
    }
    return viewer;
  };
}

/** Which GraphQL endpoint a request is for, if any: those are served without Express. */
function graphQLEndpoint(url: string | undefined): 'http' | 'sse' | null {
  const path = (url ?? '').split('?', 1)[0];
  if (path === '/graphql' || path === '/graphql/') return 'http';
  return path === GRAPHQL_SSE_PATH ? 'sse' : null;
}

/**
 * Apollo Server over HTTP and graphql-ws over WebSocket, both at `/graphql`, and graphql-sse at
 * `/graphql/stream`; Express serves the rest (health, metrics, the capabilities' routes, the built client).
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { schema, development, authenticate, createContext } = options;
  const corsOrigins = options.corsOrigins ?? [];
  // Requests are routed once Apollo Server has started, before the server listens.
  const httpServer = createServer();
  const refusedOrigin = corsRefusalLog(logger);
  const webSocket = serveGraphQLOverWebSocket(httpServer, {
    schema,
    development,
    corsOrigins,
    authenticate,
    createContext,
    onOriginRefused: (origin) => refusedOrigin(origin, 'WebSocket'),
    watchKeyRevocations: options.watchKeyRevocations,
    throttle: options.throttle,
  });
  const sse = serveGraphQLOverSse({ schema, development, authenticate, createContext, watchKeyRevocations: options.watchKeyRevocations });
  const apollo = await startApollo({
    schema,
    development,
    httpServer,
    onDrain: async () => {
      sse.dispose();
      await webSocket.dispose();
    },
  });

  const signIn = signInOncePerRequest(authenticate);
  const serveGraphQL = graphqlOverHttp(apollo, async (req) => {
    const requestId = requestIdOf(req);
    const viewer = await signIn(req).catch((error: unknown) => {
      // Apollo Server runs no plugin for a context that fails: its error is logged here.
      requestLog(req, logger).error({ err: error }, 'Unexpected error authenticating a GraphQL request');
      throw new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR', requestId, http: { status: 500 } } });
    });
    if (!viewer) throw unauthenticatedError();
    // The context itself, not a copy: `refreshLoaders` replaces the loaders of the object it made.
    return Object.assign(createContext(viewer), { requestId, request: req });
  }, directExecution({ schema, development, logger }));
  const app = express();
  app.disable('x-powered-by');
  const logRequest = requestLogger(logger);
  const applyCors = corsHandler(corsOrigins, (origin) => refusedOrigin(origin, 'HTTP'));
  const { throttle } = options;
  const route = (req: IncomingMessage, res: ServerResponse) => {
    const endpoint = graphQLEndpoint(req.url);
    if (endpoint === 'http') void serveGraphQL(req, res);
    else if (endpoint === 'sse') void sse.serve(req, res);
    else app(req, res);
  };
  httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    applyBaseSecurityHeaders(res);
    measureRequest(req, res);
    logRequest(req, res);
    applyCors(req, res, () => {
      if (!throttle) return route(req, res);
      passesThrottle(req, res, throttle, signIn).then(
        (passes) => passes && route(req, res),
        (error: unknown) => {
          requestLog(req, logger).error({ err: error }, 'Unexpected error throttling a request');
          const body = JSON.stringify({ errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: requestIdOf(req) } }] });
          res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(body);
        },
      );
    });
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/metrics', metricsRoute(options.metricsToken));
  // Pages of the client and GraphiQL; the API's own answers are data, never a page.
  app.use((req, res, next) => {
    if (req.method === 'GET' && !KEYED_PATHS.test(req.path)) res.setHeader('content-security-policy', clientContentSecurityPolicy(req));
    next();
  });
  serveGraphiQL(app, options.clientDist);
  app.get('/readyz', async (_req, res) => {
    const report = await options.readiness();
    res.status(report.ready ? 200 : 503).json(report);
  });
  options.mountRoutes(app);
  if (existsSync(path.join(options.clientDist, 'index.html'))) serveClient(app, options.clientDist);
  app.use(notFound(options.clientDist));
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

/**
 * Anything else is 404: in JSON (an OAuth discovery probe of /.well-known/... must not read the
 * web page as its metadata), or for a browser navigating there, the web client's "Page not found".
 */
function notFound(clientDist: string): express.RequestHandler {
  const page = path.join(clientDist, 'index.html');
  return (req, res) => {
    res.status(404);
    if (req.method === 'GET' && req.accepts(['json', 'html']) === 'html' && existsSync(page)) res.sendFile(page);
    else res.json({ errors: [{ message: `Nothing is served at ${req.path}.`, extensions: { code: 'NOT_FOUND' } }] });
  };
}

/** The web client's own routes (see client/src/app/App.tsx): only these fall back to index.html. */
const CLIENT_ROUTES = [/^\/$/, /^\/sessions\/[^/]+\/?$/, /^\/continuations\/[^/]+\/?$/, /^\/account\/?$/, /^\/keys\/?$/];

/** The built client, with its client-side routes (e.g. /sessions/<id>) falling back to index.html. */
function serveClient(app: express.Express, clientDist: string): void {
  app.use(express.static(clientDist, { index: 'index.html' }));
  app.use((req, res, next) => {
    if (req.method !== 'GET' || !CLIENT_ROUTES.some((route) => route.test(req.path)) || !req.accepts('html')) return next();
    res.sendFile(path.join(clientDist, 'index.html'));
  });
}
