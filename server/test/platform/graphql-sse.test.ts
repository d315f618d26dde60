import { NetworkError } from 'graphql-sse';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const CREATE = 'mutation { createSession(input: { title: "over SSE" }) { id } }';
const POST = 'mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { __typename } }';
const EVENTS = 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { seq text } }';

describe('GraphQL over Server-Sent Events at /graphql/stream', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('streamer');
  });
  afterAll(() => server.close());

  it('runs a query, a mutation and a subscription, each in a stream of its own', async () => {
    const sse = client.sse();
    try {
      const viewer = collect<{ viewer: { name: string } }>(sse, 'query { viewer { name } }', {});
      await viewer.until(1);
      expect(viewer.values).toEqual([{ viewer: { name: 'streamer' } }]);

      const created = collect<{ createSession: { id: string } }>(sse, CREATE, {});
      await created.until(1);
      const s = created.values[0].createSession.id;

      const events = collect<{ sessionEvents: { seq: number; text: string } }>(sse, EVENTS, { s });
      await waitForListeners(server, s, 1);
      for (const t of ['one', 'two']) await client.data(POST, { s, t });
      await events.until(2);
      expect(events.errors).toEqual([]);
      expect(events.values.map((value) => value.sessionEvents.text)).toEqual(['one', 'two']);
      // Unsubscribing from a quiet session leaves no listener behind.
      events.unsubscribe();
      await waitForListeners(server, s, 0);
    } finally {
      sse.dispose();
    }
  });

  it('refuses a request without a valid key with 401', async () => {
    const stranger = new GraphQLTestClient(server.url, 'not-a-key').sse();
    const refused = collect(stranger, 'query { viewer { id } }', {});
    await refused.until(1);
    const error = refused.errors[0];
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).response?.status).toBe(401);
    stranger.dispose();
  });

  it("checks access as the subscription starts: another account's session is NOT_FOUND", async () => {
    const { createSession } = await client.data<{ createSession: { id: string } }>(CREATE);
    const other = (await server.newAccount('outsider')).sse();
    try {
      const refused = collect(other, EVENTS, { s: createSession.id });
      await refused.until(1);
      expect(refused.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
    } finally {
      other.dispose();
    }
  });

  it('applies the operation limits of the other transports, answering in the stream', async () => {
    const aliases = Array.from({ length: 40 }, (_, index) => `a${index}: id`).join(' ');
    const sse = client.sse();
    try {
      const refused = collect(sse, `query { viewer { ${aliases} } }`, {});
      await refused.until(1);
      expect(refused.values).toEqual([]);
      expect(refused.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }) })]);
    } finally {
      sse.dispose();
    }
  });

  it('answers a subscription sent over plain HTTP with 400 saying where to subscribe', async () => {
    const response = await client.request(EVENTS, { s: '00000000-0000-4000-8000-000000000000' });
    expect(response.status).toBe(400);
    expect(response.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_REQUEST' }) })]);
    expect(response.errors![0].message).toMatch(/\/graphql\/stream/);
  });
});

async function waitForListeners(server: TestServer, sessionId: string, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (server.app.subscriptions.listenerCount('SESSION_EVENT', sessionId) !== count) {
    if (Date.now() > deadline) throw new Error(`Expected ${count} listeners of the session`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a server stopping with event streams open', () => {
  it('ends them, so that it stops at once rather than after the grace period', async () => {
    const server = await startTestServer();
    const client = await server.newAccount('leaving');
    const { createSession } = await client.data<{ createSession: { id: string } }>(CREATE);
    const sse = client.sse();
    const events = collect(sse, EVENTS, { s: createSession.id });
    await waitForListeners(server, createSession.id, 1);
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await events.until(1).catch(() => undefined);
    expect(events.completed || events.errors.length > 0).toBe(true);
    sse.dispose();
  });
});
