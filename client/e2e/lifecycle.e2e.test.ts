import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { startApiServer, type RunningApiServer } from './api-server';
import { collectErrors, eventually, launchBrowser, openSessionMenu, saveScreenshot, seriousViolations, transcriptOf, type Browser } from './browser';

describe("a conversation's life cycle: export, import, retention and deletion for good", () => {
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

  const sidebarEntries = (title: string) => page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: title, exact: true });

  it('exports a conversation, imports the bundle as a copy, and deletes the copy after a typed confirmation', async () => {
    await page.goto(`${server.url}/?key=${encodeURIComponent(server.apiKey)}`);
    await page.getByLabel('Title').fill('Heron notes');
    await page.getByRole('button', { name: 'Create session' }).click();
    await page.waitForURL(/\/sessions\/[^/?]+$/);
    const originalUrl = page.url();
    await page.getByLabel('Message').fill('The heron key is in drawer 4.');
    await page.getByRole('button', { name: 'Send' }).click();
    await transcriptOf(page).getByText('The heron key is in drawer 4.', { exact: true }).waitFor();
    // The built-in agent answers; the export then holds the whole exchange.
    await transcriptOf(page).getByText(/^Noted/).waitFor();

    const download = page.waitForEvent('download');
    await (await openSessionMenu(page)).getByRole('button', { name: 'Export the conversation (.zip)' }).click();
    const bundlePath = await (await download).path();
    const bundle = readFileSync(bundlePath);
    expect(bundle.subarray(0, 2).toString()).toBe('PK');

    await page.getByRole('link', { name: /Signed in as/ }).click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('checkbox', { name: 'Keep everything' }).uncheck();
    await page.getByRole('spinbutton', { name: /Erase conversations after/ }).fill('90');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await page.getByText('Conversations with no new message for 90 days are erased.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import a conversation' }).click();
    await (await chooser).setFiles({ name: 'heron.zip', mimeType: 'application/zip', buffer: bundle });
    await page.waitForURL((url) => /\/sessions\/[^/?]+$/.test(url.pathname) && url.href !== originalUrl);
    await transcriptOf(page).getByText('The heron key is in drawer 4.', { exact: true }).waitFor();
    await transcriptOf(page).getByText(/^Noted/).waitFor();
    await eventually('the sidebar lists the copy beside the original', async () => (await sidebarEntries('Heron notes').count()) === 2);

    await (await openSessionMenu(page)).getByRole('button', { name: 'Delete for good…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete for good' });
    await dialog.getByRole('listitem').filter({ hasText: 'Heron notes' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, 'lifecycle-delete-dialog');
    await dialog.getByRole('textbox', { name: 'Why (kept on the receipt)' }).fill('A duplicate import');
    const confirm = dialog.getByRole('button', { name: 'Delete this session' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: /to confirm/ }).fill('Heron notes');
    await confirm.click();
    await transcriptOf(page).getByText(/Erased on .*: A duplicate import/).first().waitFor();
    expect(await transcriptOf(page).getByText(/heron key/).count()).toBe(0);
    await eventually('the sidebar lets the deleted copy go', async () => (await sidebarEntries('Heron notes').count()) === 1);
    await saveScreenshot(page, 'lifecycle-erased-transcript');

    await page.goto(originalUrl);
    await transcriptOf(page).getByText('The heron key is in drawer 4.', { exact: true }).waitFor();
    await page.goto(`${server.url}/account`);
    await page.getByText(/a session \(1 session, \d+ events?, 0 attachments\) by .*: A duplicate import/).waitFor();
    expect(browserErrors).toEqual([]);
  });
});
