import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const POST = `mutation ($input: PostMessageInput!) { postMessage(input: $input) {
  ... on PostMessageSuccess { event { id seq } } ... on OperationError { code message } } }`;

describe('transcript integrity', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  const sql = { query: (statement: string, parameters: unknown[] = []) => server.app.database.dataSource.query(statement, parameters) };

  beforeAll(async () => {
    server = await startTestServer({ poolSize: 20 });
    client = await server.newAccount('integrity');
  });
  afterAll(() => server.close());

  async function sessionWithMessages(count: number): Promise<string> {
    const { createSession } = await client.data<{ createSession: { id: string } }>(
      'mutation { createSession(input: { title: "integrity" }) { id } }',
    );
    for (let i = 0; i < count; i += 1) {
      await client.data(POST, { input: { sessionId: createSession.id, text: `m${i}` } });
    }
    return createSession.id;
  }

  it.each([
    ['UPDATE', (id: string) => `UPDATE events SET text = 'rewritten' WHERE session_id = '${id}'`],
    ['DELETE', (id: string) => `DELETE FROM events WHERE session_id = '${id}'`],
    ['TRUNCATE', () => 'TRUNCATE events CASCADE'],
  ])('the database refuses %s of event rows', async (_operation, statement) => {
    const sessionId = await sessionWithMessages(2);
    await expect(sql.query(statement(sessionId))).rejects.toThrow(/append-only/);
    const rows = await sql.query('SELECT text FROM events WHERE session_id = $1 ORDER BY seq', [sessionId]);
    expect(rows.map((row: { text: string }) => row.text)).toEqual(['m0', 'm1']);
  });

  it('keeps seq 1..n without gaps or duplicates under 20 concurrent writers, and replays stay single', async () => {
    const sessionId = await sessionWithMessages(0);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.data<{ postMessage: { event: { id: string; seq: number } } }>(POST, {
          input: { sessionId, text: `concurrent ${i}`, clientMessageId: `c-${i}` },
        }),
      ),
    );
    const seqs = results.map((result) => result.postMessage.event.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));

    const replays = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.data<{ postMessage: { event: { id: string } } }>(POST, {
          input: { sessionId, text: `concurrent ${i}`, clientMessageId: `c-${i}` },
        }),
      ),
    );
    expect(replays.map((replay) => replay.postMessage.event.id)).toEqual(
      results.map((result) => result.postMessage.event.id),
    );
    const rows = await sql.query(
      'SELECT count(*)::int AS events, max(seq) AS last FROM events WHERE session_id = $1',
      [sessionId],
    );
    expect(rows[0]).toEqual({ events: 20, last: 20 });
  });

  it('stores one message for one clientMessageId sent by 10 concurrent writers, and answers each with it', async () => {
    const sessionId = await sessionWithMessages(1);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.data<{ postMessage: { event: { id: string; seq: number } } }>(POST, {
          input: { sessionId, text: 'sent from two tabs at once', clientMessageId: 'same-message' },
        }),
      ),
    );
    expect(new Set(results.map((result) => result.postMessage.event.id)).size).toBe(1);
    expect(results[0].postMessage.event.seq).toBe(2);
    const rows = await sql.query('SELECT count(*)::int AS events FROM events WHERE session_id = $1', [sessionId]);
    expect(rows[0]).toEqual({ events: 2 });
  });
});

describe('a replayed message with an agent', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    // The agent queues each message's turn and runs none: a turn stays as its message left it.
    server = await startTestServer({ poolSize: 20, agent: { ...DEFAULT_AGENT_CONFIG, provider: 'builtin', concurrency: 0 } });
    client = await server.newAccount('replays');
  });
  afterAll(() => server.close());

  it('answers every post of one clientMessageId, concurrent or later, with the one message and the one turn it queued', async () => {
    const { createSession } = await client.data<{ createSession: { id: string } }>('mutation { createSession(input: { title: "replays" }) { id } }');
    const send = () =>
      client.data<{ postMessage: { event: { id: string }; run: { id: string } | null } }>(
        `mutation ($input: PostMessageInput!) { postMessage(input: $input) { ... on PostMessageSuccess { event { id } run { id } } } }`,
        { input: { sessionId: createSession.id, text: 'sent twice by a client that retried', clientMessageId: 'retried' } },
      );
    const answers = [...(await Promise.all(Array.from({ length: 10 }, send))), await send()];
    const [{ postMessage: first }] = answers;
    expect(first.run).not.toBeNull();
    for (const { postMessage } of answers) expect(postMessage).toEqual(first);
    const runs = await server.app.database.dataSource.query(`SELECT id FROM runs WHERE session_id = $1 AND kind = 'TURN'`, [createSession.id]);
    expect(runs).toEqual([{ id: first.run!.id }]);
  });
});
