import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage } from '../helpers/continuations';
import { runsOf, settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';
import { CREATE_ENDPOINT, DeliveryView, ENDPOINTS, ReceivedWebhook, WebhookReceiver } from '../helpers/webhook-receiver';
import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/modules/webhooks/webhooks';

const ALL_TYPES = ['SESSION_CONTINUED', 'MESSAGE_POSTED', 'RUN_SUCCEEDED', 'RUN_FAILED', 'RUN_CANCELLED', 'PROPOSAL_CREATED', 'PROPOSAL_DECIDED', 'SESSION_ERASED'];
/** One model call per turn: a turn that calls a tool (`/search`) fails for not answering. */
const AGENT = { ...DEFAULT_AGENT_CONFIG, provider: 'builtin' as const, pollMs: 50, maxSteps: 1 };

describe('webhook deliveries', () => {
  let server: TestServer;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      agent: AGENT,
      webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivateNetworks: true, allowHttp: true, retryScheduleMs: [200, 500, 1000], pollMs: 100, timeoutMs: 1_000 },
    });
  });
  afterAll(async () => {
    await server.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  /** A receiver listening, and an endpoint of the account registered for it. */
  async function registered(client: GraphQLTestClient, events: string[]): Promise<WebhookReceiver> {
    const receiver = await new WebhookReceiver().open();
    receivers.push(receiver);
    const { createWebhookEndpoint } = await client.data<{ createWebhookEndpoint: { secret: string } }>(CREATE_ENDPOINT, { input: { url: receiver.url, events } });
    receiver.trust(createWebhookEndpoint.secret);
    return receiver;
  }

  const deliveriesOf = async (client: GraphQLTestClient) =>
    (await client.data<{ webhookEndpoints: { deliveries: DeliveryView[] }[] }>(ENDPOINTS)).webhookEndpoints.flatMap((endpoint) => endpoint.deliveries);
  /** The account's deliveries once `done` holds for them: the receiver may have answered before the server recorded it. */
  const deliveriesWhen = async (client: GraphQLTestClient, done: (deliveries: DeliveryView[]) => boolean, timeoutMs = 15_000) => {
    for (let deadline = Date.now() + timeoutMs; ; ) {
      const deliveries = await deliveriesOf(client);
      if (done(deliveries) || Date.now() > deadline) return deliveries;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const ofType = (receiver: WebhookReceiver, type: string) => receiver.delivered().filter((hook) => hook.type === type);
  const say = async (client: GraphQLTestClient, session: string, text: string) => {
    await postMessage(client, session, text);
    return settledRuns(client, session);
  };

  it('announces every event type, signed by the Standard Webhooks scheme, with what a receiver needs to order them', async () => {
    const client = await server.newAccount('every type');
    const receiver = await registered(client, ALL_TYPES);

    const chat = await createSession(client, 'chat');
    await say(client, chat, 'We will use PostgreSQL for storage.');
    await say(client, chat, '/search storage');
    await say(client, chat, '/continue Next phase');
    const { createSession: asking } = await client.data<{ createSession: { id: string } }>('mutation { createSession(input: { title: "asks", continuationApproval: ASK }) { id } }');
    await say(client, asking.id, '/continue Somewhere else');
    const { session } = await client.data<{ session: { pendingProposal: { id: string } } }>('query ($s: ID!) { session(id: $s) { pendingProposal { id } } }', { s: asking.id });
    await client.data('mutation ($p: ID!) { rejectContinuation(proposalId: $p, note: "Stay here.") { id } }', { p: session.pendingProposal.id });
    await settledRuns(client, asking.id);
    // A long answer, cancelled while it is produced.
    const slow = await createSession(client, 'slow');
    await postMessage(client, slow, `/echo ${'word '.repeat(3_000)}`);
    const [running] = await runsOf(client, slow);
    await client.data('mutation ($r: ID!) { cancelRun(runId: $r) { status } }', { r: running.id });
    await client.data('mutation ($s: ID!) { eraseSession(input: { sessionId: $s, scope: SESSION, reason: "done" }) { __typename } }', { s: slow });

    const wire = ['session.continued', 'message.posted', 'run.succeeded', 'run.failed', 'run.cancelled', 'proposal.created', 'proposal.decided', 'session.erased'];
    const ofChat = (hooks: WebhookReceiver) => ofType(hooks, 'message.posted').filter((hook) => hook.body.data.sessionId === chat);
    await receiver.until((hooks) => wire.every((type) => ofType(hooks, type).length > 0) && ofChat(hooks).length === 4);
    expect(receiver.rejected).toEqual([]);

    const [continued] = ofType(receiver, 'session.continued');
    expect(continued.body.data).toMatchObject({ predecessorId: chat, successorId: expect.any(String), reason: 'USER_REQUEST', actor: 'AGENT' });
    // Answered, failed (no answer), continued (answered in the successor).
    const messages = ofChat(receiver);
    expect(messages.map((hook) => hook.body.data.kind).sort()).toEqual(['ASSISTANT_MESSAGE', 'USER_MESSAGE', 'USER_MESSAGE', 'USER_MESSAGE']);
    expect(messages.map((hook) => hook.body.data.seq).every((seq) => typeof seq === 'number')).toBe(true);
    expect(ofType(receiver, 'message.posted').find((hook) => hook.body.data.replayOfId)?.body.data.sessionId).toBe(continued.body.data.successorId);
    expect(ofType(receiver, 'run.failed')[0].body.data).toMatchObject({ sessionId: chat, status: 'FAILED', error: expect.stringContaining('without answering') });
    expect(ofType(receiver, 'run.cancelled')[0].body.data).toMatchObject({ runId: running.id, status: 'CANCELLED' });
    expect(ofType(receiver, 'proposal.created')[0].body.data).toMatchObject({ proposalId: session.pendingProposal.id, sessionId: asking.id, status: 'PENDING' });
    expect(ofType(receiver, 'proposal.decided')[0].body.data).toMatchObject({ proposalId: session.pendingProposal.id, status: 'REJECTED' });
    expect(ofType(receiver, 'session.erased')[0].body.data).toMatchObject({ scope: 'SESSION', sessionIds: [slow], actor: 'USER' });
    for (const hook of receiver.delivered()) {
      expect(Object.keys(hook.body)).toEqual(['type', 'timestamp', 'data']);
      expect(new Date(hook.body.timestamp).toISOString()).toBe(hook.body.timestamp);
    }
    // Payloads name things; they never carry what a person wrote.
    expect(JSON.stringify(receiver.received)).not.toContain('PostgreSQL');
    const deliveries = await deliveriesOf(client);
    expect(new Set(deliveries.map((delivery) => delivery.id)).size).toBe(deliveries.length);
    const scraped = await (await fetch(`${server.url}/metrics`)).text();
    expect(scraped).toMatch(/^webhook_deliveries_total\{outcome="delivered"\} [1-9]/m);
    expect(scraped).toMatch(/^webhook_attempt_duration_seconds_count\{outcome="delivered"\} [1-9]/m);
    expect(scraped).toMatch(/^webhook_queue_age_seconds \d/m);
  });

  it('retries a delivery answered 500 twice under the same webhook-id, and it is DELIVERED at the third attempt', async () => {
    const client = await server.newAccount('flaky');
    const receiver = await registered(client, ['SESSION_ERASED']);
    receiver.failEachIdFirst(2);
    const session = await createSession(client, 'to erase');
    await client.data('mutation ($s: ID!) { eraseSession(input: { sessionId: $s, scope: SESSION, reason: "test" }) { __typename } }', { s: session });

    await receiver.until((hooks) => hooks.delivered().length === 1);
    expect(receiver.received.map((hook) => hook.answered)).toEqual([500, 500, 200]);
    expect(new Set(receiver.received.map((hook) => hook.id)).size).toBe(1);
    const [delivery] = await deliveriesWhen(client, ([only]) => only.status === 'DELIVERED');
    expect(delivery).toMatchObject({ id: receiver.received[0].id, event: 'SESSION_ERASED', status: 'DELIVERED', attempts: 3, lastResponseStatus: 200, lastError: null, nextAttemptAt: null });
  });

  it('keeps retrying while the receiver is down, delivers once it is back, and redelivers a FAILED delivery under its id', async () => {
    const client = await server.newAccount('down');
    const receiver = await registered(client, ['MESSAGE_POSTED']);
    await receiver.close();
    const session = await createSession(client, 'while down');
    await say(client, session, 'Anyone there?');
    const failing = await deliveriesWhen(client, (all) => all.length === 2 && all.every((delivery) => delivery.attempts > 0));
    for (const delivery of failing) expect(delivery).toMatchObject({ status: 'PENDING', lastResponseStatus: null, lastError: expect.stringMatching(/ECONNREFUSED/) });
    await receiver.open();
    await receiver.until((hooks) => hooks.delivered().length === 2);
    expect((await deliveriesWhen(client, (all) => all.every((delivery) => delivery.status === 'DELIVERED'))).map((delivery) => delivery.status)).toEqual(['DELIVERED', 'DELIVERED']);

    // Down past the schedule: FAILED after 1 + 3 attempts; redelivered once it is back.
    await receiver.close();
    await say(client, session, 'Still there?');
    const failed = (await deliveriesWhen(client, (all) => all.filter((delivery) => delivery.status === 'FAILED').length === 2)).filter((delivery) => delivery.status === 'FAILED');
    expect(failed.map((delivery) => [delivery.attempts, delivery.nextAttemptAt])).toEqual([
      [4, null],
      [4, null],
    ]);
    await receiver.open();
    const { redeliverWebhook } = await client.data<{ redeliverWebhook: DeliveryView }>('mutation ($d: ID!) { redeliverWebhook(deliveryId: $d) { id status } }', { d: failed[0].id });
    expect(redeliverWebhook).toEqual({ id: failed[0].id, status: 'PENDING' });
    await receiver.until((hooks) => hooks.delivered().some((hook: ReceivedWebhook) => hook.id === failed[0].id));
    const redelivered = await deliveriesWhen(client, (all) => all.some((delivery) => delivery.id === failed[0].id && delivery.status === 'DELIVERED'));
    expect(redelivered.find((delivery) => delivery.id === failed[0].id)).toMatchObject({ status: 'DELIVERED', attempts: 5 });
    const stranger = await server.newAccount('stranger');
    expect((await stranger.data<{ redeliverWebhook: unknown }>('mutation ($d: ID!) { redeliverWebhook(deliveryId: $d) { id } }', { d: failed[1].id })).redeliverWebhook).toBeNull();
  });

  it('announces only what committed: a replayed or refused message queues no delivery', async () => {
    const client = await server.newAccount('only once');
    const receiver = await registered(client, ['MESSAGE_POSTED']);
    const session = await createSession(client, 'replays');
    const post = (sessionId: string) =>
      client.data<{ postMessage: { __typename: string } }>(
        'mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "Once only.", clientMessageId: "same-key" }) { __typename ... on OperationError { code } } }',
        { s: sessionId },
      );
    await post(session);
    await post(session);
    await settledRuns(client, session);
    const erased = await createSession(client, 'erased');
    await client.data('mutation ($s: ID!) { eraseSession(input: { sessionId: $s, scope: SESSION, reason: "gone" }) { __typename } }', { s: erased });
    expect((await post(erased)).postMessage.__typename).toBe('OperationError');

    // The message and its answer, each once.
    const deliveries = await deliveriesWhen(client, (all) => all.length === 2 && all.every((delivery) => delivery.status === 'DELIVERED'));
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(receiver.delivered().map((hook) => hook.body.data.kind).sort()).toEqual(['ASSISTANT_MESSAGE', 'USER_MESSAGE']);
  });

  it("leaves the outbox out of a message's, its answer's and a continuation's write while the account has no endpoint, and writes it once one is registered", async () => {
    const client = await server.newAccount('endpoint later');
    const logger = server.app.database.dataSource.logger;
    /** For a message, the agent's answer to it and then a continuation of a new session: whether each one's write carried the outbox. */
    const outboxWritten = async (title: string) => {
      const statements: { text: string; parameters: unknown[] }[] = [];
      // A kept statement reaches the logger as its name and text.
      const logQuery = jest
        .spyOn(logger, 'logQuery')
        .mockImplementation((query: string | { text: string }, parameters?: unknown) =>
          void statements.push({ text: typeof query === 'string' ? query : query.text, parameters: Array.isArray(parameters) ? parameters : [] }),
        );
      let chat = '';
      try {
        chat = await createSession(client, title);
        await say(client, chat, 'Receipts move to object storage.');
        expect((await continueSession(client, continuation(chat, { title: `${title}, next` }))).__typename).toBe('ContinueSessionSuccess');
      } finally {
        logQuery.mockRestore();
      }
      // The chat's appends (the successor's turn may answer within the window too); the message queues the turn that answers it.
      const appends = statements.filter(({ text, parameters }) => /UPDATE sessions SET event_count = \$\d+, token_count/.test(text) && parameters.includes(chat));
      const message = appends.filter(({ text }) => text.includes('INSERT INTO runs')).map(({ text }) => text);
      const answer = appends.filter(({ text }) => !text.includes('INSERT INTO runs')).map(({ text }) => text);
      const continued = statements.filter(({ text }) => text.includes('INSERT INTO continuation_edges')).map(({ text }) => text);
      expect([message.length, answer.length, continued.length]).toEqual([1, 1, 1]);
      return [message[0], answer[0], continued[0]].map((text) => text.includes('INSERT INTO webhook_deliveries'));
    };

    expect(await outboxWritten('before')).toEqual([false, false, false]);
    const receiver = await registered(client, ['MESSAGE_POSTED', 'SESSION_CONTINUED']);
    expect(await outboxWritten('after')).toEqual([true, true, true]);
    await deliveriesWhen(client, (all) => all.length >= 4 && all.every((delivery) => delivery.status === 'DELIVERED'));
    expect(ofType(receiver, 'session.continued')).toHaveLength(1);
  });

  it('follows no redirect and gives up on an answer that does not come in time, retrying both', async () => {
    const client = await server.newAccount('odd receivers');
    const receiver = await registered(client, ['SESSION_ERASED']);
    receiver.answerWith(307);
    receiver.stall(1);
    const session = await createSession(client, 'to erase');
    await client.data('mutation ($s: ID!) { eraseSession(input: { sessionId: $s, scope: SESSION, reason: "test" }) { __typename } }', { s: session });

    const [delivery] = await deliveriesWhen(client, ([only]) => only?.status === 'DELIVERED');
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 3 });
    expect(receiver.paths).toEqual(['/hooks', '/hooks', '/hooks']);
    expect(receiver.received.map((hook) => hook.answered)).toEqual([307, 200]);
  });
});
