import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { queryApi, startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, launchBrowser, saveScreenshot, type Browser } from './browser';

describe('GraphiQL, served by the server itself', () => {
  let server: RunningApiServer;
  let browser: Browser;
  let page: Page;
  let viewerId: string;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    server = await startApiServer();
    viewerId = (await queryApi<{ viewer: { id: string } }>(server, '{ viewer { id } }')).viewer.id;
    browser = await launchBrowser();
    page = collectErrors(await browser.context.newPage(), browserErrors);
    // Nothing is fetched from anywhere but the server.
    await page.route(/^(?!https?:\/\/127\.0\.0\.1[:/])/, (route) => route.abort());
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends the key this browser signed in with and runs a query', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByText('Server online').waitFor();

    await page.goto(`${server.url}/graphiql`);
    const editor = page.locator('.graphiql-query-editor .monaco-editor').first();
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('{ viewer { id } }');
    // The editor closes the opening brace itself: what follows the cursor goes.
    await page.keyboard.press('Shift+ControlOrMeta+End');
    await page.keyboard.press('Delete');
    await page.keyboard.press('ControlOrMeta+Enter');

    const response = page.locator('.graphiql-response');
    await response.getByText(viewerId).first().waitFor({ timeout: 20_000 });
    expect((await response.textContent())?.replace(/\s+/g, ' ')).toMatch(/"viewer":/);
    await saveScreenshot(page, 'graphiql');
    expect(browserErrors).toEqual([]);
  });

  it('is where a browser opening /graphql is sent', async () => {
    await page.goto(`${server.url}/graphql`);
    await page.waitForURL(`${server.url}/graphiql`);
    await page.locator('.graphiql-query-editor').waitFor();
  });
});
