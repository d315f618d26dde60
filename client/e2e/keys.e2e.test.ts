import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, launchBrowser, transcriptOf, type Browser } from './browser';

describe('API keys in the browser: the keys page, a share link, and content that never runs', () => {
  let server: RunningApiServer;
  let browser: Browser;
  let page: Page;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    server = await startApiServer();
    browser = await launchBrowser();
    page = collectErrors(await browser.context.newPage(), browserErrors);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function api<T>(query: string, variables: Record<string, unknown> = {}, apiKey = server.apiKey): Promise<{ status: number; data?: T }> {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, ...((await response.json()) as { data?: T }) };
  }

  async function newSession(title: string): Promise<string> {
    const { data } = await api<{ createSession: { id: string } }>('mutation ($t: String!) { createSession(input: { title: $t }) { id } }', { t: title });
    return data!.createSession.id;
  }

  it('creates a read key with its secret shown once, lists it with its last use, and revokes it', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(/\/keys$/);
    await page.getByLabel('Name').fill('Dashboard');
    await page.getByRole('radio', { name: /Read: queries/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^sck_/);
    const row = page.getByRole('row').filter({ hasText: 'Dashboard' });
    await expect(row.getByRole('cell').nth(3).innerText()).resolves.toBe('Never');

    const used = await api<{ viewer: { id: string } }>('{ viewer { id } }', {}, secret);
    expect(used.status).toBe(200);
    expect((await api('mutation { createSession(input: { title: "no" }) { id } }', {}, secret)).data).toBeFalsy();
    await page.reload();
    await expect(row.getByRole('cell').nth(3).innerText()).resolves.not.toBe('Never');

    await row.getByRole('button', { name: 'Revoke Dashboard' }).click();
    await row.getByText(/^Revoked/).waitFor();
    expect((await api('{ viewer { id } }', {}, secret)).status).toBe(401);
  });

  it('shares a conversation as a read-only link that opens it, and nothing else, in a signed-out browser', async () => {
    const shared = await newSession('Shared plans');
    const hidden = await newSession('Private notes');
    await page.goto(`${server.url}/sessions/${shared}`);
    await page.getByRole('button', { name: 'Session menu' }).click();
    await page.getByRole('button', { name: 'Share read-only link…' }).click();
    await page.getByRole('button', { name: 'Create link' }).click();
    const link = await page.getByLabel('Share link').inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/\\?key=sck_`));

    const visitor = await launchBrowser();
    try {
      const guest = await visitor.context.newPage();
      await guest.goto(link);
      await guest.getByRole('navigation', { name: 'Conversations' }).getByText('Shared plans').waitFor();
      expect(await guest.getByRole('navigation', { name: 'Conversations' }).getByText('Private notes').count()).toBe(0);
      await guest.goto(`${server.url}/sessions/${shared}`);
      await guest.getByRole('heading', { name: 'Shared plans' }).waitFor();
      await guest.goto(`${server.url}/sessions/${hidden}`);
      await guest.getByRole('heading', { name: 'Session not found' }).waitFor();
    } finally {
      await visitor.close();
    }
  });

  it('never runs script from a stored HTML attachment or a Markdown answer', async () => {
    const sessionId = await newSession('Hostile content');
    const html = Buffer.from('<!doctype html><script>localStorage.setItem("pwned", "attachment"); window.opener && (window.opener.pwned = "attachment")</script>');
    const uploaded = await fetch(`${server.url}/attachments?name=page.html`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'text/html' }, body: html });
    const { cid } = (await uploaded.json()) as { cid: string };
    await api('mutation ($s: ID!, $c: String!) { postMessage(input: { sessionId: $s, text: "see attached", attachments: [$c] }) { __typename } }', { s: sessionId, c: cid });
    const hostile = '/echo Hello <script>window.pwned = "script"</script> <img src="x" onerror="window.pwned = \'img\'"> [click](javascript:window.pwned=\'link\')';
    await api('mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { __typename } }', { s: sessionId, t: hostile });

    await page.goto(`${server.url}/sessions/${sessionId}`);
    await transcriptOf(page).getByText('Hello').last().waitFor();
    const download = page.waitForEvent('download');
    await transcriptOf(page).getByRole('button', { name: 'page.html' }).click();
    expect((await download).suggestedFilename()).toBe('page.html');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => ({ flag: (window as unknown as { pwned?: string }).pwned ?? null, stored: localStorage.getItem('pwned') }))).toEqual({ flag: null, stored: null });

    // Opened directly with the key, the bytes are a download, never a page of this origin.
    const direct = await browser.context.newPage();
    await direct.setExtraHTTPHeaders({ authorization: `Bearer ${server.apiKey}` });
    await expect(direct.goto(`${server.url}/attachments/${cid}`)).rejects.toThrow(/Download is starting/);
    await direct.close();
    expect(await page.evaluate(() => localStorage.getItem('pwned'))).toBeNull();
    expect(browserErrors.filter((message) => /Content Security Policy/.test(message))).toEqual([]);
  });
});
