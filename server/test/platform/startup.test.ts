import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startApp } from '../../src/app';
import { AppConfig, ConfigError, configFromEnv, DEFAULT_AGENT_CONFIG } from '../../src/config';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres';
import { DEFAULT_CONTINUATION_POLICY } from '../../src/modules/continuation/continuations.service';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { TEST_EMBEDDED_BUFFER_MB, testServerDatabase } from '../setup/test-database';
import { exitOf, startServerProcess, waitForOutput } from '../helpers/server-process';

function embeddedConfig(dataDir: string): AppConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    dataDir,
    embeddedBufferMb: TEST_EMBEDDED_BUFFER_MB,
    development: false,
    clientDist: path.join(tmpdir(), 'no-client-build'),
    poolSize: 2,
    continuationPolicy: DEFAULT_CONTINUATION_POLICY,
    agent: DEFAULT_AGENT_CONFIG,
    logLevel: 'warn',
  };
}

describe('start-up', () => {
  const folders: string[] = [];
  /** A new folder for one test's data, removed when the file's tests are done. */
  async function scratchFolder(name: string): Promise<string> {
    const folder = await mkdtemp(path.join(tmpdir(), `sc-${name}-`));
    folders.push(folder);
    return folder;
  }
  afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  it('creates and persists the embedded database and the admin key in DATA_DIR across restarts', async () => {
    const dataDir = await scratchFolder('embedded');
    const first = await startApp(embeddedConfig(dataDir));
    const key = first.bootstrapKey.apiKey;
    expect(first.database.embedded).toBe(true);
    expect(await first.database.dataSource.query('SHOW shared_buffers')).toEqual([{ shared_buffers: `${TEST_EMBEDDED_BUFFER_MB}MB` }]);
    expect((await readFile(path.join(dataDir, 'bootstrap-api-key'), 'utf8')).trim()).toBe(key);
    const admin = new GraphQLTestClient(first.url, key);
    const { createSession } = await admin.data<{ createSession: { id: string } }>(
      'mutation { createSession(input: { title: "kept" }) { id } }',
    );
    await first.close();

    const second = await startApp(embeddedConfig(dataDir));
    try {
      expect(second.bootstrapKey.apiKey).toBe(key);
      const { session } = await new GraphQLTestClient(second.url, key).data<{ session: { title: string } }>(
        'query ($id: ID!) { session(id: $id) { title } }',
        { id: createSession.id },
      );
      expect(session.title).toBe('kept');
    } finally {
      await second.close();
    }
  }, 120_000);

  it("sizes the embedded database's buffer pool by EMBEDDED_BUFFER_MB, PostgreSQL's 128 MB by default", () => {
    expect(configFromEnv({}).embeddedBufferMb).toBe(128);
    expect(configFromEnv({ EMBEDDED_BUFFER_MB: '32' }).embeddedBufferMb).toBe(32);
    for (const wrong of ['0', '2048', '16MB']) expect(() => configFromEnv({ EMBEDDED_BUFFER_MB: wrong })).toThrow(ConfigError);
  });

  it('refuses to start with a clear message when the database is unreachable', async () => {
    const config = { ...embeddedConfig(await scratchFolder('unreachable')), databaseUrl: 'postgres://postgres@127.0.0.1:1/none' };
    await expect(startApp(config)).rejects.toThrow(/Cannot reach the database at postgres:\/\/postgres@127\.0\.0\.1:1\/none/);
  });

  it('refuses to start when a migration fails, and applies nothing of it', async () => {
    const dataDir = await scratchFolder('conflict');
    const embedded = await startEmbeddedPostgres(path.join(dataDir, 'pgdata'), 2, TEST_EMBEDDED_BUFFER_MB);
    const sql = new Client({ connectionString: embedded.url });
    await sql.connect();
    await sql.query('CREATE TABLE sessions (id integer)');
    await sql.end();
    await embedded.stop();

    await expect(startApp(embeddedConfig(dataDir))).rejects.toThrow(/A database migration failed: .*sessions/);

    const reopened = await startEmbeddedPostgres(path.join(dataDir, 'pgdata'), 2, TEST_EMBEDDED_BUFFER_MB);
    const check = new Client({ connectionString: reopened.url });
    await check.connect();
    const { rows } = await check.query("SELECT to_regclass('accounts') AS accounts");
    await check.end();
    await reopened.stop();
    expect(rows[0].accounts).toBeNull();
  }, 120_000);

  it('exits with status 1 and says why when it cannot start', async () => {
    const child = startServerProcess({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', DATA_DIR: tmpdir() });
    expect(await exitOf(child)).toBe(1);
    expect(child.output()).toMatch(/^Cannot start: Cannot reach the database/m);
    expect(child.output()).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('prints the sign-in URL with the key and stops cleanly on SIGTERM, closing WebSocket clients', async () => {
    const database = await testServerDatabase();
    const child = startServerProcess({
      DATA_DIR: database.dataDir,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      BOOTSTRAP_API_KEY: 'sck_startup_test_key',
    });
    const exited = exitOf(child);
    try {
      const [, url] = await waitForOutput(child, /API: (http:\/\/127\.0\.0\.1:\d+)\/graphql/);
      // The sign-in link follows the API line; a process may write them in two pieces.
      await waitForOutput(child, /\?key=sck_startup_test_key/);
      expect(await fetch(`${url}/healthz`).then((response) => response.status)).toBe(200);

      const client = new GraphQLTestClient(url, 'sck_startup_test_key');
      const { createSession } = await client.data<{ createSession: { id: string } }>(
        'mutation { createSession(input: { title: "bye" }) { id } }',
      );
      const ws = client.websocket();
      const subscription = collect(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { id } }', {
        s: createSession.id,
      });
      await client.data('query { viewer { id } }');
      await waitForConnected(ws);

      child.kill('SIGTERM');
      const code = await exited;
      expect({ code, output: child.output() }).toEqual({ code: 0, output: expect.stringMatching(/SIGTERM received/) });
      await subscription.until(1);
      expect(subscription.completed || subscription.errors.length > 0).toBe(true);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
      await ws.dispose();
    } finally {
      child.kill('SIGKILL');
      await exited;
      await database.drop();
    }
  }, 120_000);
});

/** Resolves once the graphql-ws client has an acknowledged connection. */
function waitForConnected(ws: ReturnType<GraphQLTestClient['websocket']>): Promise<void> {
  return new Promise((resolve) => {
    const stop = ws.on('connected', () => {
      stop();
      resolve();
    });
  });
}
