import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';

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
    // The recent exchange (the log and the note) was split: a read of both parts has neither item's bounds.
    await client.data(RANGE, { s: sessionId, a: paste, b: answer, m: manifest.id });
    // Without recallFor a read counts for no manifest.
    await client.data(RANGE, { s: sessionId, a: paste, b: paste });

    const counted = await manifestOf();
    expect(counted.items.map((item: any) => [item.relevance, item.status, item.recallCount])).toEqual([
      ['the initiating user message', 'INCLUDED', 0],
      ['recent exchange before the initiating message', 'OMITTED', 2],
      ['recent exchange before the initiating message', 'INCLUDED', 0],
      ['the log', 'OMITTED', 2],
      ['the note', 'INCLUDED', 0],
    ]);

    const unknown = await client.request(RANGE, { s: sessionId, a: paste, b: paste, m: '0d6b2c1e-4f5a-4b7c-9d8e-1f2a3b4c5d6e' });
    expect(unknown.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', details: [{ path: ['recallFor'] }] });
  });
});

describe('every kind of manifest item opens exactly', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('opener');
  });
  afterAll(() => server.close());

  it('recalls event ranges, single events, resource versions and memory entries that did not fit', async () => {
    const big = 'a long passage of detail '.repeat(600);
    const sessionId = await createSession(client, 'everything');
    const first = await postMessage(client, sessionId, `first ${big}`);
    const second = await postMessage(client, sessionId, `second ${big}`);
    await postMessage(client, sessionId, 'now continue');
    await client.data('mutation ($b: String!) { putResource(input: { url: "https://docs.example/big", blocks: [{ id: "all", text: $b }] }) { version } }', { b: big });
    const { writeMemory } = await client.data<any>('mutation ($c: String!) { writeMemory(input: { path: "/big", content: $c }) { cid } }', { c: big });
    const result = await continueSession(
      client,
      continuation(sessionId, {
        tokenBudget: 1200,
        sources: [
          { kind: 'SESSION_EVENTS', relevance: 'range', sessionId, fromEventId: first, toEventId: second },
          { kind: 'SESSION_EVENT', relevance: 'single', sessionId, eventId: second },
          { kind: 'RESOURCE', relevance: 'resource', url: 'https://docs.example/big' },
          { kind: 'MEMORY', relevance: 'memory', path: '/big', cid: writeMemory.cid },
        ],
      }),
    );
    const query = `query ($id: ID!) { session(id: $id) { continuedFrom { manifest { id
      items { kind status relevance sessionId fromEventId toEventId eventId url version path cid hash recallCount } } } } }`;
    const manifestOf = async () => (await client.data<any>(query, { id: result.successor!.id })).session.continuedFrom.manifest;
    const manifest = await manifestOf();
    const cited = manifest.items.slice(-4);
    expect(cited.map((item: any) => item.status)).toEqual(['OMITTED', 'OMITTED', 'OMITTED', 'OMITTED']);

    const [range, single, resource, memory] = cited;
    const m = manifest.id;
    const events = await client.data<any>(
      'query ($s: ID!, $a: ID!, $b: ID!, $m: ID) { eventRange(sessionId: $s, fromEventId: $a, toEventId: $b, recallFor: $m) { id } }',
      { s: range.sessionId, a: range.fromEventId, b: range.toEventId, m },
    );
    expect(events.eventRange.map((event: any) => event.id)).toEqual([first, second]);
    await client.data(
      'query ($s: ID!, $a: ID!, $m: ID) { eventRange(sessionId: $s, fromEventId: $a, toEventId: $a, recallFor: $m) { id } }',
      { s: single.sessionId, a: single.eventId, m },
    );
    const version = await client.data<any>(
      'query ($u: String!, $v: String!, $m: ID) { resourceVersion(url: $u, version: $v, recallFor: $m) { blocks { text } } }',
      { u: resource.url, v: resource.version, m },
    );
    expect(version.resourceVersion.blocks[0].text).toBe(big);
    const entry = await client.data<any>('query ($p: String!, $c: String, $m: ID) { memory(path: $p, cid: $c, recallFor: $m) { content } }', {
      p: memory.path,
      c: memory.cid,
      m,
    });
    expect(entry.memory.content).toBe(big);

    const after = await manifestOf();
    expect(after.items.slice(-4).map((item: any) => [item.relevance, item.recallCount])).toEqual([
      ['range', 1],
      ['single', 1],
      ['resource', 1],
      ['memory', 1],
    ]);
  });
});
