import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, TestServer } from '../helpers/test-server';

describe('paths', () => {
  let server: TestServer;
  let clientDist: string;

  beforeAll(async () => {
    clientDist = await mkdtemp(path.join(tmpdir(), 'sc-client-'));
    await writeFile(path.join(clientDist, 'index.html'), '<!doctype html><title>client</title>');
    server = await startTestServer({ clientDist });
  });
  afterAll(async () => {
    await server.close();
    await rm(clientDist, { recursive: true, force: true });
  });

  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const get = (pathname: string, accept = BROWSER) => fetch(`${server.url}${pathname}`, { headers: { accept } });

  it.each(['/', '/sessions/6a1c7f5e-0000-4000-8000-000000000000', '/continuations/6a1c7f5e-0000-4000-8000-000000000000', '/account', '/keys'])(
    'serves the web client at its own route %s',
    async (pathname) => {
      const response = await get(pathname);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
    },
  );

  it.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server', '/api/sessions', '/exports/', '/sessions/a/b', '/nope'])(
    'answers %s, which is no route, with 404 in JSON',
    async (pathname) => {
      const response = await get(pathname, '*/*');
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(await response.json()).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'NOT_FOUND' } })] });
    },
  );

  it("shows a browser that navigates to no route the client's own page, with 404", async () => {
    const response = await get('/no-such-page');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('answers a client that asks for JSON with JSON', async () => {
    const response = await get('/.well-known/oauth-protected-resource', 'application/json');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
  });
});
