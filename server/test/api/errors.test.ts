import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

async function rawPost(server: TestServer, body: string | Buffer, apiKey: string | null, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** A POST whose body is streamed in chunks, with no Content-Length announcing its size. */
function chunkedPost(server: TestServer, chunks: string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
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

  it('answers a body over the limit with 413 also when it arrives in chunks of unannounced size', async () => {
    const chunk = ' '.repeat(64 * 1024);
    const response = await chunkedPost(server, ['{"query": "', ...Array.from({ length: 20 }, () => chunk), '{ viewer { id } }"}']);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.text).errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('reads a gzip-compressed body, and refuses one that does not decompress or is not UTF-8', async () => {
    const compressed = await rawPost(server, gzipSync(JSON.stringify({ query: '{ viewer { name } }' })), client.apiKey, {
      'content-encoding': 'gzip',
    });
    expect(JSON.parse(compressed.text)).toEqual({ data: { viewer: { name: 'errors' } } });

    const corrupt = await rawPost(server, 'not gzip at all', client.apiKey, { 'content-encoding': 'gzip' });
    expect(corrupt.status).toBe(400);
    expect(JSON.parse(corrupt.text).errors[0].message).toBe('The request body could not be decompressed.');

    const latin1 = await rawPost(server, '{"query": "{ viewer { id } }"}', client.apiKey, { 'content-type': 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
    expect(JSON.parse(latin1.text).errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('reports an unknown field as a validation error without a stack trace', async () => {
    const response = await client.request('query { viewer { password } }');
    expect(response.status).toBe(400);
    expect(response.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify(response)).not.toContain('stacktrace');
  });

  it('masks an unexpected failure as "Internal server error" with a code and no stack trace', async () => {
    const broken = await startTestServer({ logLevel: "silent" });
    const brokenClient = await broken.newAccount('broken');
    await broken.app.database.dataSource.query('ALTER TABLE sessions RENAME COLUMN title TO headline');
    try {
      const response = await brokenClient.request('mutation { createSession(input: { title: "x" }) { id } }');
      expect(response.errors).toEqual([
        expect.objectContaining({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: expect.any(String) } }),
      ]);
      expect(JSON.stringify(response)).not.toMatch(/headline|title|stacktrace|QueryFailed/i);
    } finally {
      await broken.app.database.dataSource.query('ALTER TABLE sessions RENAME COLUMN headline TO title');
      await broken.close();
    }
  });
});
