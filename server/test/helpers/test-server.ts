import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RunningApp, startApp } from '../../src/app';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/modules/webhooks/webhooks';
import { AppConfig, DEFAULT_AGENT_CONFIG } from '../../src/config';
import { DEFAULT_CONTINUATION_POLICY } from '../../src/modules/continuation/continuations.service';
import { isolatedServerDatabase, TEST_EMBEDDED_BUFFER_MB, testPoolMode, testServerDatabase } from '../setup/test-database';
import { GraphQLTestClient } from './graphql-client';

export interface TestServer {
  app: RunningApp;
  url: string;
  /** A client with the admin (bootstrap) key. */
  admin: GraphQLTestClient;
  /** A client for a new, non-admin account. */
  newAccount(name?: string): Promise<GraphQLTestClient>;
  /** The server's log lines so far (warn and above unless the test chose a level). */
  logLines(): string[];
  /**
   * Waits until the database has seen no new query for 300 ms, and returns the count then: what
   * earlier requests left running in the background (a key's last use written, a socket's
   * subscriptions ended) is not counted as the next request's.
   */
  settledQueryCount(): Promise<number>;
  /** Stops the server and starts it again on the same database and port, as after a restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Behind a transaction pooler (DATABASE_POOLER_URL), servers deliver across processes through Redis. */
function poolerSettings(): Partial<AppConfig> {
  const databasePoolMode = testPoolMode();
  return databasePoolMode ? { databasePoolMode, redisUrl: testRedisUrl() } : {};
}

/** The Redis the tests use: TEST_REDIS_URL, or the machine's own. */
export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** The real server on a free port: on the run's PostgreSQL database, or on its own embedded copy. */
export async function startTestServer(overrides: Partial<AppConfig> = {}): Promise<TestServer> {
  const runsAgent = overrides.agent !== undefined && overrides.agent.provider !== 'none';
  // Workers claim any queued run or webhook delivery of their database: theirs must be their own.
  const { drop, ...database } = runsAgent || overrides.webhooks ? await isolatedServerDatabase() : await testServerDatabase();
  // Kept in memory, not printed: a test that injects a fault expects its error lines, and a green
  // run stays quiet. TEST_LOG=1 prints them too.
  const logged: string[] = [];
  const logDestination = {
    write(line: string) {
      logged.push(line);
      if (process.env.TEST_LOG) process.stdout.write(line);
    },
  };
  const config: AppConfig = {
    host: '127.0.0.1',
    port: 0,
    ...database,
    embeddedBufferMb: TEST_EMBEDDED_BUFFER_MB,
    bootstrapApiKey: `sck_test_${randomBytes(16).toString('hex')}`,
    development: false,
    clientDist: path.join(tmpdir(), 'no-client-build'),
    poolSize: 5,
    continuationPolicy: DEFAULT_CONTINUATION_POLICY,
    // No agent unless a test asks for one: most suites check the API itself, message by message.
    agent: { ...DEFAULT_AGENT_CONFIG, provider: 'none' },
    // No webhook deliveries unless a test asks for them: a worker would claim any of its
    // database's, and its polls would count among a request's queries.
    webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, concurrency: 0 },
    // A line per request would bury a failing test's own output.
    logLevel: 'warn',
    logDestination,
    // Suites that try many wrong keys from one address would meet the limits; their own suite turns them on.
    rateLimits: { signInFailures: 0, signInWindowSeconds: 60, keyRequests: 0, keyWindowSeconds: 60 },
    ...poolerSettings(),
    ...overrides,
  };
  // A server that fails to start, or to stop, still leaves no data folder behind: they are tens of
  // megabytes each, in memory where the run keeps its scratch files.
  let app = await startApp(config).catch(async (error: unknown) => {
    await drop();
    throw error;
  });
  const admin = new GraphQLTestClient(app.url, app.bootstrapKey.apiKey);
  return {
    get app() {
      return app;
    },
    url: app.url,
    admin,
    logLines: () => logged,
    async settledQueryCount() {
      let seen = -1;
      while (seen !== app.database.queryCount()) {
        seen = app.database.queryCount();
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return seen;
    },
    async newAccount(name = 'tester') {
      const data = await admin.data<{ createAccount: { apiKey: string } }>(
        'mutation ($name: String!) { createAccount(name: $name) { apiKey } }',
        { name },
      );
      return new GraphQLTestClient(app.url, data.createAccount.apiKey);
    },
    async restart() {
      await app.close();
      app = await startApp({ ...config, port: Number(new URL(app.url).port) });
    },
    async close() {
      try {
        await app.close();
      } finally {
        await drop();
      }
    },
  };
}
