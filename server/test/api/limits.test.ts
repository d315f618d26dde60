import { getIntrospectionQuery } from 'graphql';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

/** `levels` fragments, each spreading the one before twice: a small document asking for 2^levels fields. */
function fragmentBomb(levels: number): string {
  const fragments = ['fragment G0 on Session { id title }'];
  for (let level = 1; level <= levels; level++) fragments.push(`fragment G${level} on Session { ...G${level - 1} ...G${level - 1} }`);
  return `query { sessions(first: 1) { edges { node { ...G${levels} } } } }\n${fragments.join('\n')}`;
}

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
    // The key's first use is written in the background, not as part of the refused request.
    await client.data('query { viewer { id } }');
    const before = await server.settledQueryCount();
    const response = await client.request(nestedPredecessors(60));
    expect(response.status).toBe(400);
    expect(response.errors?.[0]).toMatchObject({
      message: 'Query depth limit of 15 exceeded, found 64.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    // Nothing was executed: the database saw no query for it.
    expect(server.app.database.queryCount() - before).toBe(0);
  });

  it('refuses a fragment bomb as too complex while answering other requests, checking each fragment once', async () => {
    const bomb = fragmentBomb(24);
    expect(bomb.length).toBeLessThan(1500);
    const [refused, answered] = await Promise.all([client.request(bomb), client.request('query { viewer { name } }')]);
    expect(refused.status).toBe(400);
    expect(refused.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(answered).toEqual({ status: 200, data: { viewer: { name: 'limits' } } });
  });

  it('refuses a 40-level fragment bomb as quickly, over HTTP and WebSocket', async () => {
    const refused = await client.request(fragmentBomb(40));
    expect(refused.status).toBe(400);
    expect(refused.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const ws = client.websocket();
    try {
      const subscription = collect(ws, fragmentBomb(40), {});
      await subscription.until(1);
      expect(subscription.errors).toEqual([[expect.objectContaining({ extensions: { code: 'QUERY_TOO_COMPLEX' } })]]);
    } finally {
      await ws.dispose();
    }
  }, 5000);

  it('counts the depth of fragments spread inside fragments, each once', async () => {
    const fragments = Array.from({ length: 20 }, (_, level) =>
      level === 0 ? 'fragment D0 on Session { id }' : `fragment D${level} on Session { predecessor { ...D${level - 1} } ...D${level - 1} }`,
    );
    const response = await client.request(`query { sessions(first: 1) { edges { node { ...D19 } } } }\n${fragments.join('\n')}`);
    expect(response.status).toBe(400);
    expect(response.errors?.[0].message).toBe('Query depth limit of 15 exceeded, found 23.');
  });

  it('refuses more than 30 aliases, counting a fragment each time it is spread', async () => {
    const aliases = (count: number) => Array.from({ length: count }, (_, index) => `a${index}: id`).join(' ');
    const fifteen = `query { viewer { ...A ...A } } fragment A on Account { ${aliases(15)} }`;
    expect((await client.request(fifteen)).errors).toBeUndefined();
    const sixteen = `query { viewer { ...A ...A } } fragment A on Account { ${aliases(16)} }`;
    const response = await client.request(sixteen);
    expect(response.status).toBe(400);
    expect(response.errors?.[0]).toMatchObject({
      message: 'Aliases limit of 30 exceeded, found 32.',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('stops parsing a document of more than 5,000 tokens', async () => {
    const response = await client.request(`query { viewer { ${'id '.repeat(5000)} } }`);
    expect(response.status).toBe(400);
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/contains more th[ae][nt] 5000 tokens/),
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
    // Under the limit the same kind of document is parsed, and then refused by graphql-js's own validation.
    const parsed = await client.request(`query { viewer { ${'id '.repeat(4000)} } }`);
    expect(parsed.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuses it over WebSocket too', async () => {
    const ws = client.websocket();
    try {
      const subscription = collect(ws, `subscription { sessionContinued { successor { ${'predecessor { '.repeat(20)}id${' }'.repeat(20)} } } }`, {});
      await subscription.until(1);
      expect(JSON.stringify(subscription.errors)).toContain('depth limit of 15 exceeded');
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
