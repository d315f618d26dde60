import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The distribution's Chromium; tests never download a browser. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium with a fresh profile: no stored key, cache or service worker carries over. */
export async function launchBrowser(): Promise<Browser> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'session-continuation-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Collects what a page reports as errors (uncaught exceptions, console errors) into `errors`. */
export function collectErrors(page: Page, errors: string[]): Page {
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return page;
}

const SCREENSHOTS = path.join(__dirname, 'screenshots');

/** A full-page screenshot into `e2e/screenshots/<name>.png`, where the README takes its pictures. */
export function saveScreenshot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The transcript of the session a page shows. */
export function transcriptOf(page: Page) {
  return page.getByRole('log', { name: 'Transcript' });
}
