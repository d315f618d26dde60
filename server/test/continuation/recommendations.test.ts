import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage, settleRuns } from '../helpers/continuations';
import { TestServer, startTestServer } from '../helpers/test-server';

const RECOMMEND = `query ($sessionId: ID!, $purpose: String!, $first: Int) {
  recommendSources(sessionId: $sessionId, purpose: $purpose, first: $first) {
    kind sessionId fromEventId toEventId eventId score reason tokenCount
  }
}`;

interface Recommendation {
  kind: string;
  sessionId: string;
  fromEventId: string | null;
  toEventId: string | null;
  eventId: string | null;
  score: number;
  reason: string;
  tokenCount: number;
}

const RANGE = `query ($s: ID!, $from: ID!, $to: ID!, $recall: ID) { eventRange(sessionId: $s, fromEventId: $from, toEventId: $to, recallFor: $recall) { id text } }`;

describe('recommendSources', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let origin: string;
  let successor: string;
  const ids: Record<string, string> = {};

  const recommend = async (variables: Record<string, unknown>) =>
    (await client.data<{ recommendSources: Recommendation[] }>(RECOMMEND, variables)).recommendSources;
  const textsOf = async (recommendation: Recommendation) => {
    const { eventRange } = await client.data<{ eventRange: { text: string }[] }>(RANGE, {
      s: recommendation.sessionId,
      from: recommendation.fromEventId ?? recommendation.eventId,
      to: recommendation.toEventId ?? recommendation.eventId,
    });
    return eventRange.map((event) => event.text);
  };

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('recommender');
    origin = await createSession(client, 'Platform');
    for (const [key, text] of [
      ['greeting', 'Morning! Lots to do today.'],
      ['question', 'Where should the nightly export land?'],
      ['fact', 'The nightly export job writes to the eu-west bucket.'],
      ['ack', 'Thanks, noted.'],
      ['lunch', 'Lunch at noon?'],
      ['sure', 'Sure.'],
      ['build', 'Did the build pass?'],
      ['green', 'Yes, all green.'],
      ['other', 'Let us also rename the staging cluster.'],
      ['long', `Naming notes: ${'the staging cluster needs a short, memorable name that nobody confuses with production. '.repeat(120)}`],
      ['more', 'The staging cluster gets the name harbor.'],
    ]) {
      ids[key] = await postMessage(client, origin, text);
    }
    const result = await continueSession(client, continuation(origin, { title: 'Rollout' }));
    successor = result.successor!.id;
    await settleRuns(server, successor);
    await postMessage(client, successor, 'Now plan the rollout.');
  });

  afterAll(() => server?.close());

  it('recommends the window around the event that matches the purpose, from anywhere in the lineage', async () => {
    const [best] = await recommend({ sessionId: successor, purpose: 'Which bucket does the nightly export go to?' });
    expect(best.kind).toBe('SESSION_EVENTS');
    expect(best.sessionId).toBe(origin);
    // The question matches too: its window and the fact's merge into one passage.
    expect(await textsOf(best)).toEqual([
      'Morning! Lots to do today.',
      'Where should the nightly export land?',
      'The nightly export job writes to the eu-west bucket.',
      'Thanks, noted.',
    ]);
    expect(best.reason).toContain('"bucket"');
    expect(best.tokenCount).toBeGreaterThan(0);
  });

  it('ranks best first and stops at first', async () => {
    const all = await recommend({ sessionId: successor, purpose: 'nightly export bucket and the staging cluster name', first: 50 });
    expect(all.length).toBeGreaterThan(1);
    const scores = all.map((recommendation) => recommendation.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(await recommend({ sessionId: successor, purpose: 'nightly export bucket and the staging cluster name', first: 1 })).toEqual([all[0]]);
  });

  it('boosts a source that was read back after a projection left it out', async () => {
    const purpose = 'the staging cluster name and the nightly export bucket';
    const before = await recommend({ sessionId: successor, purpose, first: 50 });
    const result = await continueSession(
      client,
      continuation(successor, {
        title: 'Tight',
        tokenBudget: 1_500,
        sources: [{ kind: 'SESSION_EVENTS', sessionId: origin, fromEventId: ids.other, toEventId: ids.more, relevance: 'naming' }],
      }),
    );
    expect(result.__typename).toBe('ContinueSessionSuccess');
    const { session } = await client.data<{
      session: { continuedFrom: { manifest: { id: string; items: { status: string; sessionId: string; fromEventId: string | null; toEventId: string | null; eventId: string | null }[] } } };
    }>('query ($id: ID!) { session(id: $id) { continuedFrom { manifest { id items { status sessionId fromEventId toEventId eventId } } } } }', {
      id: result.successor!.id,
    });
    const { manifest } = session.continuedFrom;
    const omitted = manifest.items.find((item) => item.status === 'OMITTED' && item.sessionId === origin)!;
    const bounds = { s: origin, from: omitted.fromEventId ?? omitted.eventId, to: omitted.toEventId ?? omitted.eventId, recall: manifest.id };
    await client.data(RANGE, bounds);
    await client.data(RANGE, bounds);
    const after = await recommend({ sessionId: successor, purpose, first: 50 });
    const holding = (list: Recommendation[]) =>
      list.find((recommendation) => recommendation.sessionId === origin && recommendation.reason.includes('"staging"'))!;
    expect(holding(after).reason).toContain('recalled 2 times');
    expect(holding(after).score).toBeGreaterThan(holding(before).score);
  });

  it("does not see another account's lineage, and refuses an empty or over-long purpose", async () => {
    const stranger = await server.newAccount('stranger');
    const probe = await stranger.request(RECOMMEND, { sessionId: successor, purpose: 'bucket' });
    expect(probe.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    for (const purpose of ['   ', 'x'.repeat(2_001)]) {
      const response = await client.request(RECOMMEND, { sessionId: successor, purpose });
      expect(response.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
    }
  });
});
