import WebSocket from 'ws';
import { ConfigError, configFromEnv } from '../../src/config';
import { startTestServer, TestServer } from '../helpers/test-server';

const APP = 'https://app.example.com';
const FOREIGN = 'https://elsewhere.example.net';

function preflight(server: TestServer, path: string, origin: string) {
  return fetch(`${server.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
}

/** A POST from `origin`, or from a client outside a browser (no Origin header) when undefined. */
function postFrom(server: TestServer, origin: string | undefined) {
  return fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { ...(origin ? { origin } : {}), 'content-type': 'application/json', authorization: `Bearer ${server.admin.apiKey}` },
    body: JSON.stringify({ query: '{ viewer { name } }' }),
  });
}

/** Opens a graphql-ws socket with the given Origin header (none when undefined); resolves with the HTTP status of the upgrade. */
function upgradeStatus(server: TestServer, origin: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', origin ? { origin } : {});
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

describe('CORS_ORIGINS', () => {
  it('reads comma-separated origins or * alone, and refuses anything else naming the variable', () => {
    expect(configFromEnv({}).corsOrigins).toEqual([]);
    expect(configFromEnv({ CORS_ORIGINS: ' https://a.example , http://localhost:5173/ ' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(configFromEnv({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(() => configFromEnv({ CORS_ORIGINS: '*, https://a.example' })).toThrow(ConfigError);
    expect(() => configFromEnv({ CORS_ORIGINS: 'a.example' })).toThrow(/CORS_ORIGINS/);
    expect(() => configFromEnv({ CORS_ORIGINS: 'https://a.example/app' })).toThrow(/CORS_ORIGINS/);
  });

  describe('with origins listed', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ corsOrigins: [APP] });
    });
    afterAll(() => server.close());

    it('answers a preflight from a listed origin, for /graphql and the other endpoints', async () => {
      for (const path of ['/graphql', '/healthz']) {
        const response = await preflight(server, path, APP);
        expect(response.status).toBe(204);
        expect(response.headers.get('access-control-allow-origin')).toBe(APP);
        expect(response.headers.get('access-control-allow-methods')).toContain('POST');
        expect(response.headers.get('access-control-allow-headers')).toMatch(/authorization.*content-type/);
        expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      }
    });

    it('lets a listed origin read answers, and no other', async () => {
      const allowed = await postFrom(server, APP);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
      expect(allowed.headers.get('vary')).toMatch(/origin/i);
      expect(await allowed.json()).toEqual({ data: { viewer: { name: expect.any(String) } } });

      const foreign = await postFrom(server, FOREIGN);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      expect((await preflight(server, '/graphql', FOREIGN)).headers.get('access-control-allow-origin')).toBeNull();
    });

    it('answers a client outside a browser as an unlisted origin: no Access-Control-Allow-Origin, Vary: Origin', async () => {
      for (let request = 0; request < 2; request++) {
        const response = await postFrom(server, undefined);
        expect(response.headers.get('access-control-allow-origin')).toBeNull();
        expect(response.headers.get('vary')).toBe('Origin');
        expect(await response.json()).toEqual({ data: { viewer: { name: expect.any(String) } } });
      }
    });

    it('opens WebSockets for a listed origin and for clients outside browsers, and refuses a foreign origin', async () => {
      expect(await upgradeStatus(server, APP)).toBe(101);
      expect(await upgradeStatus(server, undefined)).toBe(101);
      expect(await upgradeStatus(server, FOREIGN)).toBe(403);
    });
  });

  describe('unset', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server.close());

    it('lets no other origin read answers', async () => {
      expect((await preflight(server, '/graphql', APP)).headers.get('access-control-allow-origin')).toBeNull();
      expect((await postFrom(server, APP)).headers.get('access-control-allow-origin')).toBeNull();
    });

    it('opens WebSockets for the server\'s own origin and clients outside browsers only', async () => {
      expect(await upgradeStatus(server, server.url)).toBe(101);
      expect(await upgradeStatus(server, undefined)).toBe(101);
      expect(await upgradeStatus(server, APP)).toBe(403);
    });
  });

  describe('*', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ corsOrigins: '*' });
    });
    afterAll(() => server.close());

    it('lets any origin call the API, without credentials', async () => {
      const response = await preflight(server, '/graphql', FOREIGN);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect((await postFrom(server, FOREIGN)).headers.get('access-control-allow-origin')).toBe('*');
      const outsideBrowser = await postFrom(server, undefined);
      expect(outsideBrowser.headers.get('access-control-allow-origin')).toBe('*');
      expect(outsideBrowser.headers.get('vary')).toBeNull();
      expect(await upgradeStatus(server, FOREIGN)).toBe(101);
    });
  });
});
