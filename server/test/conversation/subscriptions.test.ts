import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const POST = 'mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { __typename } }';

describe('sessionEvents subscription', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('listener');
  });
  afterAll(() => server.close());

  it('replays the transcript after afterSeq, then streams new events in seq order without repeats', async () => {
    const { createSession } = await client.data<{ createSession: { id: string } }>(
      'mutation { createSession(input: { title: "live" }) { id } }',
    );
    const s = createSession.id;
    for (const t of ['one', 'two', 'three']) await client.data(POST, { s, t });

    const ws = client.websocket();
    try {
      const subscription = collect<{ sessionEvents: { seq: number; text: string; kind: string } }>(
        ws,
        'subscription ($s: ID!) { sessionEvents(sessionId: $s, afterSeq: 1) { seq text kind } }',
        { s },
      );
      await subscription.until(2);
      await Promise.all(['four', 'five', 'six'].map((t) => client.data(POST, { s, t })));
      await subscription.until(5);
      expect(subscription.errors).toEqual([]);
      const seqs = subscription.values.map((value) => value.sessionEvents.seq);
      expect(seqs).toEqual([2, 3, 4, 5, 6]);
      expect(subscription.values.slice(0, 2).map((value) => value.sessionEvents.text)).toEqual(['two', 'three']);
      expect(new Set(subscription.values.slice(2).map((value) => value.sessionEvents.text))).toEqual(
        new Set(['four', 'five', 'six']),
      );
    } finally {
      await ws.dispose();
    }
  });
});

describe('a subscription that ends', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('leaver');
  });
  afterAll(() => server.close());

  it('leaves no listener on a quiet session once the client completes it', async () => {
    const { createSession } = await client.data<{ createSession: { id: string } }>('mutation { createSession(input: { title: "quiet" }) { id } }');
    const s = createSession.id;
    const ws = client.websocket();
    try {
      const listeners = () => server.app.subscriptions.listenerCount('SESSION_EVENT', s);
      const subscription = collect(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { seq } }', { s });
      const deadline = Date.now() + 5_000;
      while (listeners() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(listeners()).toBe(1);
      subscription.unsubscribe();
      while (listeners() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(listeners()).toBe(0);
    } finally {
      await ws.dispose();
    }
  });
});

/** The subscription results this process executed and shared so far, from /metrics. */
async function subscriptionResults(url: string): Promise<{ executed: number; shared: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const count = (delivery: string) => Number(new RegExp(`^graphql_subscription_results_total\\{delivery="${delivery}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { executed: count('executed'), shared: count('shared') };
}

describe('subscribers of one session', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('watched');
  });
  afterAll(() => server.close());

  it('get each event executed once per selection and the same result, while another account is refused', async () => {
    const { createSession } = await client.data<{ createSession: { id: string } }>('mutation { createSession(input: { title: "watched" }) { id } }');
    const s = createSession.id;
    const sockets = Array.from({ length: 4 }, () => client.websocket());
    const stranger = await server.newAccount('stranger');
    const strangerSocket = stranger.websocket();
    try {
      const same = sockets.slice(0, 3).map((ws) => collect<{ sessionEvents: { seq: number; text: string } }>(ws, 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { seq text } }', { s }));
      const other = collect<{ sessionEvents: { seq: number; kind: string } }>(sockets[3], 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { seq kind } }', { s });
      const refused = collect(strangerSocket, 'subscription ($s: ID!) { sessionEvents(sessionId: $s) { seq text } }', { s });
      const deadline = Date.now() + 5_000;
      while (server.app.subscriptions.listenerCount('SESSION_EVENT', s) < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const before = await subscriptionResults(server.url);
      for (const t of ['one', 'two', 'three']) await client.data(POST, { s, t });
      await Promise.all([...same, other].map((subscription) => subscription.until(3)));
      const after = await subscriptionResults(server.url);

      for (const subscription of same) {
        expect(subscription.errors).toEqual([]);
        expect(subscription.values).toEqual([1, 2, 3].map((seq) => ({ sessionEvents: { seq, text: ['one', 'two', 'three'][seq - 1] } })));
      }
      expect(other.values).toEqual([1, 2, 3].map((seq) => ({ sessionEvents: { seq, kind: 'USER_MESSAGE' } })));
      // Three events, two selections: six executions; the two other subscribers of the first selection share them.
      expect(after.executed - before.executed).toBe(6);
      expect(after.shared - before.shared).toBe(6);
      await refused.until(1);
      expect(refused.values).toEqual([]);
      expect(JSON.stringify(refused.errors)).toMatch(/NOT_FOUND/);
    } finally {
      await Promise.all([...sockets, strangerSocket].map((ws) => ws.dispose()));
    }
  });
});
