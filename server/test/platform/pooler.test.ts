import { Client } from 'pg';
import { ConfigError, configFromEnv, DEFAULT_AGENT_CONFIG } from '../../src/config';
import { openDatabase } from '../../src/platform/db/database';
import { entities } from '../../src/modules/entities';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { createSession, postMessage } from '../helpers/continuations';
import { exitOf, startServerProcess, waitForOutput } from '../helpers/server-process';
import { startTestServer, TestServer } from '../helpers/test-server';
import { directUrl, isolatedServerDatabase } from '../setup/test-database';

/**
 * Behind a transaction pooler (DATABASE_POOLER_URL: the run's PostgreSQL through PgBouncer in
 * `pool_mode = transaction`, as CI starts it), beside the same database reached directly.
 */
const behindPooler = process.env.TEST_DATABASE_URL && process.env.DATABASE_POOLER_URL ? describe : describe.skip;

describe('the scale-out settings', () => {
  const base = { DATABASE_URL: 'postgres://db.example:6432/app' };
  const refusal = (env: NodeJS.ProcessEnv) => {
    try {
      configFromEnv(env);
      return null;
    } catch (error) {
      return error instanceof ConfigError ? error.message : String(error);
    }
  };

  it('take a pool mode, a LISTEN connection and a replica, and check them against each other', () => {
    const config = configFromEnv({ ...base, DATABASE_POOL_MODE: 'Transaction', REDIS_URL: 'redis://r:6379', DATABASE_REPLICA_URL: 'postgres://replica:5432/app' });
    expect(config).toMatchObject({ databasePoolMode: 'transaction', databaseReplicaUrl: 'postgres://replica:5432/app' });
    expect(configFromEnv({ ...base, DATABASE_POOL_MODE: 'transaction', DATABASE_LISTEN_URL: 'postgres://db.example:5432/app' }).databaseListenUrl).toBe('postgres://db.example:5432/app');
    expect(configFromEnv(base).databasePoolMode).toBeUndefined();
    expect(refusal({ ...base, DATABASE_POOL_MODE: 'statement' })).toBe('DATABASE_POOL_MODE must be session or transaction (got "statement").');
    expect(refusal({ ...base, DATABASE_POOL_MODE: 'transaction' })).toContain('set REDIS_URL for cross-process delivery, or DATABASE_LISTEN_URL');
    expect(refusal({ ...base, DATABASE_REPLICA_URL: 'postgres://replica:5432/app' })).toContain('DATABASE_REPLICA_URL needs REDIS_URL');
    expect(refusal({ DATABASE_REPLICA_URL: 'postgres://replica:5432/app' })).toContain('DATABASE_REPLICA_URL is set without DATABASE_URL');
  });
});

behindPooler('a server behind a transaction pooler', () => {
  const poolerUrl = () => process.env.TEST_DATABASE_URL!;

  it('finds out that DATABASE_URL goes through the pooler, and that a direct connection does not', async () => {
    for (const [databaseUrl, expected] of [
      [poolerUrl(), 'transaction'],
      [directUrl(poolerUrl()), 'session'],
    ]) {
      const database = await openDatabase({ databaseUrl, dataDir: '/nonexistent', poolSize: 2, entities });
      try {
        expect(database.poolMode).toBe(expected);
      } finally {
        await database.close();
      }
    }
  });

  it('refuses to start without Redis or a direct connection to listen on, saying what to set', async () => {
    for (const mode of [{ DATABASE_POOL_MODE: 'transaction' }, { DATABASE_POOL_MODE: '' }]) {
      const child = startServerProcess({ DATABASE_URL: poolerUrl(), REDIS_URL: '', ...mode });
      expect(await exitOf(child)).toBe(1);
      expect(child.output()).toContain('transaction pooler');
      expect(child.output()).toContain('set REDIS_URL for cross-process delivery, or DATABASE_LISTEN_URL to a direct connection to PostgreSQL');
    }
  }, 60_000);

  describe('with DATABASE_LISTEN_URL instead of Redis', () => {
    let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
    const children: ReturnType<typeof startServerProcess>[] = [];

    beforeAll(async () => {
      database = await isolatedServerDatabase();
    });

    afterAll(async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.all(children.map((child) => (child.exitCode === null ? exitOf(child) : null)));
      await database.drop();
    }, 60_000);

    it('delivers a write on one process to a subscriber on another, through LISTEN on the direct connection', async () => {
      const key = `sck_test_listen_${Date.now()}`;
      const listenUrl = directUrl(database.databaseUrl!);
      const urls: string[] = [];
      for (let index = 0; index < 2; index++) {
        const child = startServerProcess({
          DATABASE_URL: database.databaseUrl!,
          DATABASE_LISTEN_URL: listenUrl,
          REDIS_URL: '',
          BOOTSTRAP_API_KEY: key,
          MODEL_PROVIDER: 'none',
        });
        children.push(child);
        urls.push((await waitForOutput(child, /API: (http:\/\/127\.0\.0\.1:\d+)\/graphql/))[1]);
      }
      const [writer, reader] = urls.map((url) => new GraphQLTestClient(url, key));
      const report = await (await fetch(`${urls[1]}/readyz`)).json();
      expect(report).toMatchObject({ ready: true, delivery: { ok: true, mode: 'postgres' } });
      const session = await createSession(writer, 'listened directly');
      const ws = reader.websocket();
      const events = collect<{ sessionEvents: { text: string } }>(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s, afterSeq: 0) { text } }', { s: session });
      // The first message arrives either way (from the database, or published): then the subscription is in place.
      await postMessage(writer, session, 'first');
      await events.until(1, 20_000);
      // The second can only arrive published across processes.
      await postMessage(writer, session, 'across processes');
      await events.until(2, 20_000);
      expect(events.values.map((value) => value.sessionEvents.text)).toEqual(['first', 'across processes']);
      await ws.dispose();
    }, 120_000);
  });

  describe('a migration through the pooler', () => {
    let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
    let server: TestServer;
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('migrates an empty database while the pooler hands each transaction any backend', async () => {
      database = await isolatedServerDatabase({ empty: true });
      const direct = new Client({ connectionString: directUrl(database.databaseUrl!) });
      await direct.connect();
      const { rows } = await direct.query("SELECT to_regclass('sessions') AS sessions");
      await direct.end();
      expect(rows).toEqual([{ sessions: null }]);
      server = await startTestServer({ agent: { ...DEFAULT_AGENT_CONFIG, provider: 'builtin' }, databaseUrl: database.databaseUrl, dataDir: database.dataDir });
      expect(server.app.database.poolMode).toBe('transaction');
      const client = await server.newAccount();
      const session = await createSession(client, 'migrated through the pooler');
      await postMessage(client, session, 'hello');
    }, 60_000);
  });
});
