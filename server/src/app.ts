import { AppConfig } from './config';
import { Database, openDatabase } from './db/database';
import { buildAppSchema } from './graphql/schema';
import { Services } from './graphql/context';
import { CountingEventTarget, createAppPubSub, pubSubNotifier } from './graphql/pubsub';
import { RunningHttpServer, startHttpServer } from './http/server';
import { AccountService, BootstrapKey } from './services/accounts.service';
import { ContinuationService } from './services/continuations.service';
import { LineageService } from './services/lineage.service';
import { PlanService } from './services/plans.service';
import { ResourceService } from './services/resources.service';
import { SessionService } from './services/sessions.service';
import { TranscriptService } from './services/transcript.service';

export interface RunningApp {
  /** Base URL, e.g. http://127.0.0.1:4000 */
  url: string;
  bootstrapKey: BootstrapKey;
  database: Database;
  http: RunningHttpServer;
  /** Listener counts of the in-process pub/sub: lets a client know a subscription is in place. */
  subscriptions: CountingEventTarget;
  /** Graceful stop: no new connections, in-flight requests finish, then sockets and the database close. */
  close(): Promise<void>;
}

/**
 * Opens the database (migrating it), makes sure the bootstrap key exists and starts serving.
 * @throws DatabaseStartError when the database is unreachable or a migration fails.
 */
export async function startApp(config: AppConfig): Promise<RunningApp> {
  const database = await openDatabase(config);
  try {
    const { dataSource } = database;
    const subscriptions = new CountingEventTarget();
    const pubSub = createAppPubSub(subscriptions);
    const notifier = pubSubNotifier(pubSub);
    const continuations = new ContinuationService(dataSource, notifier, config.continuationPolicy);
    const services: Services = {
      accounts: new AccountService(dataSource),
      sessions: new SessionService(dataSource),
      transcript: new TranscriptService(dataSource, notifier, continuations),
      continuations,
      lineage: new LineageService(dataSource),
      plans: new PlanService(dataSource),
      resources: new ResourceService(dataSource),
    };
    const bootstrapKey = await services.accounts.ensureBootstrapKey(config.bootstrapApiKey, config.dataDir);
    const http = await startHttpServer({ ...config, schema: await buildAppSchema(pubSub), services, pubSub });
    return {
      url: http.url,
      bootstrapKey,
      database,
      http,
      subscriptions,
      async close() {
        await http.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
