import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, TestServer } from '../helpers/test-server';
import { PNG_1X1, uploaded } from '../helpers/attachments';

describe('browser-facing headers', () => {
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

  it("serves the client with a policy allowing only its own scripts, no framing, and connections to the API and its WebSocket", async () => {
    for (const page of ['/', '/sessions/anything']) {
      const response = await fetch(`${server.url}${page}`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      const host = new URL(server.url).host;
      expect(policy).toContain("script-src 'self';");
      expect(policy).not.toMatch(/script-src[^;]*unsafe/);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain(`connect-src 'self' ws://${host} wss://${host}`);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('answers GraphQL with nosniff and no referrer', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.admin.apiKey}` },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('serves an HTML or SVG attachment as a sandboxed download, and a raster image in place', async () => {
    const client = await server.newAccount('files');
    const get = (cid: string) => fetch(`${server.url}/attachments/${cid}`, { headers: { authorization: `Bearer ${client.apiKey}` } });
    for (const [name, type] of [['page.html', 'text/html'], ['drawing.svg', 'image/svg+xml']]) {
      const file = await uploaded(client, name, type, Buffer.from(`<script>parent.stolen = localStorage.length</script> ${name}`));
      const response = await get(file.cid);
      expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(response.headers.get('content-security-policy')).toContain('sandbox');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      await response.arrayBuffer();
    }
    const image = await uploaded(client, 'dot.png', 'image/png', PNG_1X1);
    const response = await get(image.cid);
    expect(response.headers.get('content-disposition')).toMatch(/^inline;/);
    await response.arrayBuffer();
  });
});
