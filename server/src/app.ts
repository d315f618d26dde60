import { AppConfig } from './config';
import { Database, openDatabase } from './platform/db/database';
import { buildAppSchema } from './api/schema';
import { Services } from './api/context';
import { CountingEventTarget, createAppPubSub, crossProcessCodec, pubSubNotifier } from './api/pubsub';
import { DEFAULT_RECONNECT_OPTIONS, PostgresEventTarget } from './platform/pubsub/postgres-event-target';
import { RedisEventTarget } from './platform/pubsub/redis-event-target';
import { publishedRecords } from './modules/conversation/delivery.repository';
import { readinessReport } from './platform/http/readiness';
import { RunningHttpServer, startHttpServer } from './platform/http/server';
import { AccountService, BootstrapKey } from './modules/accounts/accounts.service';
import { ContinuationService } from './modules/continuation/continuations.service';
import { DEFAULT_APPROVAL_SETTINGS, ProposalService } from './modules/continuation/approval/proposals.service';
import { LineageService } from './modules/continuation/lineage/lineage.service';
import { PlanService } from './modules/plans/plans.service';
import { ResourceService } from './modules/resources/resources.service';
import { SessionService } from './modules/conversation/sessions.service';
import { TranscriptService } from './modules/conversation/transcript.service';
import { RunService } from './modules/conversation/runs.service';
import { SearchService } from './modules/search/search.service';
import { RecommendationService } from './modules/continuation/assisted/recommendations.service';
import { AttachmentService } from './modules/attachments/attachments.service';
import { DEFAULT_ATTACHMENT_MAX_BYTES } from './modules/attachments/attachments';
import { DatabaseAttachmentStorage } from './modules/attachments/storage/database-storage';
import { S3AttachmentStorage } from './modules/attachments/storage/s3-storage';
import { ChangeNotifier } from './modules/conversation/notifications';
import { ModelProvider } from './agent/agent';
import { BuiltinAgent } from './agent/providers/builtin-agent';
import { OpenAIProvider } from './agent/providers/openai-provider';
import { RecallTools } from './agent/tools';
import { TurnRunner } from './agent/turn';
import { AgentWorker } from './agent/worker';
import { createLogger, useLogger } from './platform/observability/logger';
import { metrics, watchPool } from './platform/observability/metrics';
import type { Pool } from 'pg';

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
  /** Graceful stop: no new connections, in-flight requests finish, then sockets and the database close. */
  close(): Promise<void>;
}

/**
 * Opens the database (migrating it), makes sure the bootstrap key exists and starts serving.
 * @throws DatabaseStartError when the database is unreachable or a migration fails.
 */
export async function startApp(config: AppConfig): Promise<RunningApp> {
  useLogger(createLogger({ level: config.logLevel ?? 'info', pretty: config.development, destination: config.logDestination }));
  const database = await openDatabase(config);
  let crossProcess: PostgresEventTarget | RedisEventTarget | null = null;
  let s3Storage: S3AttachmentStorage | null = null;
  try {
    const { dataSource } = database;
    // One process embedded, or many: then publishes cross processes through Redis, or else LISTEN/NOTIFY.
    if (config.redisUrl) {
      crossProcess = await RedisEventTarget.connect(config.redisUrl, crossProcessCodec(publishedRecords(dataSource.manager)));
    } else if (config.databaseUrl) {
      crossProcess = await PostgresEventTarget.connect(config.databaseUrl, crossProcessCodec(publishedRecords(dataSource.manager)), {
        initialDelayMs: config.pubSubReconnectMs ?? DEFAULT_RECONNECT_OPTIONS.initialDelayMs,
      });
    }
    const subscriptions = crossProcess ?? new CountingEventTarget();
    const pubSub = createAppPubSub(subscriptions);
    const published = pubSubNotifier(pubSub);
    let worker: AgentWorker | null = null;
    // Runs queued here are picked up at once by this process's worker; other processes poll.
    const notifier: ChangeNotifier = {
      ...published,
      runsChanged(runs) {
        for (const run of runs) metrics.runs.inc({ status: run.status });
        published.runsChanged(runs);
        worker?.runsChanged(runs);
      },
    };
    const agent = config.agent;
    const databaseStorage = new DatabaseAttachmentStorage(dataSource);
    s3Storage = config.s3 ? new S3AttachmentStorage(config.s3) : null;
    const attachments = new AttachmentService(dataSource, s3Storage ?? databaseStorage, databaseStorage, config.attachmentMaxBytes ?? DEFAULT_ATTACHMENT_MAX_BYTES);
    const continuations = new ContinuationService(dataSource, notifier, attachments, config.continuationPolicy);
    const approval = config.approval ?? DEFAULT_APPROVAL_SETTINGS;
    const proposals = new ProposalService(dataSource, notifier, continuations, agent.provider !== 'none', approval);
    const services: Services = {
      accounts: new AccountService(dataSource),
      sessions: new SessionService(dataSource, approval.defaultApproval),
      transcript: new TranscriptService(dataSource, notifier, continuations, agent.provider !== 'none'),
      continuations,
      lineage: new LineageService(dataSource),
      plans: new PlanService(dataSource),
      resources: new ResourceService(dataSource),
      runs: new RunService(dataSource, notifier, agent),
      search: new SearchService(dataSource),
      recommendations: new RecommendationService(dataSource),
      proposals,
      attachments,
    };
    const bootstrapKey = await services.accounts.ensureBootstrapKey(config.bootstrapApiKey, config.dataDir);
    const schema = await buildAppSchema(pubSub);
    const provider = timed(modelProvider(config));
    if (provider) {
      const runner = new TurnRunner(dataSource, notifier, continuations, proposals, new RecallTools(services), attachments, provider, schema, {
        windowTokens: agent.windowTokens,
        threshold: agent.continuationThreshold,
        maxSteps: agent.maxSteps,
      });
      worker = new AgentWorker(dataSource, notifier, runner, agent);
    }
    const delivery = crossProcess;
    // TypeORM's postgres driver keeps its pg pool as `master`.
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const unwatchPool = watchPool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
    const http = await startHttpServer({ ...config, schema, services, pubSub, readiness: () => readinessReport(dataSource, delivery) });
    worker?.start();
    proposals.startExpirySweeps();
    return {
      url: http.url,
      bootstrapKey,
      database,
      http,
      subscriptions,
      worker,
      async close() {
        await proposals.stopExpirySweeps();
        await worker?.stop();
        await http.close();
        await crossProcess?.close();
        s3Storage?.close();
        unwatchPool();
        await database.close();
      },
    };
  } catch (error) {
    await crossProcess?.close();
    s3Storage?.close();
    await database.close();
    throw error;
  }
}

/** The provider with each call's duration and outcome measured. */
function timed(provider: ModelProvider | null): ModelProvider | null {
  if (!provider) return null;
  return {
    name: provider.name,
    readsAttachments: provider.readsAttachments,
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

function modelProvider(config: AppConfig): ModelProvider | null {
  switch (config.agent.provider) {
    case 'builtin':
      return new BuiltinAgent();
    case 'openai':
      return new OpenAIProvider(config.agent.openai);
    default:
      return null;
  }
}
