import { randomUUID } from 'node:crypto';
import { continuation, continueSession, createSession, postMessage } from '../helpers/continuations';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const NODE = `query ($id: ID!) { node(id: $id) {
  __typename id
  ... on Session { title }
  ... on Event { text }
  ... on ContinuationEdge { reason }
  ... on ProjectionManifest { tokenBudget }
  ... on Run { kind }
} }`;

describe('Query.node', () => {
  let server: TestServer;
  let owner: GraphQLTestClient;
  let stranger: GraphQLTestClient;
  let ids: { session: string; event: string; edge: string; manifest: string; run: string };

  beforeAll(async () => {
    server = await startTestServer();
    owner = await server.newAccount('owner');
    stranger = await server.newAccount('stranger');
    const session = await createSession(owner, 'predecessor');
    const event = await postMessage(owner, session, 'Plan the migration');
    const continued = await continueSession(owner, continuation(session, { tokenBudget: 4000 }));
    const { continuationEdge } = await owner.data<{ continuationEdge: { manifest: { id: string } } }>(
      'query ($id: ID!) { continuationEdge(id: $id) { manifest { id } } }',
      { id: continued.edge!.id },
    );
    ids = { session, event, edge: continued.edge!.id, manifest: continuationEdge.manifest.id, run: continued.run!.id };
  });
  afterAll(() => server.close());

  const node = async (client: GraphQLTestClient, id: string) => (await client.data<{ node: unknown }>(NODE, { id })).node;

  it('finds each kind of node by its id alone', async () => {
    expect(await node(owner, ids.session)).toEqual({ __typename: 'Session', id: ids.session, title: 'predecessor' });
    expect(await node(owner, ids.event)).toEqual({ __typename: 'Event', id: ids.event, text: 'Plan the migration' });
    expect(await node(owner, ids.edge)).toEqual({ __typename: 'ContinuationEdge', id: ids.edge, reason: 'TOPIC_CHANGE' });
    expect(await node(owner, ids.manifest)).toEqual({ __typename: 'ProjectionManifest', id: ids.manifest, tokenBudget: 4000 });
    expect(await node(owner, ids.run)).toEqual({ __typename: 'Run', id: ids.run, kind: 'TURN' });
  });

  it("answers null for another account's objects, exactly as for ones that do not exist", async () => {
    for (const id of Object.values(ids)) expect(await node(stranger, id)).toBeNull();
    expect(await node(owner, randomUUID())).toBeNull();
  });

  it('answers null for an id that is no UUID', async () => {
    for (const id of ['', 'garbage', `${ids.session}x`, "1' OR '1'='1"]) expect(await node(owner, id)).toBeNull();
  });
});
