import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage, settleRuns } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';
import { EVENT_READS } from '../../src/modules/continuation/continuation.repository';

const PUT = 'mutation ($url: String!, $blocks: [ResourceBlockInput!]!) { putResource(input: { url: $url, blocks: $blocks }) { version cid } }';
const MANIFEST = `query ($id: ID!) { session(id: $id) { pinnedResources { url version blockId }
  continuedFrom { manifest { transferredState { pinnedResources { url version blockId } }
    items { kind status relevance url version blockId path cid tokenCount hash }
    context { sections { kind text } } } } } }`;

describe('resource and memory sources in a projection', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('sourcer');
  });
  afterAll(() => server.close());

  async function continueCiting(sources: unknown[], transfer?: unknown) {
    const sessionId = await createSession(client, 'with sources');
    await postMessage(client, sessionId, 'use the spec');
    const result = await continueSession(client, continuation(sessionId, { sources, ...(transfer ? { transfer } : {}) }));
    if (!result.successor) return { result, manifest: null };
    const { session } = await client.data<any>(MANIFEST, { id: result.successor.id });
    return { result, manifest: session.continuedFrom.manifest, session };
  }

  it('pins the exact version it selected: a newer version later changes nothing, an explicit v1 stays v1', async () => {
    await client.data(PUT, { url: 'https://docs.example/spec', blocks: [{ id: 'intro', text: 'Version one intro' }, { id: 'body', text: 'Version one body' }] });
    const { result } = await continueCiting([{ kind: 'RESOURCE', relevance: 'the spec', url: 'https://docs.example/spec' }]);
    await client.data(PUT, { url: 'https://docs.example/spec', blocks: [{ id: 'intro', text: 'Version two intro' }] });
    const latest = (await client.data<any>(MANIFEST, { id: result.successor!.id })).session.continuedFrom.manifest;

    const item = latest.items[latest.items.length - 1];
    expect(item).toMatchObject({ kind: 'RESOURCE', status: 'INCLUDED', url: 'https://docs.example/spec', version: '1' });
    const excerpt = latest.context.sections.find((section: any) => section.kind === 'EXCERPT').text;
    expect(excerpt).toContain('Version one body');

    const { manifest: pinnedV1 } = await continueCiting([
      { kind: 'RESOURCE', relevance: 'the old intro', url: 'https://docs.example/spec', version: '1', blockId: 'intro' },
    ]);
    const block = pinnedV1.items[pinnedV1.items.length - 1];
    expect(block).toMatchObject({ status: 'INCLUDED', version: '1', blockId: 'intro' });
    const text = pinnedV1.context.sections.find((section: any) => section.kind === 'EXCERPT').text;
    expect(text).toContain('Version one intro');
    expect(text).not.toContain('Version one body');
    expect(text).not.toContain('Version two');
  });

  it('shows a revoked resource as UNAVAILABLE, never its text nor a substitute, and still continues', async () => {
    await client.data(PUT, { url: 'https://docs.example/secret', blocks: [{ id: 'a', text: 'classified words' }] });
    await client.data('mutation { revokeResource(url: "https://docs.example/secret") { revoked } }');
    const { result, manifest } = await continueCiting([{ kind: 'RESOURCE', relevance: 'the secret', url: 'https://docs.example/secret', version: '1' }]);
    expect(result.__typename).toBe('ContinueSessionSuccess');
    expect(manifest.items[manifest.items.length - 1]).toMatchObject({ kind: 'RESOURCE', status: 'UNAVAILABLE', version: '1', hash: null, tokenCount: 0 });
    const context = manifest.context.sections.map((section: any) => section.text).join('\n');
    expect(context).not.toContain('classified words');
    expect(context).toContain('unavailable (revoked, not substituted): resource https://docs.example/secret version 1');
  });

  it('cites memory by content id, and refuses sources that do not exist', async () => {
    const { writeMemory } = await client.data<any>('mutation { writeMemory(input: { path: "/notes/decisions", content: "Use PostgreSQL 15" }) { cid } }');
    const { manifest } = await continueCiting([{ kind: 'MEMORY', relevance: 'decisions', path: '/notes/decisions', cid: writeMemory.cid }]);
    expect(manifest.items[manifest.items.length - 1]).toMatchObject({ kind: 'MEMORY', status: 'INCLUDED', path: '/notes/decisions', cid: writeMemory.cid });
    expect(manifest.context.sections.find((section: any) => section.kind === 'EXCERPT').text).toContain('Use PostgreSQL 15');

    const { result } = await continueCiting([
      { kind: 'RESOURCE', relevance: 'nowhere', url: 'https://docs.example/missing' },
      { kind: 'MEMORY', relevance: 'nothing', path: '/notes/decisions', cid: 'f'.repeat(64) },
    ]);
    expect(result).toMatchObject({
      code: 'SOURCE_NOT_FOUND',
      details: [{ path: ['input', 'sources', '0'] }, { path: ['input', 'sources', '1'] }],
    });
  });

  it('carries pinned resources only when named, at the exact version they resolved to', async () => {
    await client.data(PUT, { url: 'https://docs.example/pinned', blocks: [{ id: 'x', text: 'pinned text' }] });
    const { manifest, session } = await continueCiting([], { pinnedResources: [{ url: 'https://docs.example/pinned' }] });
    expect(manifest.transferredState.pinnedResources).toEqual([{ url: 'https://docs.example/pinned', version: '1', blockId: null }]);
    expect(session.pinnedResources).toEqual([{ url: 'https://docs.example/pinned', version: '1', blockId: null }]);
    expect(manifest.context.sections.find((section: any) => section.kind === 'PINNED_SOURCE').text).toContain('pinned text');
    const { manifest: without } = await continueCiting([]);
    expect(without.transferredState.pinnedResources).toEqual([]);
  });
});

describe('event sources in a projection', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('citer');
  });
  afterAll(() => server.close());

  const MANIFEST_OF = `query ($id: ID!) { session(id: $id) { continuedFrom { manifest { id
    items { kind status relevance fromEventId toEventId eventId tokenCount recallCount }
    context { sections { kind text } } } } } }`;
  const PREVIEW_ITEMS = `query ($input: ContinueSessionInput!) { previewProjection(input: $input) {
    ... on ProjectionPreview { items { kind status relevance fromEventId toEventId eventId tokenCount } } } }`;

  async function sessionOf(messages: string[]): Promise<string[]> {
    const sessionId = await createSession(client, 'cited');
    const ids = [];
    for (const text of messages) ids.push(await postMessage(client, sessionId, text));
    await settleRuns(server, sessionId);
    return [sessionId, ...ids];
  }

  const manifestOf = async (successorId: string) => (await client.data<any>(MANIFEST_OF, { id: successorId })).session.continuedFrom.manifest;

  async function continued(input: Record<string, unknown>): Promise<string> {
    const result = await continueSession(client, input);
    expect(result.__typename).toBe('ContinueSessionSuccess');
    return result.successor!.id;
  }

  const shownTimes = (manifest: any, ids: string[]) => {
    const context = manifest.context.sections.map((section: { text: string }) => section.text).join('\n\n');
    return ids.map((id) => context.split(`[event ${id} `).length - 1);
  };

  it('shows each event of a six-message session once when the whole session is cited', async () => {
    const [sessionId, ...events] = await sessionOf(['one', 'two', 'three', 'four', 'five', 'six: continue from here']);
    const whole = { kind: 'SESSION_EVENTS', relevance: 'the whole session', sessionId, fromEventId: events[0], toEventId: events[5] };
    const manifest = await manifestOf(await continued(continuation(sessionId, { sources: [whole] })));
    expect(shownTimes(manifest, events)).toEqual([1, 1, 1, 1, 1, 1]);
    const excerpt = manifest.context.sections.find((section: { kind: string }) => section.kind === 'EXCERPT').text;
    expect(excerpt).toContain('events seq 1-5: see the recent exchange above');
    expect(excerpt).toContain('event seq 6: see the initiating message above');
    expect(manifest.items.filter((item: any) => item.relevance === 'the whole session')).toEqual([
      { kind: 'SESSION_EVENTS', status: 'INCLUDED', relevance: 'the whole session', fromEventId: events[0], toEventId: events[5], eventId: null, tokenCount: 0, recallCount: 0 },
    ]);
  });

  it('splits a cited range too large for the budget: its end included, its start left out and recallable', async () => {
    // Four pastes of about 800 tokens each: more than the whole budget, so only their end is read.
    const paste = (n: number) => `paste ${n}: ${'detail '.repeat(800)}`;
    const [sessionId, ...events] = await sessionOf([1, 2, 3, 4].map(paste).concat(Array.from({ length: 9 }, (_, i) => `note ${i + 5}`)));
    const pastes = { kind: 'SESSION_EVENTS', relevance: 'the pastes', sessionId, fromEventId: events[0], toEventId: events[3] };
    const input = continuation(sessionId, { tokenBudget: 2000, sources: [pastes] });
    const { previewProjection } = await client.data<any>(PREVIEW_ITEMS, { input });
    const logger = server.app.database.dataSource.logger;
    const reads = jest.spyOn(logger, 'logQuery');
    const successorId = await continued(input);
    // The end it shows was read in the round trip that took the lock, not by a query of its own.
    const texts = reads.mock.calls.map(([query]) => (typeof query === 'string' ? query : (query as { text: string }).text));
    reads.mockRestore();
    expect(texts.some((text) => text.includes('FOR UPDATE'))).toBe(true);
    expect(texts.filter((text) => text.includes(EVENT_READS))).toEqual([]);
    const manifest = await manifestOf(successorId);

    const cited = manifest.items.filter((item: any) => item.relevance === 'the pastes');
    expect(cited.map((item: any) => item.status)).toEqual(['OMITTED', 'INCLUDED']);
    const [omitted, included] = cited;
    expect(omitted.fromEventId).toBe(events[0]);
    expect(included.toEventId).toBe(events[3]);
    // No gap and no overlap: the part left out ends just before the included end begins.
    const cut = events.indexOf(included.fromEventId);
    expect(cut).toBeGreaterThan(0);
    expect(omitted.toEventId).toBe(events[cut - 1]);
    expect(shownTimes(manifest, events.slice(0, 4))).toEqual([0, 1, 2, 3].map((index) => (index >= cut ? 1 : 0)));
    const handles = manifest.context.sections.find((section: { kind: string }) => section.kind === 'OMITTED_HANDLES').text;
    expect(handles).toContain(`events ${omitted.fromEventId}..${omitted.toEventId}, ${omitted.tokenCount} tokens (read_events): the pastes`);
    // A preview reads without the lock's prefetch and compiles the same items.
    expect(previewProjection.items).toEqual(manifest.items.map(({ recallCount, ...item }: any) => item));

    await client.data(
      'query ($s: ID!, $a: ID!, $b: ID!, $m: ID) { eventRange(sessionId: $s, fromEventId: $a, toEventId: $b, recallFor: $m) { id } }',
      { s: sessionId, a: omitted.fromEventId, b: omitted.toEventId, m: manifest.id },
    );
    const recalled = await manifestOf(successorId);
    expect(recalled.items.filter((item: any) => item.relevance === 'the pastes').map((item: any) => item.recallCount)).toEqual([1, 0]);
  });
});
