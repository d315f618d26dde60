import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { queryApi, startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, launchBrowser, saveScreenshot, transcriptOf, type Browser } from './browser';


describe('a person signs in, starts a session and writes in it', () => {
  let server: RunningApiServer;
  let browser: Browser;
  let page: Page;
  let viewerName: string;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    server = await startApiServer();
    viewerName = (await queryApi<{ viewer: { name: string } }>(server, '{ viewer { name } }')).viewer.name;
    browser = await launchBrowser();
    page = collectErrors(await browser.context.newPage(), browserErrors);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });



  /** The assistant's answer to `message`: the built-in agent quotes the message it answers. */
  function answerTo(message: string) {
    return transcriptOf(page)
      .getByRole('listitem')
      .filter({ has: page.getByText('Assistant', { exact: true }) })
      .filter({ hasText: message });
  }

  it('signs in with the link the server prints and forgets the key in the address bar', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);

    await page.locator('.viewer', { hasText: viewerName }).waitFor();
    await page.getByText('Server online').waitFor();
    expect(new URL(page.url()).searchParams.has('key')).toBe(false);
    await saveScreenshot(page, '01-signed-in');
  });

  it('creates a session and opens it', async () => {
    await page.getByLabel('Title').fill('Plan the release');
    await page.getByLabel('Description').fill('Everything that has to happen before Friday');
    await page.getByRole('button', { name: 'Create session' }).click();

    await page.waitForURL(/\/sessions\/[^/]+$/);
    await page.getByRole('heading', { name: 'Plan the release' }).waitFor();
    await page.getByText('No messages yet').waitFor();
    await saveScreenshot(page, '02-session-created');
  });

  it('posts a message that shows in the transcript, and the assistant answers it', async () => {
    await page.getByLabel('Message').fill('Which tests still fail?');
    await page.getByRole('button', { name: 'Send' }).click();

    await transcriptOf(page).getByText('Which tests still fail?', { exact: true }).waitFor();
    // The live echo may show the message before the post is answered; the composer clears then.
    await page.getByRole('button', { name: 'Send', exact: true }).and(page.locator('[disabled]')).waitFor();
    expect(await page.getByLabel('Message').inputValue()).toBe('');
    await answerTo('Which tests still fail?').waitFor();
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
    await saveScreenshot(page, '03-message-posted');
  });

  it('shows a message posted by another client as it arrives', async () => {
    const sessionId = new URL(page.url()).pathname.split('/').pop();
    await queryApi(
      server,
      `mutation { postMessage(input: { sessionId: "${sessionId}", text: "Posted from another client" }) { __typename } }`,
    );

    await transcriptOf(page).getByText('Posted from another client', { exact: true }).waitFor();
    await answerTo('Posted from another client').waitFor();
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
    await saveScreenshot(page, '04-live-update');
  });

  it('still shows both messages and their answers, each once, after a reload', async () => {
    await page.reload();

    await answerTo('Posted from another client').waitFor();
    expect(await transcriptOf(page).getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^You.*Which tests still fail\?$/),
      expect.stringMatching(/^Assistant.*Which tests still fail\?/),
      expect.stringMatching(/^You.*Posted from another client$/),
      expect.stringMatching(/^Assistant.*Posted from another client/),
    ]);
    await saveScreenshot(page, '05-after-reload');
  });

  it('fits a 390 px wide screen, its conversations in a drawer', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'detached' });
    await saveScreenshot(page, '06-session-narrow');
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Show conversations' }).click();
    const drawer = page.getByRole('dialog', { name: 'Conversations' });
    await drawer.getByRole('link', { name: /Plan the release/ }).waitFor();
    await saveScreenshot(page, '07-sessions-narrow');
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });

  it('ran without errors in the browser console', () => {
    expect(browserErrors).toEqual([]);
  });

  function horizontalOverflow() {
    return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }
});
