import { startTestServer, TestServer } from '../helpers/test-server';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { id: string; path: string; headers: Record<string, string> };
  res?: { statusCode: number };
  err?: { message: string };
}

/** A server logging at the default level into memory, as it would to standard output. */
async function loggingServer(): Promise<{ server: TestServer; lines: () => string[]; parsed: () => LogLine[] }> {
  const output: string[] = [];
  const server = await startTestServer({ logLevel: 'info', logDestination: { write: (line: string) => void output.push(line) } });
  return { server, lines: () => output, parsed: () => output.map((line) => JSON.parse(line) as LogLine) };
}

describe('logs', () => {
  it('writes each HTTP request as a JSON line with a request id the response echoes', async () => {
    const { server, parsed } = await loggingServer();
    try {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${server.admin.apiKey}` },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      });
      expect(response.status).toBe(200);
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      const line = parsed().find((entry) => entry.req?.id === requestId);
      expect(line).toEqual(expect.objectContaining({ msg: 'request completed', req: expect.objectContaining({ path: '/graphql' }), res: expect.objectContaining({ statusCode: 200 }) }));
    } finally {
      await server.close();
    }
  });

  it('never writes the Authorization header, an API key in a URL or the variables of a request', async () => {
    const { server, lines, parsed } = await loggingServer();
    try {
      const client = await server.newAccount('logged');
      await client.data('mutation ($title: String!) { createSession(input: { title: $title }) { id } }', { title: 'private-title-8121' });
      await fetch(`${server.url}/?key=${client.apiKey}`);
      const withHeader = parsed().find((entry) => entry.req?.headers.authorization !== undefined);
      expect(withHeader?.req?.headers.authorization).toBe('[Redacted]');
      const everything = lines().join('');
      expect(everything).not.toContain(client.apiKey!);
      expect(everything).not.toContain(server.admin.apiKey!);
      expect(everything).not.toContain('private-title-8121');
    } finally {
      await server.close();
    }
  });

  it('logs an unexpected error once, under the request id its response carries, without the values sent', async () => {
    const { server, lines, parsed } = await loggingServer();
    const client = await server.newAccount('broken');
    await server.app.database.dataSource.query('ALTER TABLE sessions RENAME COLUMN title TO headline');
    try {
      const response = await client.request('mutation ($title: String!) { createSession(input: { title: $title }) { id } }', {
        title: 'private-title-5930',
      });
      expect(response.errors).toEqual([
        expect.objectContaining({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: expect.any(String) } }),
      ]);
      const requestId = response.errors![0].extensions!.requestId;
      const logged = parsed().filter((entry) => entry.msg === 'Unexpected error in a GraphQL operation');
      expect(logged).toEqual([expect.objectContaining({ reqId: requestId, level: 50, err: expect.objectContaining({ message: expect.stringContaining('title') }) })]);
      expect(lines().join('')).not.toContain('private-title-5930');
    } finally {
      await server.app.database.dataSource.query('ALTER TABLE sessions RENAME COLUMN headline TO title');
      await server.close();
    }
  });
});
