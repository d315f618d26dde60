import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's metrics, served at `/metrics`. One registry per process, as Prometheus scrapes
 * processes; the default metrics include event-loop lag, memory, GC and open handles.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const registers = [metricsRegistry];
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Pool statistics of each open database, summed: tests run several servers in one process. */
const pools = new Set<() => PoolUse>();

export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

export const metrics = {
  httpRequests: new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route and status, with their duration.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  }),
  graphqlOperations: new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operations over HTTP by operation name, type and outcome (ok, error, internal_error), with their duration.',
    labelNames: ['operation_name', 'operation_type', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  }),
  continuations: new Counter({
    name: 'continuations_total',
    help: 'continueSession calls by reason and outcome: continued, replayed or the error code.',
    labelNames: ['reason', 'outcome'] as const,
    registers,
  }),
  runs: new Counter({
    name: 'agent_runs_total',
    help: 'Agent runs entering each status (queued, running, completed, failed, ...).',
    labelNames: ['status'] as const,
    registers,
  }),
  modelCalls: new Histogram({
    name: 'model_call_duration_seconds',
    help: 'Calls to the model by provider and outcome (ok, error), with their duration.',
    labelNames: ['provider', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers,
  }),
  webSocketConnections: new Gauge({
    name: 'websocket_connections',
    help: 'Open graphql-ws connections.',
    registers,
  }),
  activeSubscriptions: new Gauge({
    name: 'graphql_active_subscriptions',
    help: 'GraphQL subscriptions streaming over WebSocket now.',
    registers,
  }),
  subscriptionResults: new Counter({
    name: 'graphql_subscription_results_total',
    help: "Subscription results by how each subscriber got its own: executed (for it) or shared (executed once for another subscriber of the same event and selection, and serialised once).",
    labelNames: ['delivery'] as const,
    registers,
  }),
  pubSubDeliveries: new Counter({
    name: 'pubsub_deliveries_total',
    help: 'PostgreSQL pub/sub: publishes delivered to this process, by source: local (published here), remote (announced by another process) or catch_up (read back after a reconnect).',
    labelNames: ['source'] as const,
    registers,
  }),
  pubSubReconnects: new Counter({
    name: 'pubsub_reconnects_total',
    help: 'Times the LISTEN connection to PostgreSQL was opened again after it dropped.',
    registers,
  }),
  historyReads: new Counter({
    name: 'database_history_reads_total',
    help: 'Reads that a replica may serve (search, lineage, transcript pages), by where they ran: replica, primary_behind (the replica had not replayed the account\'s last write), primary_failed (the replica failed; read again on the primary).',
    labelNames: ['on'] as const,
    registers,
  }),
  webhookDeliveries: new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook deliveries that ended, by outcome: delivered (a 2xx answer) or failed (every retry spent).',
    labelNames: ['outcome'] as const,
    registers,
  }),
  webhookAttempts: new Histogram({
    name: 'webhook_attempt_duration_seconds',
    help: 'Webhook POSTs by outcome (delivered, error_status for a non-2xx answer, network_error for none), with their duration.',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  }),
  webhookQueueAge: new Gauge({
    name: 'webhook_queue_age_seconds',
    help: 'How long the oldest delivery claimed by the latest look at the queue had been due: 0 when the queue keeps up.',
    registers,
  }),
  webhookEndpointsDisabled: new Counter({
    name: 'webhook_endpoints_disabled_total',
    help: 'Webhook endpoints disabled after failing for too long.',
    registers,
  }),
  webhookDeliveriesPruned: new Counter({
    name: 'webhook_deliveries_pruned_total',
    help: 'Ended webhook deliveries deleted by this process for being older than WEBHOOK_DELIVERY_RETENTION_DAYS.',
    registers,
  }),
  databasePool: new Gauge({
    name: 'database_pool_connections',
    help: 'Database connections by state: total, idle, and clients waiting for one.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const use = [...pools].map((read) => read());
      for (const state of ['total', 'idle', 'waiting'] as const) {
        this.set({ state }, use.reduce((sum, pool) => sum + pool[state], 0));
      }
    },
  }),
};

/** Reports a database pool's use until the returned function is called. */
export function watchPool(read: () => PoolUse): () => void {
  pools.add(read);
  return () => pools.delete(read);
}

/** Operation names come from clients: past this many distinct ones, others count as `other`. */
const MAX_OPERATION_NAMES = 200;
const operationNames = new Set<string>();

/** A bounded label for a client's operation name. */
export function operationNameLabel(name: string | null | undefined): string {
  if (!name) return 'anonymous';
  if (operationNames.has(name)) return name;
  if (operationNames.size >= MAX_OPERATION_NAMES) return 'other';
  operationNames.add(name);
  return name;
}
