// The decorators of every module's GraphQL types read metadata as their files load.
import 'reflect-metadata';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { AppConfig, requireCrossProcessDelivery } from './config';
import { Services, createContext } from './api/context';
import { appPayloadCodec, AppPubSub, createAppPubSub, pubSubNotifier } from './api/pubsub';
import { buildAppSchema } from './api/schema';
import { SessionReach } from './api/session-reach';
import { ModelProvider } from './agent/agent';
import { BuiltinAgent } from './agent/providers/builtin-agent';
import { RecallTools } from './agent/tools';
import { TurnRunner } from './agent/turn/turn-runner';
import { AgentWorker } from './agent/worker';
import { mcpRoute } from './mcp/route';
import { AccountService, BootstrapKey } from './modules/accounts/accounts.service';
import { ApiKeyService } from './modules/accounts/api-keys.service';
import { sessionOrigins } from './modules/conversation/session-reach.repository';
import { DEFAULT_ATTACHMENT_MAX_BYTES } from './modules/attachments/attachments';
import { attachmentsRouter } from './modules/attachments/attachments.route';
import { AttachmentService } from './modules/attachments/attachments.service';
import { DatabaseAttachmentStorage } from './modules/attachments/storage/database-storage';
import type { S3AttachmentStorage } from './modules/attachments/storage/s3-storage';
import { DEFAULT_APPROVAL_SETTINGS, ProposalService } from './modules/continuation/proposals.service';
import { RecommendationService } from './modules/continuation/assisted/recommendations.service';
import { ContinuationService } from './modules/continuation/continuations.service';
import { continuationLockStatements } from './modules/continuation/continuation.repository';
import { LineageService } from './modules/continuation/lineage/lineage.service';
import { currentContinuation } from './modules/continuation/lineage/lineage.repository';
import { WritableSessions } from './modules/conversation/writable-sessions.service';
import type { ContinuationNotifier } from './modules/continuation/notifications';
import { RunService } from './modules/conversation/runs.service';
import { SessionService } from './modules/conversation/sessions.service';
import { TranscriptService } from './modules/conversation/transcript.service';
import { entities } from './modules/entities';
import { PlanService } from './modules/plans/plans.service';
import { ResourceService } from './modules/resources/resources.service';
import { SearchService } from './modules/search/search.service';
import { Database, openDatabase, openReplica } from './platform/db/database';
import { HistoryReads, primaryReads, ReplicaReads } from './platform/db/history-reads';
import { recordMutationWrites } from './api/read-your-writes';
import { ErasureService } from './modules/lifecycle/erasure/erasure.service';
import { RetentionService } from './modules/lifecycle/retention/retention.service';
import { DEFAULT_RETENTION_SETTINGS } from './modules/lifecycle/retention/retention';
import { DEFAULT_IMPORT_MAX_BYTES } from './modules/lifecycle/portability/bundle';
import { ExportService } from './modules/lifecycle/portability/export.service';
import { ImportService } from './modules/lifecycle/portability/import.service';
import { portabilityRouter } from './modules/lifecycle/portability/portability.route';
import { WebhookDeliveryWorker } from './modules/webhooks/webhook-delivery.service';
import { WebhookDeliveryPruning } from './modules/webhooks/webhook-pruning.service';
import { WebhookService } from './modules/webhooks/webhooks.service';
import { DEFAULT_WEBHOOK_SETTINGS } from './modules/webhooks/webhooks';
import { bearerKey } from './platform/http/bearer';
import { readinessReport } from './platform/http/readiness';
import { RunningHttpServer, startHttpServer } from './platform/http/server';
import { DEFAULT_RATE_LIMITS, RateLimits, RequestThrottle } from './platform/http/rate-limits';
import { createLogger, logger, useLogger } from './platform/observability/logger';
import { metrics, watchPool } from './platform/observability/metrics';
import { CountingEventTarget } from './platform/pubsub/counting-event-target';
import { DEFAULT_RECONNECT_OPTIONS, PostgresEventTarget } from './platform/pubsub/postgres-event-target';
import { RedisEventTarget } from './platform/pubsub/redis-event-target';

export interface RunningApp {
  /** Base URL, e.g. http://127.0.0.1:4000 */
  url: string;
  bootstrapKey: BootstrapKey;
  database: Database;
  http: RunningHttpServer;
  /** Listener counts of the in-process pub/sub: lets a client know a subscription is in place. */
  subscriptions: CountingEventTarget;
  /** Executes this process's share of the agent's runs; null when no agent is configured. */
  worker: AgentWorker | null;
  /** This process's webhook delivery worker. */
  webhooks: WebhookDeliveryWorker;
  /** This process's pruning of ended webhook deliveries: `pruneOnce` steps it. */
  webhookPruning: WebhookDeliveryPruning;
  /** This process's retention sweep: `sweepOnce` steps it. */
  retention: RetentionService;
  /** Graceful stop: no new connections, in-flight requests finish, then sockets and the database close. */
  close(): Promise<void>;
}

/**
 * Opens the database (migrating it), makes sure the bootstrap key exists and starts serving.
 * @throws DatabaseStartError when the database is unreachable or a migration fails.
 */
export async function startApp(config: AppConfig): Promise<RunningApp> {
  useLogger(createLogger({ level: config.logLevel ?? 'info', pretty: config.development, destination: config.logDestination }));
  const database = await openDatabase({ ...config, entities, preparedForWrites: continuationLockStatements });
  let crossProcess: PostgresEventTarget | RedisEventTarget | null = null;
  let s3Storage: S3AttachmentStorage | null = null;
  let history: { reads: HistoryReads; close(): Promise<void> } | null = null;
  let rateLimits: RateLimits | null = null;
  try {
    const { dataSource } = database;
    history = await openHistoryReads(config, database);
    const { reads } = history;
    if (database.poolMode === 'transaction') {
      if (!config.databasePoolMode) logger.info('DATABASE_URL goes through a transaction pooler: statements go unnamed, nothing outlives a transaction');
      requireCrossProcessDelivery(config.redisUrl, config.databaseListenUrl);
    }
    crossProcess = await connectCrossProcess(config, dataSource);
    const subscriptions = crossProcess ?? new CountingEventTarget();
    const pubSub = createAppPubSub(subscriptions);
    let worker: AgentWorker | null = null;
    const webhooks = new WebhookDeliveryWorker(dataSource, config.webhooks ?? DEFAULT_WEBHOOK_SETTINGS);
    const webhookPruning = new WebhookDeliveryPruning(dataSource, config.webhooks ?? DEFAULT_WEBHOOK_SETTINGS, config.clock);
    const notifier = measuredNotifier(pubSub, (runs) => worker?.runsChanged(runs), config.databaseReplicaUrl ? reads : null, () => webhooks.wake());
    s3Storage = config.s3 ? s3AttachmentStorage(config.s3) : null;
    const services = buildServices(config, dataSource, notifier, s3Storage, reads, pubSub, () => webhooks.wake());
    services.apiKeys.watchRevocations();
    const bootstrapKey = await services.accounts.ensureBootstrapKey(config.bootstrapApiKey, config.dataDir);
    const sessionReach = new SessionReach(dataSource);
    const built = await buildAppSchema(pubSub);
    const schema = config.databaseReplicaUrl ? recordMutationWrites(built, (accountId) => reads.wrote(accountId)) : built;
    const provider = timed(modelProvider(config));
    if (provider) {
      const { agent } = config;
      const runner = new TurnRunner(dataSource, notifier, services.continuations, services.proposals, new RecallTools(services), services.attachments, provider, schema, {
        windowTokens: agent.windowTokens,
        threshold: agent.continuationThreshold,
        maxOutputTokens: agent.maxOutputTokens,
        maxSteps: agent.maxSteps,
      });
      worker = new AgentWorker(dataSource, notifier, runner, agent);
    }
    const delivery = crossProcess;
    const { pools } = database;
    const sum = (count: (pool: Pool) => number) => pools.reduce((total, pool) => total + count(pool), 0);
    const unwatchPool = watchPool(() => ({ total: sum((pool) => pool.totalCount), idle: sum((pool) => pool.idleCount), waiting: sum((pool) => pool.waitingCount) }));
    const authenticate = (authorization: unknown) => services.apiKeys.authenticate(bearerKey(authorization));
    rateLimits = RateLimits.create(config.rateLimits ?? DEFAULT_RATE_LIMITS, config.redisUrl);
    const http = await startHttpServer({
      ...config,
      schema,
      authenticate,
      createContext: (viewer) => createContext(viewer, services, pubSub, sessionReach),
      watchKeyRevocations: (listener) => services.apiKeys.onRevoked(listener),
      throttle: new RequestThrottle(rateLimits, config.trustedProxies ?? 0),
      mountRoutes(app) {
        app.all('/mcp', mcpRoute({ services, schema, authenticate, reaches: (viewer, thing, id) => sessionReach.reaches(viewer, thing, id), corsOrigins: config.corsOrigins ?? [], listenHost: config.host, wrote: (accountId) => reads.wrote(accountId) }));
        app.use(attachmentsRouter({ attachments: services.attachments, authenticate }));
        app.use(portabilityRouter({ authenticate, reaches: (viewer, sessionId) => sessionReach.reaches(viewer, 'session', sessionId), exports: services.exports, imports: services.imports, importMaxBytes: config.importMaxBytes ?? DEFAULT_IMPORT_MAX_BYTES, wrote: (accountId) => reads.wrote(accountId) }));
      },
      readiness: () => readinessReport(dataSource, delivery, () => reads.replicaState()),
    });
    worker?.start();
    webhooks.start();
    webhookPruning.start();
    services.proposals.startExpirySweeps();
    services.retention.startSweeps();
    return {
      url: http.url,
      bootstrapKey,
      database,
      http,
      subscriptions,
      worker,
      webhooks,
      webhookPruning,
      retention: services.retention,
      async close() {
        await services.retention.stopSweeps();
        await services.apiKeys.stopWatchingRevocations();
        await services.proposals.stopExpirySweeps();
        await worker?.stop();
        await webhooks.stop();
        await webhookPruning.stop();
        await http.close();
        await rateLimits?.close();
        await crossProcess?.close();
        s3Storage?.close();
        unwatchPool();
        await history?.close();
        await database.close();
      },
    };
  } catch (error) {
    await rateLimits?.close();
    await crossProcess?.close();
    s3Storage?.close();
    await history?.close();
    await database.close();
    throw error;
  }
}

/** One process embedded, or many: then publishes cross processes through Redis, or else LISTEN/NOTIFY. */
async function connectCrossProcess(config: AppConfig, dataSource: DataSource): Promise<PostgresEventTarget | RedisEventTarget | null> {
  const codec = appPayloadCodec(dataSource.manager);
  if (config.redisUrl) return RedisEventTarget.connect(config.redisUrl, codec);
  // LISTEN needs a connection of its own, past any transaction pooler.
  const listenUrl = config.databaseListenUrl ?? config.databaseUrl;
  if (listenUrl) {
    return PostgresEventTarget.connect(listenUrl, codec, { initialDelayMs: config.pubSubReconnectMs ?? DEFAULT_RECONNECT_OPTIONS.initialDelayMs });
  }
  return null;
}

/** With DATABASE_REPLICA_URL, history reads go to the replica once it has the account's writes; else to the primary. */
async function openHistoryReads(config: AppConfig, database: Database): Promise<{ reads: HistoryReads; close(): Promise<void> }> {
  if (!config.databaseReplicaUrl || !config.redisUrl) return { reads: primaryReads(database.dataSource), close: async () => undefined };
  const replica = await openReplica({ ...config, entities, replicaUrl: config.databaseReplicaUrl });
  try {
    const reads = await ReplicaReads.connect(database.dataSource, replica, config.redisUrl);
    return { reads, close: () => reads.close().then(() => replica.destroy()) };
  } catch (error) {
    await replica.destroy();
    throw error;
  }
}

/**
 * The notifier services announce to: every change published, runs counted, and runs queued here
 * handed to this process's worker at once (other processes poll). With a replica, writes of
 * events and continuations (the agent's too) are recorded for read-your-writes. Every change may
 * have queued webhook deliveries: this process's delivery worker looks at once.
 */
function measuredNotifier(
  pubSub: AppPubSub,
  runsQueuedHere: (runs: Parameters<ContinuationNotifier['runsChanged']>[0]) => void,
  history: HistoryReads | null,
  deliveriesMayBeDue: () => void,
): ContinuationNotifier {
  const published = wakingOnEveryChange(pubSubNotifier(pubSub), deliveriesMayBeDue);
  const wrote = (accountId: string | undefined) => {
    if (history && accountId) history.wrote(accountId).catch((error) => logger.warn({ err: error }, 'Recording a write position failed'));
  };
  return {
    ...published,
    eventsAppended(events) {
      published.eventsAppended(events);
      wrote(events[0]?.accountId);
    },
    sessionContinued(edge) {
      published.sessionContinued(edge);
      wrote(edge.accountId);
    },
    runsChanged(runs) {
      for (const run of runs) metrics.runs.inc({ status: run.status });
      published.runsChanged(runs);
      runsQueuedHere(runs);
    },
  };
}

/** The notifier, calling `wake` after each announcement of a change that may have queued deliveries. */
function wakingOnEveryChange(notifier: ContinuationNotifier, wake: () => void): ContinuationNotifier {
  return {
    ...notifier,
    eventsAppended: (events) => (notifier.eventsAppended(events), wake()),
    runsChanged: (runs) => (notifier.runsChanged(runs), wake()),
    sessionContinued: (edge) => (notifier.sessionContinued(edge), wake()),
    proposalsChanged: (proposals) => (notifier.proposalsChanged(proposals), wake()),
  };
}

/** Every module's services, wired: the one place that knows them all. */
function buildServices(
  config: AppConfig,
  dataSource: DataSource,
  notifier: ContinuationNotifier,
  s3Storage: S3AttachmentStorage | null,
  history: HistoryReads,
  pubSub: AppPubSub,
  deliveryDue: () => void,
): Services {
  const { agent } = config;
  const agentAnswers = agent.provider !== 'none';
  const databaseStorage = new DatabaseAttachmentStorage(dataSource);
  const attachments = new AttachmentService(dataSource, s3Storage ?? databaseStorage, databaseStorage, config.attachmentMaxBytes ?? DEFAULT_ATTACHMENT_MAX_BYTES);
  const continuations = new ContinuationService(dataSource, notifier, attachments, config.continuationPolicy);
  const approval = config.approval ?? DEFAULT_APPROVAL_SETTINGS;
  const lineage = new LineageService(dataSource, history);
  const writable = new WritableSessions(currentContinuation);
  const clock = config.clock ?? (() => new Date());
  const erasures = new ErasureService(dataSource, notifier, attachments, clock);
  return {
    accounts: new AccountService(dataSource),
    apiKeys: new ApiKeyService(dataSource, pubSub, sessionOrigins, clock),
    sessions: new SessionService(dataSource, approval.defaultApproval),
    transcript: new TranscriptService(dataSource, notifier, continuations, writable, agentAnswers, history),
    continuations,
    lineage,
    recalls: lineage,
    plans: new PlanService(dataSource, writable),
    resources: new ResourceService(dataSource),
    runs: new RunService(dataSource, notifier, writable, agent),
    search: new SearchService(dataSource, history),
    recommendations: new RecommendationService(dataSource),
    proposals: new ProposalService(dataSource, notifier, continuations, agentAnswers, approval),
    attachments,
    erasures,
    retention: new RetentionService(dataSource, erasures, config.retention ?? DEFAULT_RETENTION_SETTINGS, clock),
    exports: new ExportService(dataSource, attachments, clock),
    imports: new ImportService(dataSource, attachments, clock),
    webhooks: new WebhookService(dataSource, config.webhooks ?? DEFAULT_WEBHOOK_SETTINGS, deliveryDue),
  };
}

/** The provider with each call's duration and outcome measured. */
function timed(provider: ModelProvider | null): ModelProvider | null {
  if (!provider) return null;
  return {
    name: provider.name,
    readsAttachments: provider.readsAttachments,
    continuesAtThreshold: provider.continuesAtThreshold,
    async complete(request) {
      const end = metrics.modelCalls.startTimer({ provider: provider.name });
      try {
        const reply = await provider.complete(request);
        end({ outcome: 'ok' });
        return reply;
      } catch (error) {
        end({ outcome: 'error' });
        throw error;
      }
    },
  };
}

/** Required here rather than imported: a server storing attachments in its database never loads the S3 client. */
function s3AttachmentStorage(options: NonNullable<AppConfig['s3']>): S3AttachmentStorage {
  const { S3AttachmentStorage } = require('./modules/attachments/storage/s3-storage') as typeof import('./modules/attachments/storage/s3-storage');
  return new S3AttachmentStorage(options);
}

function modelProvider(config: AppConfig): ModelProvider | null {
  switch (config.agent.provider) {
    case 'builtin':
      return new BuiltinAgent();
    case 'openai': {
      // Required here rather than imported: a server without a model provider never loads its client.
      const { OpenAIProvider } = require('./agent/providers/openai-provider') as typeof import('./agent/providers/openai-provider');
      return new OpenAIProvider(config.agent.openai);
    }
    default:
      return null;
  }
}
