import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { queryApi, startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, eventually, launchBrowser, openSessionMenu, saveScreenshot, transcriptOf, type Browser } from './browser';


/** How long a tab gets to (wrongly) move after a continuation it must not follow. */
const SETTLE_MS = 1_500;

const POST_MESSAGE = 'mutation ($id: ID!, $text: String!) { postMessage(input: { sessionId: $id, text: $text }) { __typename } }';

const CONTINUE_SESSION = `
  mutation ($input: ContinueSessionInput!) {
    continueSession(input: $input) {
      __typename
      ... on ContinueSessionSuccess { successor { id title } }
      ... on OperationError { code message }
    }
  }
`;

describe('a conversation continues in a fresh session, and every tab stays oriented', () => {
  let server: RunningApiServer;
  let browser: Browser;
  let page: Page;
  const browserErrors: string[] = [];
  let predecessorUrl: string;
  let successorUrl: string;
  let branchUrl: string;

  async function openPage(): Promise<Page> {
    return collectErrors(await browser.context.newPage(), browserErrors);
  }

  beforeAll(async () => {
    server = await startApiServer();
    browser = await launchBrowser();
    page = await openPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });



  /**
   * The assistant's answer to `message`: the built-in agent quotes the message it answers. A
   * session is continued only between turns, so tests wait for it.
   */
  function answerTo(message: string, on: Page = page) {
    return transcriptOf(on)
      .getByRole('listitem')
      .filter({ has: on.getByText('Assistant', { exact: true }) })
      .filter({ hasText: message });
  }

  /** A message of the person's own, not the answer quoting it. */
  function messageInTranscript(text: string, on: Page = page) {
    return transcriptOf(on).getByText(text, { exact: true });
  }

  async function createSessionWithMessages(title: string, messages: string[]): Promise<string> {
    const { createSession } = await queryApi<{ createSession: { id: string } }>(
      server,
      'mutation ($title: String!) { createSession(input: { title: $title }) { id } }',
      { title },
    );
    for (const text of messages) {
      await queryApi(server, POST_MESSAGE, { id: createSession.id, text });
    }
    return createSession.id;
  }

  /** A third party (an agent, another client) continues a session over HTTP. */
  async function continueOverHttp(sessionId: string, title: string): Promise<string> {
    const { continueSession } = await queryApi<{
      continueSession: { __typename: string; successor?: { id: string }; message?: string };
    }>(server, CONTINUE_SESSION, {
      input: {
        sessionId,
        title,
        reason: 'TOPIC_CHANGE',
        idempotencyKey: `third-party-${sessionId}`,
        handoff: { purpose: `Carry on with ${title}`, currentRequest: 'Keep going' },
        sources: [],
      },
    });
    if (!continueSession.successor) throw new Error(`continueSession was refused: ${continueSession.message}`);
    return continueSession.successor.id;
  }

  it('previews, then continues a session from the dialog after an inline refusal of a budget too small', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByLabel('Title').fill('Plan the release');
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.waitForURL(/\/sessions\/[^/?]+$/);
    predecessorUrl = page.url();
    for (const message of ['Which tests still fail?', 'Now let us plan the deployment']) {
      await page.getByLabel('Message').fill(message);
      await page.getByRole('button', { name: 'Send' }).click();
      await messageInTranscript(message).waitFor();
      await page.getByRole('button', { name: 'Send', exact: true }).and(page.locator('[disabled]')).waitFor();
      await answerTo(message).waitFor();
    }

    await (await openSessionMenu(page)).getByRole('button', { name: 'Continue in new session' }).click();
    const dialog = page.getByRole('dialog', { name: 'Continue in new session' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Title').evaluate((field) => field === document.activeElement)).toBe(true);
    // The next part, never the session's own title again.
    expect(await dialog.getByLabel('Title').inputValue()).toBe('Plan the release, part 2');
    expect(await dialog.getByLabel('Current request').inputValue()).toBe('Now let us plan the deployment');
    await dialog.getByLabel('Title').fill('Deployment plan');
    await dialog.getByLabel('Purpose').fill('Plan the deployment of the release');
    await dialog.getByLabel(/Decisions/).fill('Ship on Friday\nUse blue-green deployment');
    await dialog.getByLabel('Token budget').fill('100');
    // The preview answers the refusal confirming would get, before anything is confirmed.
    const preview = dialog.getByRole('region', { name: 'Preview of the new session' });
    await preview.getByText(/As it stands, the session would not be continued\. tokenBudget 100 is below/).waitFor();
    await dialog.getByRole('button', { name: 'Continue' }).click();

    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    const minimum = Number(/Must be at least (\d+)/.exec(await refusal.innerText())?.[1]);
    expect(minimum).toBeGreaterThan(100);
    expect(page.url()).toBe(predecessorUrl);
    await saveScreenshot(page, '08-continue-budget-refused');

    // Just above the minimum: the cited conversation cannot fit and is omitted. The margin covers
    // the minimum's drift between attempts (it counts the tokens of freshly generated ids).
    const budget = minimum + 60;
    await dialog.getByLabel('Token budget').fill(String(budget));
    // Before confirming, the preview shows the budget and what it leaves out.
    await preview.getByRole('figure', { name: new RegExp(`^[\\d,]+ of ${budget} tokens used`) }).waitFor();
    await preview.getByText(new RegExp(`^Would include 1 of 3 sources and omit 2, using [\\d,]+ of ${budget} tokens\\.$`)).waitFor();
    const statuses = await preview.locator('.manifest-item .status').allInnerTexts();
    expect(statuses.map((status) => status.replace(/^\W+/, ''))).toEqual(['Included', 'Omitted', 'Omitted']);
    await preview.getByRole('article').filter({ hasText: 'the conversation so far' }).getByText('Omitted').waitFor();
    expect(page.url()).toBe(predecessorUrl);
    await saveScreenshot(page, '08b-continue-preview');
    await dialog.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL((url) => url.href !== predecessorUrl && /\/sessions\/[^/?]+$/.test(url.pathname));
    successorUrl = page.url();
    const banner = page.getByRole('complementary', { name: 'Continuation' });
    await banner.getByText('Continued from “Plan the release”').waitFor();
    await banner.getByText(/You continued in a new session\./).waitFor();
    await page.getByRole('heading', { name: 'Deployment plan' }).waitFor();
    await messageInTranscript('Now let us plan the deployment').waitFor();
    await transcriptOf(page).getByRole('link', { name: 'from “Plan the release”' }).waitFor();
    // The successor's own first turn answers the replayed message there.
    await answerTo('Now let us plan the deployment').waitFor();
    await saveScreenshot(page, '09-successor-banner');
  });

  it('goes Back to the predecessor and its transition card without bouncing forward', async () => {
    await page.goBack();
    await page.waitForURL(predecessorUrl);

    const card = transcriptOf(page).getByRole('article', { name: 'Continued in “Deployment plan”' });
    // The sources counted as the inspector lists them: the initiating message, the recent exchange, the
    // conversation. (The budget was too small for the handoff itself: its decisions did not come along.)
    await card.getByText('Carried the current request and 3 sources (1 included, 2 omitted).').waitFor();
    await page.getByRole('link', { name: 'Open current continuation' }).waitFor();
    await page.waitForTimeout(SETTLE_MS);
    expect(page.url()).toBe(predecessorUrl);
    await saveScreenshot(page, '10-predecessor-card');
  });

  it('inspects the handoff: included and omitted sources, the budget, and the exact cited events', async () => {
    await transcriptOf(page).getByRole('link', { name: 'Inspect handoff' }).click();
    await page.waitForURL(/\/continuations\/[^/]+$/);

    const manifest = page.getByRole('region', { name: 'Projection manifest' });
    await manifest.getByText(/of [\d,]+ tokens used/).waitFor();
    const statuses = await manifest.locator('.manifest-item .status').allInnerTexts();
    expect(statuses.map((status) => status.replace(/^\W+/, ''))).toEqual(['Included', 'Omitted', 'Omitted']);
    await page.getByRole('region', { name: 'What the agent handed over' }).getByText('Ship on Friday').waitFor();
    await manifest.getByText('projection-compiler/4').waitFor();
    await saveScreenshot(page, '11-handoff-inspector');

    await manifest.getByRole('link', { name: 'Open source: the conversation so far' }).click();
    await page.waitForURL(/\?from=.+&to=.+/);
    // The notice either way, so that a failure says which.
    const citedNotice = page.getByText(/^(Highlighting events|The cited events cannot be shown)/);
    await citedNotice.waitFor().catch(async (error: Error) => {
      // Still loading the session, or still finding the events: the page's statuses say which.
      throw new Error(`${error.message}\nThe page's statuses: ${(await page.getByRole('status').allInnerTexts()).join(' | ')}`);
    });
    expect(await citedNotice.innerText()).toBe('Highlighting events 1–4, a cited source.');
    // The whole conversation as it was confirmed: both messages and both answers.
    // The notice comes with the range; the events render once the transcript has scrolled to them.
    await eventually('the four cited events are highlighted', async () => (await transcriptOf(page).locator('.transcript-item-cited').count()) === 4);
    expect(page.url().startsWith(predecessorUrl)).toBe(true);
    await saveScreenshot(page, '12-cited-range');
  });

  it('moves a tab following the live end, tells a tab scrolled away, and leaves a tab elsewhere alone', async () => {
    const longDiscussion = await createSessionWithMessages(
      'Long discussion',
      Array.from({ length: 30 }, (_, index) => `Point ${index + 1} of the discussion`),
    );
    const elsewhere = await createSessionWithMessages('Release notes', ['Draft the notes']);
    const following = await createSessionWithMessages('Follow along', ['Keep me posted']);

    const reader = await openPage();
    await reader.goto(`${server.url}/sessions/${longDiscussion}`);
    // Turns run one at a time, in order: the last message answered, the session is between turns.
    // (On a slow machine the answers come after all thirty messages, so the live end shows the
    // answer while the message itself may sit above the rendered window.)
    await answerTo('Point 30 of the discussion', reader).waitFor();
    // The reader scrolls up with the wheel, away from the live end.
    await reader.locator('.transcript').hover();
    await reader.mouse.wheel(0, -20_000);
    // Away from the live end. (Not at the very top: reaching it loads the earlier page above, which
    // keeps the reader's place, so the top may move away as the wheel gets there.)
    await reader.waitForFunction(() => {
      const transcript = document.querySelector('.transcript')!;
      return transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight > 1_000;
    });
    const bystander = await openPage();
    await bystander.goto(`${server.url}/sessions/${elsewhere}`);
    await answerTo('Draft the notes', bystander).waitFor();
    const follower = await openPage();
    await follower.goto(`${server.url}/sessions/${following}`);
    await answerTo('Keep me posted', follower).waitFor();

    await continueOverHttp(longDiscussion, 'Long discussion, part 2');
    const followedTo = await continueOverHttp(following, 'Follow along, part 2');

    await reader.getByRole('status').filter({ hasText: 'This session was continued in “Long discussion, part 2”' }).waitFor();
    await follower.waitForURL(`${server.url}/sessions/${followedTo}`);
    await follower.getByText('Continued from “Follow along”').waitFor();
    await reader.waitForTimeout(SETTLE_MS);
    expect(reader.url()).toBe(`${server.url}/sessions/${longDiscussion}`);
    expect(bystander.url()).toBe(`${server.url}/sessions/${elsewhere}`);
    expect(await bystander.getByText(/This session was continued/).count()).toBe(0);
    await saveScreenshot(reader, '13-notice-not-following');

    await reader.getByRole('link', { name: 'Open', exact: true }).click();
    await reader.getByRole('heading', { name: 'Long discussion, part 2' }).waitFor();
    await Promise.all([reader.close(), bystander.close(), follower.close()]);
  });

  it('follows a continuation made while the tab was still subscribing to announcements', async () => {
    const watched = await createSessionWithMessages('Late subscriber', ['Watch this one']);
    const late = await openPage();
    // The tab's subscription to announcements reaches the server only once the continuation has
    // committed, as when a session is continued just as a page opens: the announcement is missed.
    let subscribing = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await late.routeWebSocket(/\/graphql$/, (socket) => {
      const upstream = socket.connectToServer();
      socket.onMessage(async (message) => {
        if (typeof message === 'string' && message.includes('"subscribe"') && message.includes('sessionContinued')) {
          subscribing = true;
          await released;
        }
        upstream.send(message);
      });
    });
    await late.goto(`${server.url}/sessions/${watched}`);
    await answerTo('Watch this one', late).waitFor();
    await eventually('the announcement subscription is held back', async () => subscribing);

    const successorId = await continueOverHttp(watched, 'Late subscriber, part 2');
    release();

    // The card the continuation appended to the transcript tells the tab all the same.
    await late.waitForURL(`${server.url}/sessions/${successorId}`);
    await late.getByText('Continued from “Late subscriber”').waitFor();
    await late.close();
  });

  it('offers the two choices in the old session, and a branch lands in a new successor', async () => {
    await page.goto(predecessorUrl);
    await page.getByRole('link', { name: 'Open current continuation' }).waitFor();
    expect(await page.getByLabel('Message').count()).toBe(0);

    await page.getByRole('button', { name: 'Branch into a new continuation' }).click();
    await page.getByLabel('First message of the new branch').fill('Actually, fix the flaky tests first');
    await saveScreenshot(page, '14-continued-choices');
    await page.getByRole('button', { name: 'Start branch' }).click();

    await page.waitForURL(
      (url) => url.href !== predecessorUrl && url.href !== successorUrl && /\/sessions\/[^/?]+$/.test(url.pathname),
    );
    await page.getByRole('complementary', { name: 'Continuation' }).getByText('Continued from “Plan the release”').waitFor();
    await messageInTranscript('Actually, fix the flaky tests first').waitFor();
    await answerTo('Actually, fix the flaky tests first').waitFor();
    await saveScreenshot(page, '15-branch-started');

    branchUrl = page.url();

    await page.getByRole('navigation', { name: 'Lineage' }).getByRole('link', { name: 'Plan the release' }).click();
    await page.waitForURL(predecessorUrl);
    // The sidebar unfolds the lineage of the session on screen: its map, this session marked.
    const map = page.getByRole('navigation', { name: 'Conversations' }).getByRole('list', { name: /^Lineage map of / });
    await map.waitFor();
    expect(await map.getByRole('link').count()).toBe(3);
    expect(await map.getByRole('link', { name: 'Plan the release', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await map.getByRole('listitem').filter({ hasText: 'Branch' }).count()).toBe(1);
    await saveScreenshot(page, '16-lineage-map');

    await map.getByRole('link', { name: 'Deployment plan' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(successorUrl);
  });

  it('lists each lineage once in the sidebar, by where it continues now, its sessions folded beneath', async () => {
    const conversations = page.getByRole('navigation', { name: 'Conversations' });
    const head = conversations.getByRole('link', { name: /3 sessions, branched/ });
    await head.waitFor();
    // The newest line of continuations is the branch written last.
    expect(await head.getAttribute('href')).toBe(new URL(branchUrl).pathname);
    expect(await conversations.getByRole('link', { name: /3 sessions/ }).count()).toBe(1);
    await saveScreenshot(page, '17-sessions-by-lineage');
  });

  it('fits a 375 px wide screen', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(predecessorUrl);
    const card = transcriptOf(page).getByRole('article', { name: 'Continued in “Deployment plan”' });
    await card.waitFor();
    await page.getByRole('link', { name: 'Open current continuation' }).waitFor();
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
    await saveScreenshot(page, '18-predecessor-narrow');

    await card.getByRole('link', { name: 'Inspect handoff' }).click();
    const manifest = page.getByRole('region', { name: 'Projection manifest' });
    await manifest.waitFor();
    expect(await horizontalOverflow()).toBeLessThanOrEqual(0);
    await manifest.getByRole('heading', { name: 'Sources' }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, '19-inspector-narrow');
  });

  it('ran without errors in the browser console', () => {
    expect(browserErrors).toEqual([]);
  });

  function horizontalOverflow() {
    return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }
});
