import { GraphQLTestClient } from './helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage } from './helpers/continuations';
import { startTestServer, TestServer } from './helpers/test-server';

const RANGE = `query ($s: ID!, $a: ID!, $b: ID!, $m: ID) {
  eventRange(sessionId: $s, fromEventId: $a, toEventId: $b, recallFor: $m) { seq } }`;

describe('recall of omitted sources', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('recaller');
  });
  afterAll(() => server.close());

  it('counts exact reads of an omitted item per manifest, and nothing else', async () => {
    const sessionId = await createSession(client, 'long');
    const paste = await postMessage(client, sessionId, `Here is the whole log: ${'line of log output '.repeat(2000)}`);
    const answer = await postMessage(client, sessionId, 'And a short note');
    await postMessage(client, sessionId, 'Continue with what matters');
    const result = await continueSession(
      client,
      continuation(sessionId, {
        tokenBudget: 1500,
        sources: [
          { kind: 'SESSION_EVENT', relevance: 'the log', sessionId, eventId: paste },
          { kind: 'SESSION_EVENT', relevance: 'the note', sessionId, eventId: answer },
        ],
      }),
    );
    const manifestQuery = `query ($id: ID!) { session(id: $id) { continuedFrom { manifest { id items { relevance status recallCount } } } } }`;
    const manifestOf = async () =>
      (await client.data<any>(manifestQuery, { id: result.successor!.id })).session.continuedFrom.manifest;
    const manifest = await manifestOf();
    expect(manifest.items.find((item: any) => item.relevance === 'the log')).toMatchObject({ status: 'OMITTED', recallCount: 0 });

    await client.data(RANGE, { s: sessionId, a: paste, b: paste, m: manifest.id });
    await client.data(RANGE, { s: sessionId, a: paste, b: paste, m: manifest.id });
    // The recent exchange is the range from the log to the note: this read recalls it exactly.
    await client.data(RANGE, { s: sessionId, a: paste, b: answer, m: manifest.id });
    // Without recallFor a read counts for no manifest.
    await client.data(RANGE, { s: sessionId, a: paste, b: paste });

    const counted = await manifestOf();
    expect(counted.items.map((item: any) => [item.relevance, item.status, item.recallCount])).toEqual([
      ['the initiating user message', 'INCLUDED', 0],
      ['recent exchange before the initiating message', 'OMITTED', 1],
      ['the log', 'OMITTED', 2],
      ['the note', 'INCLUDED', 0],
    ]);

    const unknown = await client.request(RANGE, { s: sessionId, a: paste, b: paste, m: '0d6b2c1e-4f5a-4b7c-9d8e-1f2a3b4c5d6e' });
    expect(unknown.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', details: [{ path: ['recallFor'] }] });
  });
});
