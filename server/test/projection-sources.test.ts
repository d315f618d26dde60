import { GraphQLTestClient } from './helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage } from './helpers/continuations';
import { startTestServer, TestServer } from './helpers/test-server';

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
