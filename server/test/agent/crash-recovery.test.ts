import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Violation } from '../../src/modules/integrity/invariants';
import { verifyDatabase } from '../../src/modules/integrity/integrity.service';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { CONTINUE, ContinueResult, continuation } from '../helpers/continuations';
import { exitOf, startServerProcess, waitForOutput } from '../helpers/server-process';
import { isolatedServerDatabase } from '../setup/test-database';
import { runsSettled } from '../helpers/runs';

/**
 * A server process killed outright while continuations and messages are in flight, then another
 * on the same database receiving every request again, as clients that saw no answer retry them:
 * nothing is lost, nothing happens twice, and the verifier finds the database sound.
 */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

const POST = `mutation ($input: PostMessageInput!) { postMessage(input: $input) {
  __typename ... on PostMessageSuccess { event { id } } ... on OperationError { code message } } }`;

const SESSIONS = 12;
const MESSAGES_PER_SESSION = 3;
const BOOTSTRAP_KEY = `sck_crash_${randomBytes(16).toString('hex')}`;

onPostgres('a server process killed mid-flight', () => {
  let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
  const children: ReturnType<typeof startServerProcess>[] = [];

  async function start(): Promise<GraphQLTestClient> {
    const child = startServerProcess({
      DATABASE_URL: database.databaseUrl!,
      BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
      MODEL_PROVIDER: 'builtin',
      // Short leases: the runs the killed process held are claimed again within seconds.
      RUN_LEASE_MS: '1500',
      RUN_POLL_MS: '100',
    });
    children.push(child);
    const [, url] = await waitForOutput(child, /API: (http:\/\/127\.0\.0\.1:\d+)\/graphql/);
    return new GraphQLTestClient(url, BOOTSTRAP_KEY);
  }

  beforeAll(async () => {
    database = await isolatedServerDatabase();
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? exitOf(child) : null)));
    await database.drop();
  }, 60_000);

  it('loses nothing and doubles nothing when every request is sent again to the next process', async () => {
    const first = await start();
    // Predecessors at a turn boundary: one answered message each.
    const predecessors: string[] = [];
    const chats: string[] = [];
    for (let index = 0; index < SESSIONS; index++) {
      for (const list of [predecessors, chats]) {
        const { createSession } = await first.data<{ createSession: { id: string } }>(
          'mutation ($t: String!) { createSession(input: { title: $t }) { id } }',
          { t: `crash ${index}` },
        );
        list.push(createSession.id);
      }
    }
    for (const sessionId of predecessors) await first.data(POST, { input: { sessionId, text: 'Where do we stand?', clientMessageId: randomUUID() } });
    await runsSettled(database.databaseUrl!, 60_000);

    const continuations = predecessors.map((sessionId) => continuation(sessionId, { idempotencyKey: randomUUID(), title: 'After the crash' }));
    const messages = chats.flatMap((sessionId) =>
      Array.from({ length: MESSAGES_PER_SESSION }, (_, index) => ({ sessionId, text: `message ${index} of ${sessionId}`, clientMessageId: randomUUID() })),
    );
    // Continuations wait on a lock held here, so whenever the kill comes some requests are still open,
    // however the machine schedules this process and the server's.
    const blocker = new Client({ connectionString: database.databaseUrl });
    await blocker.connect();
    let answeredSoFar = 0;
    const track = <T>(response: Promise<T>) => response.then((value) => ((answeredSoFar += 1), value)).catch(() => null);
    let inFlight: Promise<unknown>[];
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE continuation_edges IN SHARE MODE');
      // Everything at once; the process dies while it is busy with them, once a third are answered.
      inFlight = [
        ...continuations.map((input) => track(first.request(CONTINUE, { input }))),
        ...messages.map((input) => track(first.request(POST, { input }))),
      ];
      while (answeredSoFar < inFlight.length / 3) await new Promise((resolve) => setTimeout(resolve, 2));
      const killed = children[0];
      killed.kill('SIGKILL');
      await exitOf(killed);
    } finally {
      // The lock goes with the connection. The killed process's blocked writes may still commit then:
      // the retries must find them.
      await blocker.end();
    }
    const answered = (await Promise.all(inFlight)).filter((response) => response !== null).length;
    // The kill came while requests were still open: some never got an answer.
    expect(answered).toBeLessThan(inFlight.length);

    const second = await start();
    // Messages of one session go in order, as one client writes them.
    await Promise.all(
      chats.map(async (sessionId) => {
        for (const input of messages.filter((message) => message.sessionId === sessionId)) {
          const { postMessage } = await second.data<{ postMessage: { __typename: string; code?: string } }>(POST, { input });
          expect(postMessage.__typename).toBe('PostMessageSuccess');
        }
      }),
    );
    for (const input of continuations) {
      const result = await retryWhileTurnRuns(() => second.data<{ continueSession: ContinueResult }>(CONTINUE, { input }));
      expect(result.__typename).toBe('ContinueSessionSuccess');
    }
    await runsSettled(database.databaseUrl!, 60_000);

    const sql = new Client({ connectionString: database.databaseUrl });
    await sql.connect();
    try {
      const edges = await sql.query('SELECT idempotency_key, count(*)::int AS n FROM continuation_edges GROUP BY idempotency_key');
      expect(edges.rows).toHaveLength(continuations.length);
      expect(edges.rows.every((row) => row.n === 1)).toBe(true);
      const posted = await sql.query(
        `SELECT client_message_id, count(*)::int AS n FROM events WHERE client_message_id = ANY($1::text[]) GROUP BY client_message_id`,
        [messages.map((message) => message.clientMessageId)],
      );
      expect(posted.rows).toHaveLength(messages.length);
      expect(posted.rows.every((row) => row.n === 1)).toBe(true);
      // Each message answered once: one finished turn per message, and one answer after each.
      const turns = await sql.query(
        `SELECT event.id, count(run.id)::int AS runs, count(run.id) FILTER (WHERE run.status = 'SUCCEEDED')::int AS succeeded
         FROM events event LEFT JOIN runs run ON run.trigger_event_id = event.id AND run.kind = 'TURN'
         WHERE event.client_message_id = ANY($1::text[]) GROUP BY event.id`,
        [messages.map((message) => message.clientMessageId)],
      );
      expect(turns.rows.every((row) => row.runs === 1 && row.succeeded === 1)).toBe(true);
      const answers = await sql.query(
        `SELECT session_id, count(*) FILTER (WHERE kind = 'USER_MESSAGE')::int AS asked, count(*) FILTER (WHERE kind = 'ASSISTANT_MESSAGE')::int AS answered
         FROM events WHERE session_id = ANY($1::uuid[]) GROUP BY session_id`,
        [chats],
      );
      expect(answers.rows.map((row) => [row.asked, row.answered])).toEqual(chats.map(() => [MESSAGES_PER_SESSION, MESSAGES_PER_SESSION]));

      const violations: Violation[] = [];
      await verifyDatabase((text, parameters) => sql.query(text, parameters).then((result) => result.rows), {
        pageSize: 50,
        onViolation: (violation) => violations.push(violation),
      });
      expect(violations).toEqual([]);
    } finally {
      await sql.end();
    }
  }, 120_000);
});

/** A continuation waits for the predecessor's turn to end, as an agent retrying it would. */
async function retryWhileTurnRuns(send: () => Promise<{ continueSession: ContinueResult }>): Promise<ContinueResult> {
  for (let attempt = 0; ; attempt++) {
    const { continueSession } = await send();
    if (continueSession.code !== 'TURN_IN_PROGRESS' || attempt > 100) return continueSession;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
