import { getIntrospectionQuery } from 'graphql';
import { collect, GraphQLTestClient } from './helpers/graphql-client';
import { startTestServer, TestServer } from './helpers/test-server';

function nestedPredecessors(levels: number): string {
  return `query { sessions(first: 1) { edges { node { ${'predecessor { '.repeat(levels)}id${' }'.repeat(levels)} } } } }`;
}

describe('query limits', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('limits');
  });
  afterAll(() => server.close());

  it('refuses a 60-level nested predecessor query before executing it', async () => {
    await client.data('query { viewer { id } }');
    const before = server.app.database.queryCount();
    const response = await client.request(nestedPredecessors(60));
    expect(response.status).toBe(400);
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/nested 64 levels deep; at most 15/),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    // Nothing was executed: the database saw no query for it.
    expect(server.app.database.queryCount() - before).toBe(0);
  });

  it('refuses it over WebSocket too', async () => {
    const ws = client.websocket();
    try {
      const subscription = collect(ws, `subscription { sessionContinued { successor { ${'predecessor { '.repeat(20)}id${' }'.repeat(20)} } } }`, {});
      await subscription.until(1);
      expect(JSON.stringify(subscription.errors)).toContain('at most 15');
    } finally {
      await ws.dispose();
    }
  });

  it('still answers the standard introspection query that codegen and GraphiQL send, also in production', async () => {
    const { __schema } = await client.data<{ __schema: { types: { name: string }[] } }>(getIntrospectionQuery());
    expect(__schema.types.map((type) => type.name)).toEqual(expect.arrayContaining(['Session', 'ContinuationEdge']));

    // The Docker image runs with NODE_ENV=production, where Apollo Server's default turns introspection off.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const production = await startTestServer().finally(() => (process.env.NODE_ENV = nodeEnv));
    try {
      const productionClient = await production.newAccount('codegen');
      const introspected = await productionClient.data<{ __schema: { queryType: { name: string } } }>(getIntrospectionQuery());
      expect(introspected.__schema.queryType).toMatchObject({ name: 'Query' });
    } finally {
      await production.close();
    }
  });

  it('refuses an operation whose estimated cost is too high, counting page sizes', async () => {
    const response = await client.request(
      'query ($n: Int) { sessions(first: $n) { edges { node { events(first: 100) { edges { node { id text session { lineage { id title } } } } } } } } }',
      { n: 100 },
    );
    expect(response.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const small = await client.request(
      'query ($n: Int) { sessions(first: $n) { edges { node { events(first: 10) { edges { node { id } } } } } } }',
      { n: 5 },
    );
    expect(small.errors).toBeUndefined();
  });

  it('estimates the same query again when its page size variable changes', async () => {
    const query = 'query ($n: Int) { sessions(first: $n) { edges { node { events(first: 100) { edges { node { id text } } } } } } }';
    const onePage = await client.request(query, { n: 1 });
    expect(onePage.errors).toBeUndefined();
    const manyPages = await client.request(query, { n: 100 });
    expect(manyPages.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const onePageAgain = await client.request(query, { n: 1 });
    expect(onePageAgain.errors).toBeUndefined();
  });
});
