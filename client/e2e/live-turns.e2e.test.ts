import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, launchBrowser, saveScreenshot, seriousViolations, transcriptOf, type Browser } from './browser';

describe('answers stream in, render as Markdown, and can be stopped', () => {
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

  function assistantMessages() {
    return transcriptOf(page)
      .getByRole('listitem')
      .filter({ has: page.getByText('Assistant', { exact: true }) });
  }

  async function send(message: string) {
    await page.getByLabel('Message').fill(message);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  /** No serious or critical accessibility violations on the page as it is now. */
  async function expectAccessible() {
    expect(await seriousViolations(page)).toEqual([]);
  }

  it('opens a new conversation without serious accessibility problems', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByLabel('Title').waitFor();
    await expectAccessible();
  });

  it('renders an answer with a table and a highlighted code block, and names the session in the title', async () => {
    await page.getByLabel('Title').fill('Rendering');
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.waitForURL(/\/sessions\/[^/?]+$/);
    await page.waitForFunction(() => document.title.startsWith('Rendering'));

    await send('/echo Here is a table:\n\n| fruit | count |\n| --- | --- |\n| apple | 3 |\n\n```js\nconst answer = 42;\n```\n\n<img src=x onerror="window.ran = true">');
    const answer = assistantMessages().last();
    await answer.getByRole('table').waitFor();
    expect(await answer.getByRole('cell', { name: 'apple' }).count()).toBe(1);
    expect(await answer.locator('pre code .hljs-keyword').first().innerText()).toBe('const');
    expect(await answer.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { ran?: boolean }).ran)).toBeUndefined();
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
    await saveScreenshot(page, '30-markdown-answer');
    await expectAccessible();
  });

  it('stops a long answer while it streams, and marks what it produced as stopped', async () => {
    const words = Array.from({ length: 3000 }, (_, index) => `word${index}`).join(' ');
    await send(`/echo ${words}`);
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor();
    await page.getByLabel('The answer so far').waitFor();
    await saveScreenshot(page, '31-answer-streaming');
    await stop.click();

    const stopped = assistantMessages().filter({ hasText: 'Stopped before it finished.' });
    await stopped.waitFor();
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
    expect(await stop.count()).toBe(0);
    const text = await stopped.innerText();
    expect(text).toContain('word0 word1');
    expect(text).not.toContain('word2999');
    await saveScreenshot(page, '32-answer-stopped');
  });

  it('keeps Stop and the composer on screen while a 1,200-word answer streams into the transcript', async () => {
    const words = Array.from({ length: 1200 }, (_, index) => `word${index}`).join(' ');
    // Watched from inside the page, frame by frame, for as long as the answer is being written.
    const watched = page.evaluate(
      () =>
        new Promise<{ answerLength: number; stopBottom: number; composerBottom: number; transcriptBottom: number; composerTop: number; inTranscript: boolean }[]>(
          (resolve) => {
            const samples: { answerLength: number; stopBottom: number; composerBottom: number; transcriptBottom: number; composerTop: number; inTranscript: boolean }[] = [];
            const started = performance.now();
            const sample = () => {
              const answer = document.querySelector<HTMLElement>('[aria-label="The answer so far"]');
              const stop = [...document.querySelectorAll('button')].find((button) => button.textContent === 'Stop');
              const composer = document.querySelector('textarea[data-composer]');
              const transcript = document.querySelector('.transcript');
              if (answer && stop && composer && transcript) {
                samples.push({
                  answerLength: answer.innerText.length,
                  stopBottom: stop.getBoundingClientRect().bottom,
                  composerBottom: composer.getBoundingClientRect().bottom,
                  composerTop: composer.getBoundingClientRect().top,
                  transcriptBottom: transcript.getBoundingClientRect().bottom,
                  inTranscript: transcript.contains(answer),
                });
              } else if (samples.length > 0 || performance.now() - started > 20_000) {
                resolve(samples);
                return;
              }
              requestAnimationFrame(sample);
            };
            sample();
          },
        ),
    );
    await send(`/echo ${words}`);
    const samples = await watched;
    const viewport = page.viewportSize()!;

    expect(samples.length).toBeGreaterThanOrEqual(5);
    for (const seen of samples) {
      expect(seen.inTranscript).toBe(true);
      expect(seen.stopBottom).toBeLessThanOrEqual(viewport.height);
      expect(seen.composerBottom).toBeLessThanOrEqual(viewport.height);
      // The transcript's scroll box keeps its height: the answer grows inside it, above the composer.
      expect(seen.transcriptBottom).toBeLessThanOrEqual(seen.composerTop);
    }
    expect(samples.at(-1)!.answerLength).toBeGreaterThan(samples[0].answerLength);
    await page.getByText('Thinking…').waitFor({ state: 'hidden' });
  });

  it('ran without errors in the browser console', () => {
    expect(browserErrors).toEqual([]);
  });
});
