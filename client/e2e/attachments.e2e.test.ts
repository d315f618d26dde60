import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, launchBrowser, saveScreenshot, transcriptOf, type Browser } from './browser';

/** A 16x16 PNG, red. */
const RED_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mO4o6ZGEmIY1TCqYfhqAAATqigQ9kvG0QAAAABJRU5ErkJggg==', 'base64');

describe('a person attaches files to messages, and a continuation carries the image by its cid', () => {
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

  /** The cids each user message of a session links, in seq order, read through the API. */
  async function attachedCids(sessionId: string): Promise<string[][]> {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.apiKey}` },
      body: JSON.stringify({
        query: 'query ($id: ID!) { session(id: $id) { events(first: 50) { edges { node { kind attachments { cid } } } } } }',
        variables: { id: sessionId },
      }),
    });
    const { data } = (await response.json()) as { data: { session: { events: { edges: { node: { kind: string; attachments: { cid: string }[] } }[] } } } };
    return data.session.events.edges.filter(({ node }) => node.kind === 'USER_MESSAGE').map(({ node }) => node.attachments.map(({ cid }) => cid));
  }

  const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!;

  /** Waits until every chosen file is uploaded: its progress bar gone, its size shown. */
  async function uploaded(name: string) {
    const draft = page.getByRole('list', { name: 'Attached files' }).getByRole('listitem').filter({ hasText: name });
    await draft.waitFor();
    await draft.getByRole('progressbar').waitFor({ state: 'detached' });
    expect(await draft.innerText()).toMatch(/\d+ B/);
  }

  /** A thumbnail whose bytes the page fetched with the key and decoded. */
  async function shownImage(scope: Locator, name: string) {
    const image = scope.getByRole('img', { name }).first();
    await image.waitFor();
    await page.waitForFunction((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth === 16, await image.elementHandle());
  }

  it('attaches an image with the button and a text file by dropping it, and shows both on the message', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByLabel('Title').fill('Photos');
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.waitForURL(/\/sessions\/[^/?]+$/);

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).click();
    await (await chooser).setFiles({ name: 'red.png', mimeType: 'image/png', buffer: RED_PNG });
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['Shot on the roof at noon.'], 'notes.txt', { type: 'text/plain' }));
      return transfer;
    });
    await page.locator('form.composer').dispatchEvent('dragover', { dataTransfer: dropped });
    await page.locator('form.composer').dispatchEvent('drop', { dataTransfer: dropped });
    await uploaded('red.png');
    await uploaded('notes.txt');

    await page.getByLabel('Message').fill('What is in this picture?');
    await page.getByRole('button', { name: 'Send' }).click();
    const message = transcriptOf(page).getByRole('article').filter({ hasText: 'What is in this picture?' });
    await shownImage(message.getByRole('list', { name: 'Attachments' }), 'red.png');
    await message.getByRole('button', { name: 'notes.txt' }).waitFor();
    // The built-in agent names what was attached.
    await transcriptOf(page).getByText(/Attached: red\.png, notes\.txt\./).waitFor();
    expect(await page.getByRole('list', { name: 'Attached files' }).count()).toBe(0);
    await saveScreenshot(page, '33-attachments-on-a-message');
  });

  it('opens the image full size and downloads the text file with its bytes', async () => {
    const message = transcriptOf(page).getByRole('article').filter({ hasText: 'What is in this picture?' });
    const popup = page.waitForEvent('popup');
    await message.getByRole('link', { name: /Open red\.png/ }).click();
    const opened = await popup;
    expect(opened.url()).toMatch(/^blob:/);
    await opened.close();

    const download = page.waitForEvent('download');
    await message.getByRole('button', { name: 'notes.txt' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('notes.txt');
    const stream = await saved.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('Shot on the roof at noon.');
  });

  it('continues a message with the same image: the successor replays it by the same cid and the inspector shows it', async () => {
    const predecessorUrl = page.url();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).click();
    await (await chooser).setFiles({ name: 'red-again.png', mimeType: 'image/png', buffer: RED_PNG });
    await uploaded('red-again.png');
    await page.getByLabel('Message').fill('/continue Looking closer');
    await page.getByRole('button', { name: 'Send' }).click();

    await page.waitForURL((url) => url.href !== predecessorUrl && /\/sessions\/[^/?]+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Looking closer' }).waitFor();
    const replayed = transcriptOf(page).getByRole('article').filter({ hasText: '/continue Looking closer' });
    // The same bytes were uploaded under another name: the account's first name for them stays.
    await shownImage(replayed, 'red.png');

    const [first, second] = await attachedCids(sessionIdOf(predecessorUrl));
    const [opening] = await attachedCids(sessionIdOf(page.url()));
    expect(second).toEqual([first[0]]);
    expect(opening).toEqual(second);
    await saveScreenshot(page, '34-successor-replays-the-image');

    await page.getByRole('complementary', { name: 'Continuation' }).getByRole('link', { name: 'View handoff' }).click();
    await page.waitForURL(/\/continuations\//);
    const item = page.getByRole('listitem').filter({ hasText: 'attached to the initiating user message' });
    await item.getByText('Attachment', { exact: true }).waitFor();
    await item.getByText(first[0]).first().waitFor();
    await shownImage(item, 'red.png');
    await saveScreenshot(page, '35-inspector-attachment');
    expect(browserErrors).toEqual([]);
  });
});
