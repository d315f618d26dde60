import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

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

/** A path that is no route: the server answers it with 404 and the client's "Page not found". */
export const NO_SUCH_PAGE = '/no-such-page';

/**
 * Collects what a page reports as errors (uncaught exceptions, console errors) into `errors`;
 * the 404 of a visit to {@link NO_SUCH_PAGE} is expected, not an error.
 */
export function collectErrors(page: Page, errors: string[]): Page {
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url } = message.location();
    if (message.text().includes('404') && URL.canParse(url) && new URL(url).pathname === NO_SUCH_PAGE) return;
    errors.push(message.text());
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

/** Where the page's accessibility engine comes from: the `axe-core` package, injected into the page. */
const AXE_SOURCE = require.resolve('axe-core/axe.min.js');

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now
 * (dialogs and menus included), each as "rule: the elements it found"; empty when there are none.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: a script tag would be inline script, which the page's policy refuses.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE_SOURCE, 'utf8'));
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } };
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** The app's theme, as the theme choice in the sidebar sets it (and remembers it). */
export async function chooseTheme(page: Page, theme: 'System' | 'Light' | 'Dark'): Promise<void> {
  await page.getByRole('group', { name: 'Theme' }).getByText(theme, { exact: true }).click();
}

/** Opens the session menu of the conversation on screen, unless it is open already. */
export async function openSessionMenu(page: Page) {
  const button = page.getByRole('button', { name: 'Session menu' });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  return page.getByRole('group', { name: 'Session menu' });
}

/** The page's vertical box of an element, to check what is on screen. */
export async function boxOf(locator: Locator): Promise<{ top: number; bottom: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('The element is not laid out.');
  return { top: box.y, bottom: box.y + box.height };
}

/** Waits until `check` holds (layout settles over a few frames); throws with `what` after `timeoutMs`. */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Still not so after ${timeoutMs} ms: ${what}`);
}
