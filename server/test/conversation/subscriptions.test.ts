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
