import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { PUBSUB_APPLICATION_NAME, PUBSUB_CHANNEL } from '../../src/platform/pubsub/postgres-event-target';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage } from '../helpers/continuations';
import { startTestServer } from '../helpers/test-server';
import { exitOf, startServerProcess, waitForOutput } from '../helpers/server-process';
import { isolatedServerDatabase } from '../setup/test-database';

type ServerProcess = ReturnType<typeof startServerProcess>;

/** Cross-process delivery is LISTEN/NOTIFY on PostgreSQL: this suite runs there only. */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const readiness = (url: string) =>
  fetch(`${url}/readyz`).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }));

onPostgres('delivery between two server processes when the LISTEN connection drops', () => {
  let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
  let sql: Client;
  let a: GraphQLTestClient;
  let b: GraphQLTestClient;
  let processA: ServerProcess;
  let processB: ServerProcess;
  const processes: ServerProcess[] = [];
  const apiKey = `sck_test_${randomBytes(16).toString('hex')}`;

  async function start(): Promise<[ServerProcess, GraphQLTestClient]> {
    const child = startServerProcess({
      DATABASE_URL: database.databaseUrl!,
      DATA_DIR: await mkdtemp(path.join(database.dataDir, 'process-')),
      BOOTSTRAP_API_KEY: apiKey,
      // Turn runs are queued (and published) but never executed: the test drives every change itself.
      MODEL_PROVIDER: 'builtin',
      AGENT_CONCURRENCY: '0',
      // Long enough to see the process report itself unready while it waits to reconnect.
      PUBSUB_RECONNECT_MS: '2000',
    });
    processes.push(child);
    const [, url] = await waitForOutput(child, /API: (http:\/\/127\.0\.0\.1:\d+)\/graphql/);
    return [child, new GraphQLTestClient(url, apiKey)];
  }

  beforeAll(async () => {
    database = await isolatedServerDatabase();
    [processA, a] = await start();
    [processB, b] = await start();
    sql = new Client({ connectionString: database.databaseUrl });
    await sql.connect();
  }, 120_000);

  afterAll(async () => {
    for (const child of processes) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(processes.map((child) => (child.exitCode === null ? exitOf(child) : null)));
    await sql.end();
    await database.drop();
  }, 60_000);

  /** Ends a process's LISTEN connection, as an operator or a failover would. */
  async function terminateListener(child: ServerProcess): Promise<number> {
    const { rows } = await sql.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [`${PUBSUB_APPLICATION_NAME}/${child.pid}`],
    );
    return rows.length;
  }

  async function unready(client: GraphQLTestClient) {
    return until(async () => {
      const answer = await readiness(client.baseUrl);
      return answer.status === 503 ? answer.body : undefined;
    }, `${client.baseUrl} reports itself unready`);
  }

  const ready = (client: GraphQLTestClient) =>
    until(async () => ((await readiness(client.baseUrl)).status === 200 ? true : undefined), `${client.baseUrl} is ready again`, 10_000);

  it('reconnects, reports unready meanwhile, and delivers what was written while it was down', async () => {
    const talk = await createSession(a, 'talk');
    await postMessage(a, talk, 'first');
    const handedOff = await createSession(a, 'handed off');
    await postMessage(a, handedOff, 'move this on');
    await sql.query(`UPDATE runs SET status = 'SUCCEEDED' WHERE session_id = $1`, [handedOff]);

    const ws = b.websocket();
    const events = collect<{ sessionEvents: { seq: number; text: string } }>(
      ws,
      'subscription ($s: ID!) { sessionEvents(sessionId: $s, afterSeq: 0) { seq text } }',
      { s: talk },
    );
    const runs = collect<{ runUpdated: { id: string; status: string } }>(ws, 'subscription ($s: ID!) { runUpdated(sessionId: $s) { id status } }', {
      s: talk,
    });
    const continued = collect<{ sessionContinued: { edge: { id: string }; successor: { id: string } } }>(
      ws,
      'subscription { sessionContinued { edge { id } successor { id } } }',
      {},
    );
    try {
      await events.until(1);
      // Each subscription on B sees a write through A before the connection drops.
      await postMessage(a, talk, 'second');
      const secondRun = (await runsOfSession(talk)).at(-1)!;
      const first = await continueSession(a, continuation(handedOff, { title: 'Handed off' }));
      await events.until(2);
      await runs.until(1);
      await continued.until(1);
      expect(runs.values.map((value) => value.runUpdated.id)).toContain(secondRun);

      expect((await readiness(b.baseUrl)).status).toBe(200);
      // B stops listening: what A announces meanwhile never reaches it.
      expect(await terminateListener(processB)).toBe(1);
      expect(await unready(b)).toMatchObject({ ready: false, database: { ok: true }, delivery: { ok: false, mode: 'postgres' } });
      await postMessage(a, talk, 'third');
      const thirdRun = (await runsOfSession(talk)).at(-1)!;
      await sql.query(`UPDATE runs SET status = 'SUCCEEDED' WHERE session_id = $1`, [first.successor!.id]);
      const second = await continueSession(a, continuation(first.successor!.id, { title: 'Handed on' }));
      expect(second.__typename).toBe('ContinueSessionSuccess');
      await events.until(3, 10_000);
      await continued.until(2, 10_000);
      await until(() => (runs.values.some((value) => value.runUpdated.id === thirdRun) ? true : undefined), 'B delivers the run queued meanwhile', 10_000);
      await ready(b);

      // A stops listening: what it publishes meanwhile waits for its connection.
      expect(await terminateListener(processA)).toBe(1);
      await unready(a);
      await postMessage(a, talk, 'fourth');
      await events.until(4, 10_000);
      await ready(a);

      // The next write through A reaches B live, within 5 seconds.
      await postMessage(a, talk, 'fifth');
      await events.until(5, 5_000);
      expect(events.values.map((value) => value.sessionEvents.text)).toEqual(['first', 'second', 'third', 'fourth', 'fifth']);
      expect(continued.values.map((value) => value.sessionContinued.edge.id)).toEqual([first.edge!.id, second.edge!.id]);
      const states = runs.values.map((value) => `${value.runUpdated.id} ${value.runUpdated.status}`);
      expect(new Set(states).size).toBe(states.length);
      expect(events.errors).toEqual([]);
    } finally {
      events.unsubscribe();
      runs.unsubscribe();
      continued.unsubscribe();
      await ws.dispose();
    }
  }, 60_000);

  it('ignores malformed notifications on its channel and keeps delivering', async () => {
    const talk = await createSession(a, 'noise');
    await postMessage(a, talk, 'before the noise');
    const ws = b.websocket();
    const events = collect<{ sessionEvents: { text: string } }>(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s, afterSeq: 0) { text } }', {
      s: talk,
    });
    try {
      await events.until(1);
      for (const garbage of [
        'not json at all',
        '{"presence": 42}',
        '"a string"',
        '[{"from": 1}]',
        JSON.stringify([{ from: 'elsewhere', type: `SESSION_EVENT:${talk}`, compacted: { id: 'not-an-id' } }]),
        JSON.stringify([{ from: 'elsewhere', type: `SESSION_EVENT:${talk}`, compacted: null }]),
        JSON.stringify([{ from: 'elsewhere', type: `RUN_UPDATED:${talk}`, compacted: { id: 7 } }]),
      ]) {
        await sql.query('SELECT pg_notify($1, $2)', [PUBSUB_CHANNEL, garbage]);
      }
      await postMessage(a, talk, 'after the noise');
      await events.until(2);
      expect(events.values.map((value) => value.sessionEvents.text)).toEqual(['before the noise', 'after the noise']);
      expect(events.errors).toEqual([]);
      expect(processB.exitCode).toBeNull();
      expect(processB.output()).toMatch(/Ignored a notification .* not JSON: not json at all/);
      expect((await readiness(b.baseUrl)).status).toBe(200);
    } finally {
      events.unsubscribe();
      await ws.dispose();
    }
  }, 30_000);

  async function runsOfSession(sessionId: string): Promise<string[]> {
    const { rows } = await sql.query('SELECT id FROM runs WHERE session_id = $1 ORDER BY created_at, id', [sessionId]);
    return rows.map((row: { id: string }) => row.id);
  }
});

describe('readiness', () => {
  it('is ready while the database answers, with in-process delivery on the embedded database', async () => {
    const server = await startTestServer();
    try {
      expect(await readiness(server.url)).toEqual({
        status: 200,
        body: { ready: true, database: { ok: true }, delivery: { ok: true, mode: process.env.TEST_DATABASE_URL ? 'postgres' : 'in-process' } },
      });
    } finally {
      await server.close();
    }
  });
});
