import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { queryApi, startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, eventually, launchBrowser, openSessionMenu, saveScreenshot, transcriptOf, type Browser } from './browser';

const POST_MESSAGE = 'mutation ($id: ID!, $text: String!) { postMessage(input: { sessionId: $id, text: $text }) { __typename } }';

/**
 * The fact asked for later comes first, more than a recent exchange (8 events) before the last
 * message. Each later message shares a word with the ones before it, so the built-in agent does
 * not take it for a new subject and continue.
 */
const MESSAGES = [
  'We rotate the signing keys every 90 days.',
  'The team runs the staging cluster in Frankfurt.',
  'The team sends invoices on the first of the month.',
  'The team ships the mobile app every second Tuesday.',
  'The team answers support on weekdays.',
  'The team keeps the style guide in the wiki.',
  'Now the team prepares the security review.',
];

describe('a person finds an earlier event by searching, and carries recommended sources into a continuation', () => {
  let server: RunningApiServer;
  let browser: Browser;
  let page: Page;
  const browserErrors: string[] = [];
  let sessionId: string;

  beforeAll(async () => {
    server = await startApiServer();
    browser = await launchBrowser();
    page = collectErrors(await browser.context.newPage(), browserErrors);
    const { createSession } = await queryApi<{ createSession: { id: string } }>(
      server,
      'mutation ($title: String!) { createSession(input: { title: $title }) { id } }',
      { title: 'Operations notes' },
    );
    sessionId = createSession.id;
    // One turn at a time, as a person writes: every message is followed by its answer.
    for (const [index, text] of MESSAGES.entries()) {
      await queryApi(server, POST_MESSAGE, { id: sessionId, text });
      await answered(index + 1);
    }
  });

  /** Waits until the built-in agent has answered `count` messages. */
  async function answered(count: number): Promise<void> {
    const deadline = Date.now() + 30_000;
    let kinds: string[] = [];
    while (Date.now() < deadline) {
      const { session } = await queryApi<{ session: { events: { edges: { node: { kind: string } }[] } } }>(
        server,
        'query ($id: ID!) { session(id: $id) { events(last: 100) { edges { node { kind } } } } }',
        { id: sessionId },
      );
      kinds = session.events.edges.map((edge) => edge.node.kind);
      if (kinds.filter((kind) => kind === 'ASSISTANT_MESSAGE').length >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`The agent did not answer ${count} messages in time: ${kinds.join(', ')}`);
  }

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The command palette, open. */
  function palette() {
    return page.getByRole('dialog', { name: 'Command palette' });
  }

  it('searches every session from the palette', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByText('Server online').waitFor();
    await page.keyboard.press('ControlOrMeta+K');
    await palette().getByRole('combobox').fill('signing keys');

    await palette().getByText(/^\d+\+? messages? match(es)? “signing keys” in all sessions\.$/).waitFor();
    await palette().getByRole('option').filter({ hasText: 'Operations notes' }).first().waitFor();
    await saveScreenshot(page, '23-search-all-sessions');
    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
  });

  it('finds the event a question asks about, marked, and opens it highlighted in its session as a search hit', async () => {
    await page.goto(`${server.url}/sessions/${sessionId}`);
    await transcriptOf(page).getByText(MESSAGES[MESSAGES.length - 1], { exact: true }).waitFor();
    await (await openSessionMenu(page)).getByRole('button', { name: 'Search this conversation' }).click();
    expect(await palette().getByRole('radio', { name: 'This lineage' }).isChecked()).toBe(true);
    await palette().getByRole('combobox').fill('how often do we rotate the signing keys?');

    // A snippet is an excerpt around the match; the person's own message is the one to open.
    const hit = palette().getByRole('option').filter({ hasText: 'You' }).filter({ hasText: 'signing keys every 90 days' }).first();
    await hit.waitFor();
    expect(await hit.locator('mark').allInnerTexts()).toEqual(expect.arrayContaining(['rotate', 'signing', 'keys']));
    await saveScreenshot(page, '24-search-hits');

    await hit.click();
    await page.waitForURL(/\?from=([^&]+)&to=\1&via=search$/);
    await page.getByText(/^Highlighting event \d+, a search hit\.$/).waitFor();
    // The notice comes with the range; the event renders once the transcript has scrolled to it.
    const highlighted = transcriptOf(page).locator('.transcript-item-cited');
    await highlighted.first().waitFor();
    expect(await highlighted.count()).toBe(1);
    expect(await highlighted.innerText()).toMatch(/^SEARCH HIT\s/i);
    expect(await highlighted.innerText()).not.toMatch(/cited source/i);
    expect(await highlighted.innerText()).toContain('We rotate the signing keys every 90 days.');
    await eventually('the search hit is focused', () => highlighted.evaluate((item) => item === document.activeElement));
    expect(await palette().count()).toBe(0);
    await saveScreenshot(page, '25-search-hit-opened');
  });

  it('continues with assisted selection, and the handoff lists the recommended source', async () => {
    await (await openSessionMenu(page)).getByRole('button', { name: 'Continue in new session' }).click();
    const dialog = page.getByRole('dialog', { name: 'Continue in new session' });
    await dialog.getByLabel('Title').fill('Security review');
    await dialog.getByLabel('Purpose').fill('Prepare the security review: how often we rotate the signing keys');
    await dialog.getByRole('checkbox', { name: 'Assisted selection' }).check();

    const choice = dialog.getByRole('group', { name: 'Recommended sources' });
    const kept = choice.getByRole('checkbox', { name: /^Keep .*signing/ }).first();
    await kept.waitFor();
    expect(await kept.isChecked()).toBe(true);
    const preview = dialog.getByRole('region', { name: 'Preview of the new session' });
    await preview.getByRole('article').filter({ hasText: 'Recommended' }).first().waitFor();
    await saveScreenshot(page, '26-continue-assisted-preview');

    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Security review' }).waitFor();
    await page.getByRole('complementary', { name: 'Continuation' }).getByRole('link', { name: 'View handoff' }).click();
    await page.waitForURL(/\/continuations\/[^/]+$/);

    const manifest = page.getByRole('region', { name: 'Projection manifest' });
    const recommended = manifest.getByRole('article').filter({ has: page.getByText('Recommended', { exact: true }) });
    await recommended.first().waitFor();
    expect(await recommended.first().innerText()).toMatch(/score \d+\.\d\d/);
    await manifest.getByText('Added by the runtime').first().waitFor();
    await recommended.first().scrollIntoViewIfNeeded();
    await saveScreenshot(page, '27-inspector-recommended');
  });

  it('ran without errors in the browser console', () => {
    expect(browserErrors).toEqual([]);
  });
});
