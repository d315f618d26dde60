import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface Tracing {
  /** Exports the spans still buffered, then stops tracing. */
  shutdown(): Promise<void>;
}

/** Tracing is on when the environment names where to send spans (the OpenTelemetry SDK's own variables). */
export function tracingEnabled(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== 'true';
}

/**
 * Starts OpenTelemetry tracing of HTTP requests, GraphQL operations and their resolvers, and SQL
 * statements, exported over OTLP as the `OTEL_*` variables say; `spanProcessors` replaces the
 * exporter. Returns undefined, having loaded none of OpenTelemetry, when tracing is off.
 *
 * It patches `http`, `graphql` and `pg` as they are loaded: call it before anything imports them.
 * Database spans are only recorded inside a traced request, so idle workers polling for runs send
 * nothing. Traces only: the metrics are `/metrics`', and logs go to standard output.
 */
export function startTracing(env: NodeJS.ProcessEnv, spanProcessors?: SpanProcessor[]): Tracing | undefined {
  if (!spanProcessors && !tracingEnabled(env)) return undefined;
  // Required here rather than imported so that with tracing off none of it is loaded.
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { GraphQLInstrumentation } = require('@opentelemetry/instrumentation-graphql') as typeof import('@opentelemetry/instrumentation-graphql');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'session-continuation',
    spanProcessors,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation(),
      // A span per resolver that does work; fields read off an object already loaded add none.
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  return sdk;
}
