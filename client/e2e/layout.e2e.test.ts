import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { importTranscript, queryApi, startApiServer, type RunningApiServer } from './api-server';
import {
  boxOf,
  chooseTheme,
  collectErrors,
  eventually,
  launchBrowser,
  NO_SUCH_PAGE,
  openSessionMenu,
  saveScreenshot,
  seriousViolations,
  transcriptOf,
  type Browser,
} from './browser';

const POST_MESSAGE = 'mutation ($id: ID!, $text: String!) { postMessage(input: { sessionId: $id, text: $text }) { __typename } }';

/**
 * A transcript of 1,000 events, each message answered as the built-in agent answers it, the fact
 * asked for later its very first message, twenty pages (of 50 events) before the end. Imported
 * in one request: posting the messages one by one and waiting for the answers took most of a minute.
 */
const OLD_FACT = 'Margaret owns the budget of the offsite review.';
const LATER = Array.from({ length: 499 }, (_, index) => `Point ${index + 1} of the offsite review.`);
const REVIEW = [OLD_FACT, ...LATER].flatMap((text) => [
  { role: 'user' as const, content: text },
  { role: 'assistant' as const, content: `Noted: "${text}".` },
]);
const REVIEW_EVENTS = REVIEW.length;

describe('conversations in a sidebar by lineage, the lineage as a map, a keyboard path, themes and a phone', () => {
  let server: RunningApiServer;
  let browser: Browser;
  let page: Page;
  const browserErrors: string[] = [];
  let reviewId: string;
  let launchUrl: string;
  let partTwoUrl: string;
  let offsite: { predecessorUrl: string; successorUrl: string };

  async function openPage(): Promise<Page> {
    return collectErrors(await browser.context.newPage(), browserErrors);
  }

  /** Waits until the session holds `count` events: every message posted, and answered. */
  async function holds(sessionId: string, count: number): Promise<void> {
    await eventually(`the session holds ${count} events`, async () => {
      const { session } = await queryApi<{ session: { eventCount: number } }>(server, 'query ($id: ID!) { session(id: $id) { eventCount } }', {
        id: sessionId,
      });
      return session.eventCount >= count;
    }, 90_000);
  }

  function answerTo(message: string, on: Page = page) {
    return transcriptOf(on)
      .getByRole('listitem')
      .filter({ has: on.getByText('Assistant', { exact: true }) })
      .filter({ hasText: message });
  }

  async function send(message: string, on: Page = page) {
    await on.getByLabel('Message').fill(message);
    await on.getByRole('button', { name: 'Send' }).click();
  }

  const conversations = (on: Page = page) => on.getByRole('navigation', { name: 'Conversations' });

  /**
   * A conversation as people have them, to show in the screenshots: an answer in Markdown (a
   * table, a task list, code), a continuation, and a message in the successor. Returns the addresses of both sessions.
   */
  async function conversationToShow(): Promise<{ predecessorUrl: string; successorUrl: string }> {
    const { createSession } = await queryApi<{ createSession: { id: string } }>(server, 'mutation { createSession(input: { title: "Plan the team offsite" }) { id } }');
    await queryApi(server, POST_MESSAGE, { id: createSession.id, text: 'We have two venues for the team offsite in May.' });
    await holds(createSession.id, 2);
    await queryApi(server, POST_MESSAGE, {
      id: createSession.id,
      text: '/echo Here are the two venues for the offsite:\n\n| venue | seats | price |\n| --- | --- | --- |\n| Lakeside | 40 | €3,200 |\n| Old mill | 60 | €4,100 |\n\n- [x] shortlist the venues\n- [ ] book the venue\n- [ ] order lunch\n\n```js\nconst budget = 5000;\n```',
    });
    await holds(createSession.id, 4);
    await queryApi(server, POST_MESSAGE, { id: createSession.id, text: '/continue Offsite logistics' });
    const { session } = await queryApi<{ session: { currentContinuation: { id: string } } }>(
      server,
      'query ($id: ID!) { session(id: $id) { currentContinuation { id } } }',
      { id: createSession.id },
    );
    await eventually('the offsite conversation continued', async () => {
      const { session: now } = await queryApi<{ session: { currentContinuation: { id: string } } }>(
        server,
        'query ($id: ID!) { session(id: $id) { currentContinuation { id } } }',
        { id: createSession.id },
      );
      session.currentContinuation = now.currentContinuation;
      return now.currentContinuation.id !== createSession.id;
    });
    const successorId = session.currentContinuation.id;
    await holds(successorId, 3);
    await queryApi(server, POST_MESSAGE, { id: successorId, text: 'Book the caterer too' });
    return { predecessorUrl: `${server.url}/sessions/${createSession.id}`, successorUrl: `${server.url}/sessions/${successorId}` };
  }

  beforeAll(async () => {
    server = await startApiServer();
    reviewId = await importTranscript(server, 'Offsite review', REVIEW);
    browser = await launchBrowser();
    page = await openPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('updates a lineage in the sidebar live when its conversation continues in another tab, with a badge while it answers', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByLabel('Title').fill('Plan the launch');
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.waitForURL(/\/sessions\/[^/?]+$/);
    launchUrl = page.url();
    await send('We will launch in three markets');
    await answerTo('We will launch in three markets').waitFor();
    await page.getByRole('link', { name: 'New conversation' }).click();
    const entry = conversations().getByRole('listitem').filter({ has: page.getByRole('link', { name: /^Plan the launch/ }) });
    await entry.waitFor();

    const other = await openPage();
    await other.goto(launchUrl);
    await answerTo('We will launch in three markets', other).waitFor();
    // Seen from this tab: the other tab's answer being written, then the conversation moving on.
    await send(`/echo ${Array.from({ length: 1500 }, (_, index) => `word${index}`).join(' ')}`, other);
    await entry.getByText('Answering').waitFor();
    await other.getByText('Thinking…').waitFor({ state: 'hidden' });
    await entry.getByText('Answering').waitFor({ state: 'detached' });

    await send('/continue Launch, part two', other);
    await other.waitForURL((url) => url.href !== launchUrl && /\/sessions\/[^/?]+$/.test(url.pathname));
    partTwoUrl = other.url();
    const head = conversations().getByRole('link', { name: /^Launch, part two/ });
    await head.waitFor();
    expect(await head.innerText()).toContain('2 sessions');
    expect(await head.getAttribute('href')).toBe(new URL(partTwoUrl).pathname);
    expect(await conversations().getByRole('link', { name: /^Plan the launch/ }).count()).toBe(0);
    await saveScreenshot(page, '50-sidebar-live');
    await other.close();
  });

  it('opens the right session from the lineage map, in the sidebar and on the inspector', async () => {
    const entry = conversations().getByRole('listitem').filter({ has: page.getByRole('link', { name: /^Launch, part two/ }) }).first();
    await entry.getByRole('button', { name: /^Unfold the 2 sessions/ }).click();
    const map = entry.getByRole('list', { name: 'Lineage map of “Launch, part two”' });
    const rows = map.getByRole('listitem');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(1).innerText()).toContain('latest');
    // Read as a list: each session says where it came from.
    expect(await rows.nth(1).textContent()).toContain('Continued from “Plan the launch”');
    await map.getByRole('link', { name: 'Plan the launch' }).click();
    await page.waitForURL(launchUrl);
    await transcriptOf(page).getByRole('article', { name: 'Continued in “Launch, part two”' }).waitFor();

    await transcriptOf(page).getByRole('link', { name: 'Inspect handoff' }).click();
    await page.waitForURL(/\/continuations\/[^/]+$/);
    await page.waitForFunction(() => document.title === 'Handoff: “Plan the launch” → “Launch, part two” · Session Continuation');
    const inspectorMap = page.getByRole('main').getByRole('list', { name: 'Lineage map of “Plan the launch”' });
    expect(await inspectorMap.getByRole('listitem').nth(1).innerText()).toContain('this handoff');
    await saveScreenshot(page, '51-inspector-lineage-map');
    await inspectorMap.getByRole('link', { name: /^Launch, part two/ }).click();
    await page.waitForURL(partTwoUrl);
  });

  it('finds an old message with the palette and opens its session at that event', async () => {
    await page.keyboard.press('ControlOrMeta+K');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('Margaret budget');
    const hit = palette.getByRole('option').filter({ hasText: 'You' }).filter({ hasText: 'owns the budget' }).first();
    await hit.waitFor();
    // The arrows move the choice, the focus stays in the field, Enter opens the choice.
    const chosen = palette.getByRole('option', { selected: true });
    for (let step = 0; step < 10 && !(await chosen.innerText()).match(/owns the budget[\s\S]*\bYou\b/); step += 1) {
      await page.keyboard.press('ArrowDown');
    }
    expect(await palette.getByRole('combobox').evaluate((field) => field === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');

    await page.waitForURL(new RegExp(`/sessions/${reviewId}\\?from=[^&]+&to=[^&]+&via=search$`));
    await page.getByText('Highlighting event 1, a search hit.').waitFor();
    const highlighted = transcriptOf(page).locator('.transcript-item-cited');
    await highlighted.waitFor();
    expect(await highlighted.innerText()).toContain(OLD_FACT);
    await eventually('the event found is focused and in view', async () => {
      const [item, view] = await Promise.all([boxOf(highlighted), boxOf(page.locator('.transcript'))]);
      const focused = await highlighted.evaluate((element) => element === document.activeElement);
      return focused && item.top >= view.top - 1 && item.top < view.bottom;
    });
    // The transcript scrolls inside its own box; the page itself never does.
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0);
    // Only the events near the view are in the page: the transcript is virtualised.
    expect(await transcriptOf(page).getByRole('listitem').count()).toBeLessThan(40);
    await saveScreenshot(page, '52-palette-opened-old-message');
  });

  it('stops a streaming answer with Esc', async () => {
    await page.goto(partTwoUrl);
    await send(`/echo ${Array.from({ length: 3000 }, (_, index) => `word${index}`).join(' ')}`);
    await page.getByRole('region', { name: 'The answer so far' }).waitFor();
    await page.keyboard.press('Escape');

    const stopped = transcriptOf(page).getByRole('listitem').filter({ hasText: 'Stopped before it finished.' });
    await stopped.waitFor();
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
    expect(await stopped.innerText()).not.toContain('word2999');
  });

  it('lists the shortcuts on ?', async () => {
    await page.locator('.transcript').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Shift+Slash');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await shortcuts.getByRole('cell', { name: 'Search conversations and messages, or run a command' }).waitFor();
    expect(await shortcuts.getByRole('row').filter({ hasText: 'Esc' }).innerText()).toContain('Stop the answer');
    await page.keyboard.press('Escape');
    await shortcuts.waitFor({ state: 'detached' });
  });

  it('remembers the theme chosen over the device’s, and follows the device again on System', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await chooseTheme(page, 'Dark');
    await page.reload();
    await page.getByRole('heading', { name: 'Launch, part two' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(20, 24, 30)');

    await chooseTheme(page, 'System');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(20, 24, 30)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(246, 247, 249)');
  });

  it('has no serious or critical accessibility problem on any page, in either theme', async () => {
    offsite = await conversationToShow();
    const found: string[] = [];
    async function check(where: string) {
      for (const violation of await seriousViolations(page)) found.push(`${where}: ${violation}`);
    }
    for (const theme of ['Light', 'Dark'] as const) {
      await page.goto(`${server.url}/`);
      await chooseTheme(page, theme);
      await check(`${theme} new conversation`);
      await page.goto(partTwoUrl);
      await answerTo('Launch, part two').waitFor();
      await check(`${theme} session`);
      await openSessionMenu(page);
      await check(`${theme} session menu`);
      await (await openSessionMenu(page)).getByRole('button', { name: 'Continue in new session' }).click();
      await page.getByRole('dialog', { name: 'Continue in new session' }).getByLabel('Purpose').waitFor();
      await check(`${theme} continue dialog`);
      await page.keyboard.press('Escape');
      await page.keyboard.press('ControlOrMeta+K');
      await page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox').fill('launch');
      await page.getByRole('dialog', { name: 'Command palette' }).getByText(/messages? match/).waitFor();
      await check(`${theme} palette`);
      await page.keyboard.press('Escape');
      await page.locator('.transcript').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Shift+Slash');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      await check(`${theme} shortcuts`);
      await page.keyboard.press('Escape');
      await page.goto(offsite.predecessorUrl);
      await transcriptOf(page).getByRole('table').waitFor();
      await transcriptOf(page).getByRole('article', { name: 'Continued in “Offsite logistics”' }).getByText(/^Carried/).waitFor();
      await check(`${theme} conversation with Markdown`);
      await saveScreenshot(page, theme === 'Light' ? '53-layout-light' : '54-layout-dark');
      await page.goto(launchUrl);
      await transcriptOf(page).getByRole('article', { name: 'Continued in “Launch, part two”' }).waitFor();
      await check(`${theme} continued session`);
      await transcriptOf(page).getByRole('link', { name: 'Inspect handoff' }).click();
      await page.getByRole('region', { name: 'Projection manifest' }).waitFor();
      await check(`${theme} inspector`);
      await page.goto(`${server.url}/sessions/${reviewId}`);
      // The session ends with the answer to its last message.
      await answerTo(LATER.at(-1)!).waitFor();
      await check(`${theme} long session`);
      if (theme === 'Light') {
        // It opened on its last page, and holds only the events near the view.
        await page.getByRole('button', { name: 'Load earlier messages' }).waitFor({ state: 'attached' });
        expect(await transcriptOf(page).getByRole('listitem').count()).toBeLessThan(40);
        expect(await transcriptOf(page).getByRole('listitem').last().getAttribute('aria-posinset')).toBe(String(REVIEW_EVENTS));
      }
      expect((await page.goto(`${server.url}${NO_SUCH_PAGE}`))?.status()).toBe(404);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await check(`${theme} page not found`);
    }
    expect(found).toEqual([]);
    await chooseTheme(page, 'System');
  });

  it('fits a phone: the sidebar a drawer, dialogs full screen, the first message in the top third', async () => {
    const phone = { width: 390, height: 844 };
    await page.setViewportSize(phone);
    await page.goto(launchUrl);
    const first = transcriptOf(page).getByRole('listitem').first();
    await first.waitFor();
    expect((await boxOf(first)).top).toBeLessThan(phone.height / 3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, '55-phone-session');
    await page.goto(offsite.successorUrl);
    await answerTo('Book the caterer too').waitFor();
    await saveScreenshot(page, '58-phone-conversation');

    await page.getByRole('button', { name: 'Show conversations' }).click();
    const drawer = page.getByRole('dialog', { name: 'Conversations' });
    const head = drawer.getByRole('link', { name: /^Launch, part two 2 sessions/ });
    await head.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, '56-phone-drawer');
    await head.click();
    await page.waitForURL(partTwoUrl);
    await drawer.waitFor({ state: 'detached' });

    await (await openSessionMenu(page)).getByRole('button', { name: 'Continue in new session' }).click();
    const dialog = page.getByRole('dialog', { name: 'Continue in new session' });
    await dialog.getByLabel('Purpose').waitFor();
    expect(await dialog.boundingBox()).toEqual({ x: 0, y: 0, ...phone });
    await saveScreenshot(page, '57-phone-dialog');
    await page.keyboard.press('Escape');

    await page.keyboard.press('ControlOrMeta+K');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').waitFor();
    expect(await palette.boundingBox()).toEqual({ x: 0, y: 0, ...phone });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('ran without errors in the browser console', () => {
    expect(browserErrors).toEqual([]);
  });
});
