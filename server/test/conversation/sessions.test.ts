import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const SESSION_FIELDS = 'id kind status title description createdAt eventCount tokenCount';

describe('sessions', () => {
  let server: TestServer;
  let alice: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await server.newAccount('alice');
  });
  afterAll(() => server.close());

  it('creates an empty ROOT session that the owner can read back', async () => {
    const { createSession } = await alice.data<{ createSession: Record<string, unknown> }>(
      `mutation { createSession(input: { title: "Plan the launch", description: "Q3" }) { ${SESSION_FIELDS} } }`,
    );
    expect(createSession).toMatchObject({
      kind: 'ROOT',
      status: 'ACTIVE',
      title: 'Plan the launch',
      description: 'Q3',
      eventCount: 0,
      tokenCount: 0,
    });
    const { session } = await alice.data<{ session: Record<string, unknown> }>(
      `query ($id: ID!) { session(id: $id) { ${SESSION_FIELDS} } }`,
      { id: createSession.id },
    );
    expect(session).toEqual(createSession);
  });

  it('answers null for an unknown or malformed session id', async () => {
    const data = await alice.data<{ a: unknown; b: unknown }>(
      'query { a: session(id: "7d1d7a3c-3f43-4b8e-9e0c-8c4a1f1a2b3c") { id } b: session(id: "not-an-id") { id } }',
    );
    expect(data).toEqual({ a: null, b: null });
  });

  it('lists sessions newest first with cursor pagination and a total count', async () => {
    const bob = await server.newAccount('bob');
    const titles = ['one', 'two', 'three', 'four', 'five'];
    for (const title of titles) {
      await bob.data('mutation ($title: String!) { createSession(input: { title: $title }) { id } }', { title });
    }
    const query = `query ($after: String) { sessions(first: 2, after: $after) {
      edges { cursor node { title } } pageInfo { hasNextPage hasPreviousPage endCursor } totalCount } }`;
    type Page = {
      sessions: {
        edges: { node: { title: string } }[];
        pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string };
        totalCount: number;
      };
    };
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const { sessions }: Page = await bob.data<Page>(query, { after });
      expect(sessions.totalCount).toBe(5);
      expect(sessions.pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...sessions.edges.map((edge) => edge.node.title));
      pages += 1;
      if (!sessions.pageInfo.hasNextPage) break;
      after = sessions.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...titles].reverse());
  });

  it('filters by status and to lineage roots', async () => {
    const carol = await server.newAccount('carol');
    await carol.data('mutation { createSession(input: { title: "root" }) { id } }');
    const data = await carol.data<Record<string, { totalCount: number }>>(`query {
      active: sessions(status: ACTIVE) { totalCount }
      continued: sessions(status: CONTINUED) { totalCount }
      roots: sessions(rootsOnly: true) { totalCount }
    }`);
    expect(data).toEqual({ active: { totalCount: 1 }, continued: { totalCount: 0 }, roots: { totalCount: 1 } });
  });

  it('refuses a page larger than 100 and a foreign cursor with INVALID_INPUT', async () => {
    const tooLarge = await alice.request('query { sessions(first: 101) { totalCount } }');
    expect(tooLarge.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
    expect(tooLarge.errors?.[0].message).toMatch(/between 0 and 100/);
    const badCursor = await alice.request('query { sessions(after: "bm9wZQ") { totalCount } }');
    expect(badCursor.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
  });

  it('refuses an empty or oversized title with INVALID_INPUT and creates nothing', async () => {
    const dave = await server.newAccount('dave');
    for (const title of ['   ', 'x'.repeat(201)]) {
      const response = await dave.request('mutation ($title: String!) { createSession(input: { title: $title }) { id } }', {
        title,
      });
      expect(response.errors?.[0].extensions).toMatchObject({
        code: 'INVALID_INPUT',
        details: [{ path: ['input', 'title'] }],
      });
    }
    const { sessions } = await dave.data<{ sessions: { totalCount: number } }>('query { sessions { totalCount } }');
    expect(sessions.totalCount).toBe(0);
  });
});
