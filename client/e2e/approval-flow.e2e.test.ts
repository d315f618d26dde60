import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, launchBrowser, openSessionMenu, saveScreenshot, transcriptOf, type Browser } from './browser';

describe('a person who asked to be asked approves or rejects the agent\'s continuation', () => {
  let server: RunningApiServer;
  let browser: Browser;
  let page: Page;
  const browserErrors: string[] = [];
  let sessionUrl: string;

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

  async function send(message: string) {
    await page.getByLabel('Message').fill(message);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  /** The setting, in the session menu. */
  const toggle = async () => (await openSessionMenu(page)).getByRole('checkbox', { name: 'Ask me before the agent continues in a new session' });
  const closeMenu = () => page.keyboard.press('Escape');
  const card = (title: string) => transcriptOf(page).getByRole('article', { name: `The agent proposes to continue in “${title}”` });

  it('sets the session to ask first, and the setting holds after a reload', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByLabel('Title').fill('Plan the launch');
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.waitForURL(/\/sessions\/[^/?]+$/);
    sessionUrl = page.url();
    expect(await (await toggle()).isChecked()).toBe(false);
    await (await toggle()).check();
    await page.reload();
    expect(await (await toggle()).isChecked()).toBe(true);
    await closeMenu();
  });

  it('shows the proposal in the transcript instead of moving: the draft, what it would carry, and the time left', async () => {
    await send('We will launch in three markets');
    await assistantMessages().filter({ hasText: 'We will launch in three markets' }).waitFor();
    await send('/continue Next phase');
    const proposal = card('Next phase');
    await proposal.waitFor();
    await proposal.getByText(/Would include \d+ of [\d,]+ sources?, using [\d,]+ of 8,000 tokens/).waitFor();
    await proposal.getByText(/\d+ h( \d+ min)? left/).waitFor();
    expect(await proposal.getByLabel('Title of the new session').inputValue()).toBe('Next phase');
    expect(await proposal.getByLabel('Current request').inputValue()).toBe('/continue Next phase');
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
    expect(page.url()).toBe(sessionUrl);
    await proposal.scrollIntoViewIfNeeded();
    await saveScreenshot(page, '40-proposal-card');
  });

  it('rejecting with a note gets an answer here that takes the note into account', async () => {
    const proposal = card('Next phase');
    await proposal.getByLabel('Note for the agent (why not, what instead)').fill('Finish the market list first');
    await proposal.getByRole('button', { name: 'Reject' }).click();
    await proposal.getByText('Rejected: “Finish the market list first”. The agent answers here.').waitFor();
    await assistantMessages().filter({ hasText: 'Finish the market list first' }).waitFor();
    expect(page.url()).toBe(sessionUrl);
    await saveScreenshot(page, '41-proposal-rejected');
  });

  it('approving an edited proposal follows into the successor with the edited title', async () => {
    await send('/continue Next phase');
    const proposals = transcriptOf(page).getByRole('article', { name: 'The agent proposes to continue in “Next phase”' });
    await proposals.nth(1).waitFor();
    const proposal = proposals.nth(1);
    await proposal.getByLabel('Title of the new session').fill('Phase two');
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
    await proposal.getByRole('button', { name: 'Approve' }).click();

    await page.waitForURL((url) => url.href !== sessionUrl && /\/sessions\/[^/?]+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Phase two' }).waitFor();
    const banner = page.getByRole('complementary', { name: 'Continuation' });
    await banner.getByText('Continued from “Plan the launch”').waitFor();
    await assistantMessages().first().waitFor();
    // The successor inherits the setting.
    expect(await (await toggle()).isChecked()).toBe(true);
    await closeMenu();
    await saveScreenshot(page, '42-proposal-approved-successor');

    await page.goBack();
    await page.waitForURL(sessionUrl);
    await transcriptOf(page).getByRole('article', { name: 'Continued in “Phase two”' }).waitFor();
    await transcriptOf(page).getByText('Approved: continued in').waitFor();
  });

  it('ran without errors in the browser console', () => {
    expect(browserErrors).toEqual([]);
  });
});
