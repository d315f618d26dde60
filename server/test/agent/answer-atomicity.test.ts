import { GraphQLTestClient } from '../helpers/graphql-client';
import { createSession } from '../helpers/continuations';
import { runsOf, settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';
import { CREATE_ENDPOINT, WebhookReceiver } from '../helpers/webhook-receiver';
import { FaultStep, injectFault } from '../helpers/faults';
import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/modules/webhooks/webhooks';

/** Each write of a turn's answer, and a row condition that picks out exactly that write when the run is retried. */
const ANSWER_STEPS: FaultStep[] = [
  ['append the answer', 'events', 'INSERT', `NEW.kind = 'ASSISTANT_MESSAGE'`],
  ["advance the session's totals", 'sessions', 'UPDATE', 'NEW.event_count > OLD.event_count'],
  ['settle the run', 'runs', 'UPDATE', `NEW.status = 'SUCCEEDED'`],
  ['announce the answer', 'webhook_deliveries', 'INSERT', `NEW.event = 'MESSAGE_POSTED'`],
  ["announce the run's end", 'webhook_deliveries', 'INSERT', `NEW.event = 'RUN_SUCCEEDED'`],
];

/** The writes that record a tool's call and result. */
const TOOL_STEPS: FaultStep[] = [
  ['record the tool call', 'events', 'INSERT', `NEW.kind = 'TOOL_CALL'`],
  ['record its result', 'events', 'INSERT', `NEW.kind = 'TOOL_RESULT'`],
  ["advance the session's totals", 'sessions', 'UPDATE', 'NEW.event_count > OLD.event_count'],
];

describe("a turn's answer and its tool calls are written atomically", () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let accountId: string;
  const receiver = new WebhookReceiver();
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);

  beforeAll(async () => {
    server = await startTestServer({
      agent: { ...DEFAULT_AGENT_CONFIG, provider: 'builtin', pollMs: 50 },
      webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivateNetworks: true, allowHttp: true, pollMs: 100 },
      logLevel: 'silent',
    });
    client = await server.newAccount('atomic answers');
    accountId = (await client.data<{ viewer: { id: string } }>('query { viewer { id } }')).viewer.id;
    // With an endpoint, each write carries its announcements in the outbox.
    await receiver.open();
    const { createWebhookEndpoint } = await client.data<{ createWebhookEndpoint: { secret: string } }>(CREATE_ENDPOINT, {
      input: { url: receiver.url, events: ['MESSAGE_POSTED', 'RUN_SUCCEEDED'] },
    });
    receiver.trust(createWebhookEndpoint.secret);
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  /** What the session holds and its totals say, the succeeded runs, and the announcements (a failed run's own aside). */
  async function state(sessionId: string) {
    const [row] = await sql(
      `SELECT (SELECT count(*) FROM events WHERE session_id = $2)::int AS events,
              (SELECT array_agg(kind ORDER BY seq) FROM events WHERE session_id = $2) AS kinds,
              (SELECT row(event_count, token_count, last_event_hash)::text FROM sessions WHERE id = $2) AS totals,
              (SELECT count(*) FROM runs WHERE session_id = $2 AND status = 'SUCCEEDED')::int AS succeeded,
              (SELECT count(*) FROM webhook_deliveries WHERE account_id = $1 AND event <> 'RUN_FAILED')::int AS announced`,
      [accountId, sessionId],
    );
    return row;
  }

  /**
   * Posts `text` to a new session with the turn held back at the first step, then retries the
   * failed run once per step with a fault at that write: each attempt must fail and leave the
   * session as it was. Returns the session, with the run retried once more without a fault.
   */
  async function failingAt(steps: FaultStep[], text: string): Promise<string> {
    const session = await createSession(client, text);
    const [, table, operation, condition] = steps[0];
    const held = await injectFault(sql, accountId, ['held back', table, operation, condition]);
    await client.data('mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { __typename } }', { s: session, t: text });
    const [run] = await settledRuns(client, session);
    await held();
    expect(run.status).toBe('FAILED');
    const before = await state(session);
    for (const step of steps) {
      const [name] = step;
      const remove = await injectFault(sql, accountId, step);
      try {
        await client.data('mutation ($id: ID!) { retryRun(runId: $id) { id } }', { id: run.id });
        await settledRuns(client, session);
        const [retried] = await runsOf(client, session);
        expect({ step: name, status: retried.status, error: retried.error }).toEqual({ step: name, status: 'FAILED', error: expect.stringContaining(name) });
        expect({ step: name, state: await state(session) }).toEqual({ step: name, state: before });
      } finally {
        await remove();
      }
    }
    await client.data('mutation ($id: ID!) { retryRun(runId: $id) { id } }', { id: run.id });
    expect((await settledRuns(client, session)).map((settled) => settled.status)).toEqual(['SUCCEEDED']);
    return session;
  }

  it('an answer leaves nothing behind when any of its writes fails, and is written whole once its run is retried', async () => {
    const session = await failingAt(ANSWER_STEPS, 'We keep the receipts for seven years.');
    const after = await state(session);
    expect(after.kinds).toEqual(['USER_MESSAGE', 'ASSISTANT_MESSAGE']);
    const [totals] = await sql(
      `SELECT s.event_count = count(e.*) AND s.token_count = sum(e.token_count) AND s.last_event_hash = (array_agg(e.hash ORDER BY e.seq DESC))[1] AS agree
       FROM sessions s JOIN events e ON e.session_id = s.id WHERE s.id = $1 GROUP BY s.id`,
      [session],
    );
    expect(totals.agree).toBe(true);
  });

  it("a tool's call and result leave nothing behind when either write fails", async () => {
    const session = await failingAt(TOOL_STEPS, '/search receipts');
    expect((await state(session)).kinds).toEqual(['USER_MESSAGE', 'TOOL_CALL', 'TOOL_RESULT', 'ASSISTANT_MESSAGE']);
  });
});
