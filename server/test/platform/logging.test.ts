import { startTestServer, TestServer } from '../helpers/test-server';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { id: string; method: string; path: string; headers?: Record<string, string> };
  res?: { statusCode: number; headers?: Record<string, string> };
  responseTime?: number;
  operationName?: string;
  origin?: string;
  err?: { message: string };
}

/** A server logging at the default level (or `level`) into memory, as it would to standard output. */
async function loggingServer(
  level: 'info' | 'debug' = 'info',
  overrides: Parameters<typeof startTestServer>[0] = {},
): Promise<{ server: TestServer; lines: () => string[]; parsed: () => LogLine[] }> {
  const output: string[] = [];
  const server = await startTestServer({ logLevel: level, logDestination: { write: (line: string) => void output.push(line) }, ...overrides });
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

  it('writes what an operator needs of a request: method, path, status, time, request id and operation name, no headers', async () => {
    const { server, lines, parsed } = await loggingServer();
    try {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${server.admin.apiKey}` },
        body: JSON.stringify({ query: 'query WhoAmI { viewer { id } }' }),
      });
      const requestId = response.headers.get('x-request-id');
      const line = parsed().find((entry) => entry.req?.id === requestId)!;
      expect(line).toEqual(
        expect.objectContaining({ reqId: requestId, operationName: 'WhoAmI', req: { id: requestId, method: 'POST', path: '/graphql' }, res: { statusCode: 200 }, responseTime: expect.any(Number) }),
      );
      expect(lines().find((text) => text.includes(requestId!))!.length).toBeLessThan(400);
    } finally {
      await server.close();
    }
  });

  it('writes headers only at debug, and never the Authorization header, an API key in a URL or the variables of a request', async () => {
    const { server, lines, parsed } = await loggingServer('debug');
    try {
      const client = await server.newAccount('logged');
      await client.data('mutation ($title: String!) { createSession(input: { title: $title }) { id } }', { title: 'private-title-8121' });
      await fetch(`${server.url}/?key=${client.apiKey}`);
      const withHeaders = parsed().filter((entry) => entry.req?.headers !== undefined);
      expect(withHeaders.length).toBeGreaterThan(0);
      expect(withHeaders.some((entry) => entry.req!.headers!['content-type'] === 'application/json')).toBe(true);
      expect(withHeaders.every((entry) => !('authorization' in entry.req!.headers!))).toBe(true);
      const everything = lines().join('');
      expect(everything).not.toMatch(/"authorization"/i);
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

  it('warns once per refused origin, naming CORS_ORIGINS, for HTTP and WebSocket alike', async () => {
    const { server, parsed } = await loggingServer('info', { corsOrigins: ['https://app.example'] });
    try {
      const refusals = () => parsed().filter((entry) => entry.level === 40 && entry.msg.includes('CORS_ORIGINS'));
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await fetch(`${server.url}/graphql`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      }
      await fetch(`${server.url}/graphql`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
      expect(refusals().map((entry) => entry.origin)).toEqual(['https://evil.example']);

      const { default: WebSocket } = await import('ws');
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { origin: 'https://other.example' });
        await new Promise((resolve) => socket.once('error', resolve));
      }
      expect(refusals().map((entry) => entry.origin)).toEqual(['https://evil.example', 'https://other.example']);
    } finally {
      await server.close();
    }
  });
});
