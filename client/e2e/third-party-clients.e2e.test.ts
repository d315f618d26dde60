import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, launchBrowser, type Browser } from './browser';
import type { ThirdPartyRun } from './third-party/app';

const run = promisify(execFile);
/** The vite the client builds with (its package exports no bin path). */
const VITE = path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');

/** The third party's page, built from third-party/app.ts, served from an origin of its own. */
async function startThirdPartySite(): Promise<{ origin: string; server: Server; close(): Promise<void> }> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'third-party-site-'));
  await run(process.execPath, [VITE, 'build', '--config', path.join(__dirname, 'third-party', 'vite.config.ts')], {
    cwd: path.join(__dirname, 'third-party'),
    env: { ...process.env, THIRD_PARTY_OUT_DIR: outDir },
  });
  const script = await readFile(path.join(outDir, 'app.js'));
  const server = createServer((req, res) => {
    if (req.url === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>A third party</title><script src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // "localhost" against the API's 127.0.0.1: another origin, as the browser sees it.
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

describe('a third-party frontend on another origin', () => {
  let site: Awaited<ReturnType<typeof startThirdPartySite>>;
  let api: RunningApiServer;
  let browser: Browser;
  let page: Page;
  const browserErrors: string[] = [];
  const graphqlRequests: { method: string; url: string }[] = [];

  beforeAll(async () => {
    site = await startThirdPartySite();
    api = await startApiServer({ CORS_ORIGINS: site.origin });
    browser = await launchBrowser();
    page = collectErrors(await browser.context.newPage(), browserErrors);
    page.on('request', (request) => {
      if (request.url().startsWith(`${api.url}/graphql`)) graphqlRequests.push({ method: request.method(), url: request.url() });
    });
    await page.goto(site.origin);
    await page.waitForFunction(() => 'thirdParty' in window);
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await site?.close();
  });

  const runIn = (client: 'withUrql' | 'withGraphqlSse') =>
    page.evaluate(
      ([name, url, key]) => (window as unknown as { thirdParty: Record<string, (url: string, key: string) => Promise<ThirdPartyRun>> }).thirdParty[name](url, key),
      [client, api.url, api.apiKey] as const,
    );

  it('runs a query, a mutation and a subscription with urql and its defaults: queries as GET, subscriptions over graphql-ws', async () => {
    const result = await runIn('withUrql');
    expect(result.viewerId).toBeTruthy();
    expect(result.firstEventText).toBe('hello from urql');
    expect(graphqlRequests.some((request) => request.method === 'GET' && request.url.includes('Viewer'))).toBe(true);
    expect(browserErrors).toEqual([]);
  });

  it("runs a query, a mutation and a subscription with graphql-sse's own client at /graphql/stream", async () => {
    const result = await runIn('withGraphqlSse');
    expect(result.viewerId).toBeTruthy();
    expect(result.firstEventText).toBe('hello from graphql-sse');
    expect(graphqlRequests.some((request) => request.url.startsWith(`${api.url}/graphql/stream`))).toBe(true);
    expect(browserErrors).toEqual([]);
  });
});
