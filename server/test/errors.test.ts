import { GraphQLTestClient } from './helpers/graphql-client';
import { startTestServer, TestServer } from './helpers/test-server';

async function rawPost(server: TestServer, body: string, apiKey: string | null) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body,
  });
  return { status: response.status, text: await response.text() };
}

describe('errors', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('errors');
  });
  afterAll(() => server.close());

  it('answers a malformed JSON body with 400 and a clear GraphQL-shaped error, no stack', async () => {
    const response = await rawPost(server, '{"query": "{ viewer { id } ', client.apiKey);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toEqual({
      errors: [{ message: 'The request body is not valid JSON.', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('answers an oversized body with 413', async () => {
    const response = await rawPost(server, JSON.stringify({ query: `{ viewer { id } }${' '.repeat(1_100_000)}` }), client.apiKey);
    expect(response.status).toBe(413);
    expect(response.text).not.toMatch(/\n\s+at /);
  });

  it('reports an unknown field as a validation error without a stack trace', async () => {
    const response = await client.request('query { viewer { password } }');
    expect(response.status).toBe(400);
    expect(response.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify(response)).not.toContain('stacktrace');
  });

  it('masks an unexpected failure as "Internal server error" with a code and no stack trace', async () => {
    const broken = await startTestServer();
    const brokenClient = await broken.newAccount('broken');
    await broken.app.database.dataSource.query('ALTER TABLE sessions RENAME COLUMN title TO headline');
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await brokenClient.request('mutation { createSession(input: { title: "x" }) { id } }');
      expect(response.errors).toEqual([
        expect.objectContaining({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
      ]);
      expect(JSON.stringify(response)).not.toMatch(/headline|title|stacktrace|QueryFailed/i);
      expect(log).toHaveBeenCalledWith('Unexpected error in a GraphQL operation:', expect.anything());
    } finally {
      log.mockRestore();
      await broken.app.database.dataSource.query('ALTER TABLE sessions RENAME COLUMN headline TO title');
      await broken.close();
    }
  });
});
