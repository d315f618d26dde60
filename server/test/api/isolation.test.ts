import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

describe('account isolation', () => {
  let server: TestServer;
  let owner: GraphQLTestClient;
  let stranger: GraphQLTestClient;
  let sessionId: string;
  let eventId: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await server.newAccount('owner');
    stranger = await server.newAccount('stranger');
    const { createSession } = await owner.data<{ createSession: { id: string } }>(
      'mutation { createSession(input: { title: "private" }) { id } }',
    );
    sessionId = createSession.id;
    const { postMessage } = await owner.data<{ postMessage: { event: { id: string } } }>(
      'mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "secret" }) { ... on PostMessageSuccess { event { id } } } }',
      { s: sessionId },
    );
    eventId = postMessage.event.id;
  });
  afterAll(() => server.close());

  it("shows another account's sessions and events over HTTP exactly as if they did not exist", async () => {
    const data = await stranger.data<Record<string, unknown>>(
      'query ($s: ID!, $e: ID!) { session(id: $s) { id } event(id: $e) { id } sessions { totalCount edges { node { id } } } }',
      { s: sessionId, e: eventId },
    );
    expect(data).toEqual({ session: null, event: null, sessions: { totalCount: 0, edges: [] } });

    const range = await stranger.request(
      'query ($s: ID!, $e: ID!) { eventRange(sessionId: $s, fromEventId: $e, toEventId: $e) { id } }',
      { s: sessionId, e: eventId },
    );
    expect(range.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const write = await stranger.data<{ postMessage: { code: string } }>(
      'mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "intrusion" }) { ... on OperationError { code } } }',
      { s: sessionId },
    );
    expect(write.postMessage.code).toBe('NOT_FOUND');
    const { session } = await owner.data<{ session: { eventCount: number } }>(
      'query ($s: ID!) { session(id: $s) { eventCount } }',
      { s: sessionId },
    );
    expect(session.eventCount).toBe(1);
  });

  it("refuses a WebSocket subscription to another account's session with NOT_FOUND", async () => {
    const ws = stranger.websocket();
    try {
      const subscription = collect(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s, afterSeq: 0) { id } }', {
        s: sessionId,
      });
      await subscription.until(1);
      expect(subscription.values).toEqual([]);
      expect(JSON.stringify(subscription.errors)).toContain('NOT_FOUND');
    } finally {
      await ws.dispose();
    }
  });

  it('refuses requests without a valid key: 401 over HTTP, a closed socket over WebSocket', async () => {
    for (const client of [new GraphQLTestClient(server.url, null), new GraphQLTestClient(server.url, 'sck_wrong')]) {
      const response = await client.request('query { viewer { id } }');
      expect(response.status).toBe(401);
      expect(response.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      const ws = client.websocket();
      const subscription = collect(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { id } }', { s: sessionId });
      await subscription.until(1);
      expect(subscription.values).toEqual([]);
      expect((subscription.errors[0] as { code?: number }).code).toBe(4403);
      await ws.dispose();
    }
  });

  it('lets only the admin key create accounts', async () => {
    const response = await owner.request('mutation { createAccount(name: "sneaky") { apiKey } }');
    expect(response.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const { viewer } = await owner.data<{ viewer: { name: string } }>('query { viewer { name } }');
    expect(viewer.name).toBe('owner');
  });
});
