import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { startApiServer, type RunningApiServer } from './api-server';
import { boxOf, collectErrors, eventually, launchBrowser, saveScreenshot, transcriptOf, type Browser } from './browser';


describe('a person chats with the agent, and asking it to continue moves the tab to the successor', () => {
  let server: RunningApiServer;
  let browser: Browser;
  let page: Page;
  const browserErrors: string[] = [];
  let predecessorUrl: string;

  beforeAll(async () => {
    server = await startApiServer();
    browser = await launchBrowser();
    page = collectErrors(await browser.context.newPage(), browserErrors);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });



  function assistantMessages() {
    return transcriptOf(page)
      .getByRole('listitem')
      .filter({ has: page.getByText('Assistant', { exact: true }) });
  }

  /** Writes in the composer and sends, as a person would. */
  async function send(message: string) {
    await page.getByLabel('Message').fill(message);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('answers a message in the session, and the status settles once it has', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByLabel('Title').fill('Plan the launch');
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.waitForURL(/\/sessions\/[^/?]+$/);
    predecessorUrl = page.url();

    await send('We will launch in three markets');
    await transcriptOf(page).getByText('We will launch in three markets', { exact: true }).waitFor();
    // The built-in agent quotes the message it answers.
    await assistantMessages().filter({ hasText: 'We will launch in three markets' }).waitFor();
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
    await page.getByRole('meter', { name: /^Model context: [\d,]+ of 32,768 tokens/ }).waitFor();
    await saveScreenshot(page, '20-agent-answered');
  });

  it('follows the agent into the successor when asked to continue, and the successor answers there', async () => {
    await send('/continue Next phase');

    await page.waitForURL((url) => url.href !== predecessorUrl && /\/sessions\/[^/?]+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Next phase' }).waitFor();
    const banner = page.getByRole('complementary', { name: 'Continuation' });
    await banner.getByText('Continued from “Plan the launch”').waitFor();
    await banner.getByText(/You asked for a new session; the agent continued in a new session\./).waitFor();
    await transcriptOf(page).getByText('/continue Next phase', { exact: true }).waitFor();
    await transcriptOf(page).getByRole('link', { name: 'from “Plan the launch”' }).waitFor();
    // The successor's own first turn answers the replayed request.
    await assistantMessages().filter({ hasText: 'Next phase' }).waitFor();
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
    expect(await page.getByLabel('Message').isEditable()).toBe(true);
    await saveScreenshot(page, '21-agent-continued-successor');
  });

  it('goes Back to the predecessor, which ends in its transition card', async () => {
    await page.goBack();
    await page.waitForURL(predecessorUrl);

    const card = transcriptOf(page).getByRole('article', { name: 'Continued in “Next phase”' });
    await card.waitFor();
    expect(await card.innerText()).toContain('You asked for a new session; the agent continued in a new session.');
    await page.getByRole('link', { name: 'Open current continuation' }).waitFor();
    // Opened at its end, the card is whole on screen, its links above the choice that replaced the composer.
    await card.getByRole('link', { name: 'Inspect handoff' }).waitFor();
    const scroller = page.locator('.transcript');
    await eventually('the transition card is whole in the transcript’s view', async () => {
      const [cardBox, view] = await Promise.all([boxOf(card), boxOf(scroller)]);
      return cardBox.top >= view.top && cardBox.bottom <= view.bottom;
    });
    expect((await boxOf(page.getByRole('link', { name: 'Open current continuation' }))).bottom).toBeLessThanOrEqual(page.viewportSize()!.height);
    expect(await page.getByLabel('Message').count()).toBe(0);
    expect(page.url()).toBe(predecessorUrl);
    await saveScreenshot(page, '22-agent-predecessor-card');
  });

  it('ran without errors in the browser console', () => {
    expect(browserErrors).toEqual([]);
  });
});
