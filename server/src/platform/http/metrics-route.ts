import { timingSafeEqual } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestHandler } from 'express';
import type { GraphQLFormattedError, OperationDefinitionNode } from 'graphql';
import { bearerKey } from './bearer';
import { metrics, metricsRegistry, operationNameLabel } from '../observability/metrics';

/** Routes as labels: a fixed set, so that a crawler's paths add no series. */
const ROUTES = new Set(['/graphql', '/metrics', '/healthz', '/readyz', '/graphiql', '/attachments']);

function routeLabel(url: string | undefined): string {
  const path = (url ?? '').split('?', 1)[0].replace(/\/$/, '') || '/';
  const route = path.startsWith('/attachments/') ? '/attachments' : path;
  return ROUTES.has(route) ? route : 'other';
}

/** Measures an HTTP request from its arrival to its response's last byte. */
export function measureRequest(req: IncomingMessage, res: ServerResponse): void {
  const end = metrics.httpRequests.startTimer();
  res.once('finish', () => end({ method: req.method, route: routeLabel(req.url), status: res.statusCode }));
}

function sameToken(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `GET /metrics` in Prometheus text format; with a token, only for requests bearing it. */
export function metricsRoute(token: string | undefined): RequestHandler {
  return async (req, res) => {
    if (token !== undefined && !sameToken(bearerKey(req.headers.authorization), token)) {
      res.status(401).set('www-authenticate', 'Bearer').json({ errors: [{ message: 'Send "Authorization: Bearer <METRICS_TOKEN>".', extensions: { code: 'UNAUTHENTICATED' } }] });
      return;
    }
    res.set('content-type', metricsRegistry.contentType).send(await metricsRegistry.metrics());
  };
}

/** Times a GraphQL operation over HTTP; the returned function records it, once, at its end. */
export function timeOperation(): (operation: OperationDefinitionNode | null | undefined, errors: readonly GraphQLFormattedError[] | undefined) => void {
  const end = metrics.graphqlOperations.startTimer();
  return (operation, errors) => {
    const outcome = !errors?.length ? 'ok' : errors.some((error) => error.extensions?.code === 'INTERNAL_SERVER_ERROR') ? 'internal_error' : 'error';
    end({ operation_name: operationNameLabel(operation?.name?.value ?? null), operation_type: operation?.operation ?? 'none', outcome });
  };
}

/** Each GraphQL operation Apollo Server runs over HTTP, timed once at its end: no per-field hooks. */
export function operationMetrics<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      const recordOperation = timeOperation();
      return {
        async willSendResponse({ response, operation }) {
          recordOperation(operation, response.body.kind === 'single' ? response.body.singleResult.errors : undefined);
        },
      };
    },
  };
}
