import { GraphQLTestClient } from '../helpers/graphql-client';
import { CONTINUE, continuation, createSession, postMessage } from '../helpers/continuations';
import { TestServer, startTestServer } from '../helpers/test-server';

const RECOMMEND = `query ($sessionId: ID!, $purpose: String!) {
  recommendSources(sessionId: $sessionId, purpose: $purpose, first: 20) { kind url version blockId path cid score reason tokenCount }
}`;
const PUT = 'mutation ($url: String!, $blocks: [ResourceBlockInput!]!) { putResource(input: { url: $url, blocks: $blocks }) { version cid } }';
const WRITE = 'mutation ($path: String!, $content: String!) { writeMemory(input: { path: $path, content: $content }) { cid } }';
const MANIFEST = `query ($id: ID!) { session(id: $id) { continuedFrom { manifest {
  items { kind status origin score url version blockId path cid } context { sections { kind text } }
} } } }`;

interface Recommendation {
  kind: string;
  url: string | null;
  version: string | null;
  blockId: string | null;
  path: string | null;
  cid: string | null;
  score: number;
  reason: string;
  tokenCount: number;
}

const ROTATION = 'The signing keys are rotated every ninety days by the security team.';
const ROTA = 'The on-call rota changes every Monday at nine.';

describe('assisted selection of resources and memory', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let session: string;
  let rotaCid: string;

  const recommend = async (purpose: string) =>
    (await client.data<{ recommendSources: Recommendation[] }>(RECOMMEND, { sessionId: session, purpose })).recommendSources;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('librarian');
    await client.data(PUT, {
      url: 'https://runbooks.example/keys',
      blocks: [
        { id: 'intro', text: 'How this runbook is organised.' },
        { id: 'rotation', text: ROTATION },
      ],
    });
    await client.data(PUT, { url: 'https://old.example/keys', blocks: [{ id: 'all', text: 'Signing keys were rotated yearly.' }] });
    await client.data('mutation { revokeResource(url: "https://old.example/keys") { url } }');
    rotaCid = (await client.data<{ writeMemory: { cid: string } }>(WRITE, { path: '/notes/on-call', content: ROTA })).writeMemory.cid;
    const stranger = await server.newAccount('stranger');
    await stranger.data(PUT, { url: 'https://secret.example/keys', blocks: [{ id: 'all', text: 'Our signing keys rotate every week.' }] });
    session = await createSession(client, 'Security review');
    await postMessage(client, session, 'Let us review the security setup.');
  });

  afterAll(() => server?.close());

  it('recommends the matching block of the latest version of a resource, not a revoked one, not another account’s', async () => {
    const recommendations = await recommend('How often are the signing keys rotated?');
    const resources = recommendations.filter((recommendation) => recommendation.kind === 'RESOURCE');
    expect(resources).toEqual([
      expect.objectContaining({ url: 'https://runbooks.example/keys', version: '1', blockId: 'rotation', path: null, cid: null }),
    ]);
    expect(resources[0].reason).toContain('"signing"');
    expect(resources[0].tokenCount).toBeGreaterThan(0);
  });

  it('recommends the memory entry its path names now, by its content id', async () => {
    const memories = (await recommend('When does the on-call rota change?')).filter((recommendation) => recommendation.kind === 'MEMORY');
    expect(memories).toEqual([expect.objectContaining({ path: '/notes/on-call', cid: rotaCid, url: null })]);
    await client.data(WRITE, { path: '/notes/on-call', content: 'Nobody is on call this month.' });
    expect((await recommend('When does the on-call rota change?')).filter((recommendation) => recommendation.kind === 'MEMORY')).toEqual([]);
  });

  it('carries a recommended block into the context once, as a RECOMMENDED item, also when it is cited', async () => {
    const handoff = { purpose: 'Check how often the signing keys are rotated', currentRequest: 'Confirm the rotation period' };
    const compiledFor = async (sources: unknown[]) => {
      const { continueSession } = await client.data<{ continueSession: { successor: { id: string } } }>(CONTINUE, {
        input: continuation(session, { title: 'Keys', assist: true, handoff, sources }),
      });
      const { session: successor } = await client.data<{
        session: { continuedFrom: { manifest: { items: Record<string, unknown>[]; context: { sections: { text: string }[] } } } };
      }>(MANIFEST, { id: continueSession.successor.id });
      session = continueSession.successor.id;
      await server.app.database.dataSource.query(`UPDATE runs SET status = 'SUCCEEDED' WHERE session_id = $1`, [session]);
      await postMessage(client, session, 'And now?');
      return successor.continuedFrom.manifest;
    };
    const occurrences = (manifest: { context: { sections: { text: string }[] } }) =>
      manifest.context.sections.map((section) => section.text.split(ROTATION).length - 1).reduce((sum, count) => sum + count, 0);

    const assisted = await compiledFor([]);
    expect(assisted.items).toContainEqual(
      expect.objectContaining({ kind: 'RESOURCE', status: 'INCLUDED', origin: 'RECOMMENDED', url: 'https://runbooks.example/keys', blockId: 'rotation' }),
    );
    expect(occurrences(assisted)).toBe(1);

    const cited = await compiledFor([{ kind: 'RESOURCE', relevance: 'the runbook', url: 'https://runbooks.example/keys', blockId: 'rotation' }]);
    const items = cited.items.filter((item) => item.kind === 'RESOURCE');
    expect(items).toEqual([expect.objectContaining({ status: 'INCLUDED', origin: 'CITED', blockId: 'rotation' })]);
    expect(occurrences(cited)).toBe(1);
  });
});
