import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { CONTINUE, ContinueResult, continuation } from '../helpers/continuations';
import { exitOf, startServerProcess, waitForOutput } from '../helpers/server-process';
import { testRedisUrl } from '../helpers/test-server';
import { directUrl, isolatedServerDatabase } from '../setup/test-database';
import { runsSettled } from '../helpers/runs';

/**
 * Three server processes as a deployment runs them: behind PgBouncer in transaction mode, with
 * Redis between them and a streaming replica for history reads. Clients write through all three
 * and follow their sessions on another process than the one they write to; one process is killed
 * outright under load. Nothing may be lost or happen twice: its runs are taken over when their
 * leases end, followers resume on a living process, and `npm run verify` finds the database sound.
 */
const deployed = process.env.TEST_DATABASE_URL && process.env.DATABASE_POOLER_URL && process.env.DATABASE_REPLICA_URL ? describe : describe.skip;

const POST = `mutation ($input: PostMessageInput!) { postMessage(input: $input) {
  __typename ... on PostMessageSuccess { event { id } } ... on OperationError { code message } } }`;
const FOLLOW = 'subscription ($s: ID!, $after: Int) { sessionEvents(sessionId: $s, afterSeq: $after) { seq kind } }';

const PROCESSES = 3;
const CHATS = 9;
const MESSAGES_PER_CHAT = 3;
const CONTINUED = 6;
const KEY = `sck_scale_${randomBytes(16).toString('hex')}`;

type ServerProcess = ReturnType<typeof startServerProcess>;

deployed('three server processes behind PgBouncer, with Redis and a replica, one killed under load', () => {
  let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
  const children: ServerProcess[] = [];
  const urls: string[] = [];
  const alive = () => urls.filter((_, index) => children[index].exitCode === null && children[index].signalCode === null);
  /** The client of process `index`, or of the next living one once it is gone. */
  const clientOf = (index: number) => {
    const living = children[index % PROCESSES].signalCode === null ? urls[index % PROCESSES] : alive()[index % alive().length];
    return new GraphQLTestClient(living, KEY);
  };

  beforeAll(async () => {
    database = await isolatedServerDatabase();
    const replicaUrl = new URL(process.env.DATABASE_REPLICA_URL!);
    replicaUrl.pathname = new URL(database.databaseUrl!).pathname;
    for (let index = 0; index < PROCESSES; index++) {
      const child = startServerProcess({
        DATABASE_URL: database.databaseUrl!,
        DATABASE_POOL_MODE: 'transaction',
        DATABASE_REPLICA_URL: replicaUrl.toString(),
        REDIS_URL: testRedisUrl(),
        DB_POOL_SIZE: '4',
        BOOTSTRAP_API_KEY: KEY,
        MODEL_PROVIDER: 'builtin',
        // Short leases: the runs the killed process held are claimed again within seconds.
        RUN_LEASE_MS: '1500',
        RUN_POLL_MS: '100',
      });
      children.push(child);
      urls.push((await waitForOutput(child, /API: (http:\/\/127\.0\.0\.1:\d+)\/graphql/))[1]);
    }
  }, 120_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? exitOf(child) : null)));
    await database.drop();
  }, 60_000);

  /** Sends until a living process answers: a request to the killed one may or may not have been done, so it goes again, as is. */
  async function send<T>(writer: number, query: string, variables: Record<string, unknown>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await clientOf(writer + attempt).data<T>(query, variables);
      } catch (error) {
        if (attempt > 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  it('loses nothing and doubles nothing, and every follower sees every event once, in order', async () => {
    const chats: string[] = [];
    const predecessors: string[] = [];
    for (let index = 0; index < CHATS + CONTINUED; index++) {
      const { createSession } = await send<{ createSession: { id: string } }>(index, 'mutation ($t: String!) { createSession(input: { title: $t }) { id } }', { t: `scaled ${index}` });
      (index < CHATS ? chats : predecessors).push(createSession.id);
    }
    for (const [index, sessionId] of predecessors.entries()) {
      await send(index, POST, { input: { sessionId, text: 'Where do we stand?', clientMessageId: randomUUID() } });
    }
    await runsSettled(database.databaseUrl!, 90_000);

    // Each chat is written through process i and followed on process i + 1.
    const followers = chats.map((sessionId, index) => follow(sessionId, index + 1));
    const messages = chats.map((sessionId) =>
      Array.from({ length: MESSAGES_PER_CHAT }, (_, index) => ({ sessionId, text: `message ${index} of ${sessionId}`, clientMessageId: randomUUID() })),
    );
    const continuations = predecessors.map((sessionId) => continuation(sessionId, { idempotencyKey: randomUUID(), title: 'Scaled out' }));
    let answered = 0;
    const writing = Promise.all([
      ...messages.map(async (inputs, writer) => {
        for (const input of inputs) {
          const { postMessage } = await send<{ postMessage: { __typename: string } }>(writer, POST, { input });
          expect(postMessage.__typename).toBe('PostMessageSuccess');
          answered += 1;
        }
      }),
      ...continuations.map(async (input, writer) => {
        for (let attempt = 0; ; attempt++) {
          const { continueSession } = await send<{ continueSession: ContinueResult }>(writer, CONTINUE, { input });
          if (continueSession.code !== 'TURN_IN_PROGRESS' || attempt > 100) {
            expect(continueSession.__typename).toBe('ContinueSessionSuccess');
            answered += 1;
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    ]);
    // The second process dies once a third of the writes are answered, while it serves requests and runs turns.
    const total = CHATS * MESSAGES_PER_CHAT + CONTINUED;
    while (answered < total / 3) await new Promise((resolve) => setTimeout(resolve, 2));
    const sql = new Client({ connectionString: directUrl(database.databaseUrl!) });
    await sql.connect();
    const victim = children[1];
    let held: string[] = [];
    // Frozen while its runs are read, so that it cannot finish one between the read and its death.
    for (const deadline = Date.now() + 30_000; held.length === 0 && Date.now() < deadline; ) {
      victim.kill('SIGSTOP');
      const { rows } = await sql.query(`SELECT id FROM runs WHERE status = 'RUNNING' AND lease_owner LIKE $1`, [`%:${victim.pid}:%`]);
      held = rows.map((row) => row.id);
      if (held.length === 0) {
        victim.kill('SIGCONT');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    victim.kill('SIGKILL');
    await exitOf(victim);
    expect(held.length).toBeGreaterThan(0);
    await writing;
    await runsSettled(database.databaseUrl!, 90_000);

    try {
      // The runs the killed process held all finished, claimed again once their leases ended. One
      // whose last write was on its way when the process froze may have finished in its first attempt.
      const takenOver = await sql.query('SELECT status, attempt FROM runs WHERE id = ANY($1::uuid[])', [held]);
      expect(takenOver.rows.map((run) => run.status)).toEqual(held.map(() => 'SUCCEEDED'));
      expect(takenOver.rows.some((run) => run.attempt >= 2)).toBe(true);
      // Every follower, whichever processes it went through, saw the whole transcript once, in order.
      for (const [index, follower] of followers.entries()) {
        const { rows } = await sql.query('SELECT seq FROM events WHERE session_id = $1 ORDER BY seq', [chats[index]]);
        await follower.until(rows.length);
        expect(follower.seqs()).toEqual(rows.map((row) => row.seq));
        follower.stop();
      }
      const edges = await sql.query('SELECT idempotency_key, count(*)::int AS n FROM continuation_edges GROUP BY idempotency_key');
      expect(edges.rows.map((row) => row.n)).toEqual(continuations.map(() => 1));
      const posted = await sql.query(
        `SELECT event.client_message_id, count(DISTINCT event.id)::int AS n, count(run.id)::int AS runs, count(run.id) FILTER (WHERE run.status = 'SUCCEEDED')::int AS succeeded
         FROM events event LEFT JOIN runs run ON run.trigger_event_id = event.id AND run.kind = 'TURN'
         WHERE event.client_message_id = ANY($1::text[]) GROUP BY event.client_message_id`,
        [messages.flat().map((message) => message.clientMessageId)],
      );
      expect(posted.rows).toHaveLength(CHATS * MESSAGES_PER_CHAT);
      // Each message stored once and answered by one turn that succeeded.
      expect(posted.rows.filter((row) => row.n !== 1 || row.runs !== 1 || row.succeeded !== 1)).toEqual([]);
      const answers = await sql.query(
        `SELECT count(*) FILTER (WHERE kind = 'USER_MESSAGE')::int AS asked, count(*) FILTER (WHERE kind = 'ASSISTANT_MESSAGE')::int AS answered
         FROM events WHERE session_id = ANY($1::uuid[]) GROUP BY session_id`,
        [chats],
      );
      expect(answers.rows).toEqual(chats.map(() => ({ asked: MESSAGES_PER_CHAT, answered: MESSAGES_PER_CHAT })));
    } finally {
      await sql.end();
    }
    expect(await verify(directUrl(database.databaseUrl!))).toMatchObject({ code: 0, output: expect.stringContaining('No violations.') });
  }, 240_000);

  /**
   * Follows a session's events on process `index`, and once that process is gone, on the next living
   * one from the last event seen, as a client reconnecting with `afterSeq` does.
   */
  function follow(sessionId: string, index: number) {
    const seen: number[] = [];
    let stopped = false;
    let dispose = () => undefined as unknown;
    void (async () => {
      for (let attempt = 0; !stopped; attempt++) {
        const ws = clientOf(index + attempt).websocket();
        dispose = () => ws.dispose();
        await new Promise<void>((resolve) => {
          ws.subscribe<{ sessionEvents: { seq: number } }>(
            { query: FOLLOW, variables: { s: sessionId, after: seen.at(-1) ?? 0 } },
            { next: ({ data }) => data && seen.push(data.sessionEvents.seq), error: () => resolve(), complete: () => resolve() },
          );
        });
        await ws.dispose();
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    return {
      seqs: () => seen,
      async until(count: number) {
        const deadline = Date.now() + 30_000;
        while (seen.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      },
      stop() {
        stopped = true;
        dispose();
      },
    };
  }
});

/** `npm run verify` on the database: its exit code and what it printed. */
function verify(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', 'verify'], { cwd: path.resolve(__dirname, '..', '..'), env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}
