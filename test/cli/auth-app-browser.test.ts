// `auth login --app` end to end in a real headless browser: Debian's chromium, driven by
// playwright-core (no browser of its own), against the sandbox's consent page, with JavaScript off
// to prove the page needs none. Screenshots of the consent page at a phone's and a desktop's width
// go to test/artifacts/ (not committed). Without chromium the tests say they were skipped, and why.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { freePort, startLogin } from './app-login.js';
import { runCli, useConfigDir } from './run.js';

const CHROMIUM = process.env.STORE_ADMIN_TEST_CHROMIUM ?? '/usr/bin/chromium';
const SECRET = 'browser-test-secret-93af01';
const OUTPUT = new URL('../artifacts/', import.meta.url).pathname;
const skipped = existsSync(CHROMIUM) ? undefined : `skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set STORE_ADMIN_TEST_CHROMIUM)`;
if (skipped) console.warn(`auth login --app in a real browser: ${skipped}`);

describe.skipIf(!!skipped)(`auth login --app in a real browser${skipped ? ` (${skipped})` : ''}`, () => {
  let browser: Browser;
  let sandbox: Sandbox;
  let port: number;
  const root = useConfigDir();
  let n = 0;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    port = await freePort();
    sandbox = await startSandbox({ oauth: { clientSecret: SECRET, redirectUris: [`http://127.0.0.1:${port}/callback`] } });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Playwright adds --headless and a fresh --user-data-dir of its own.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    mkdirSync(OUTPUT, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await sandbox?.close();
  });

  /** A login waiting for its answer, and a fresh browser with no JavaScript on its consent page. */
  async function begin(extra: string[] = [], width = 1280) {
    const dir = join(root, `cfg-${n++}`);
    const run = startLogin(['--client-id', 'sandbox-app', '--base-url', sandbox.url, '--redirect-port', String(port), '--no-browser', ...extra], {
      STORE_ADMIN_CONFIG_DIR: dir,
      STORE_ADMIN_CLIENT_SECRET: SECRET,
    });
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const url = await run.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\/\?/);
    await page.goto(url);
    return { dir, run, page };
  }

  const cli = (dir: string, args: string[]) => runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir } });

  /** Nothing wider than the window, and both buttons inside it. */
  async function fits(page: Page, width: number) {
    // An expression, as the page sees it (the tests are compiled without the DOM's types).
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    for (const name of ['Approve', 'Deny']) {
      const box = (await page.getByRole('button', { name }).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(box.height).toBeGreaterThanOrEqual(40);
    }
  }

  it('approve with every scope: the consent page at 1280 and 390 px, then the next command works', async () => {
    const { dir, run, page } = await begin();
    await expect(page.title()).resolves.toBe('Allow Northwind Ops Console to access Northwind Outfitters?');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Allow Northwind Ops Console to access your store?');
    // Every box is labelled in plain words, and ticked.
    for (const name of ['See orders', 'Change orders', 'Change customers', 'See exports', 'Change the fulfillment service']) {
      await expect(page.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) }).isChecked()).resolves.toBe(true);
    }
    await fits(page, 1280);
    await page.screenshot({ path: join(OUTPUT, 'consent-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await fits(page, 390);
    await page.screenshot({ path: join(OUTPUT, 'consent-390.png'), fullPage: true });

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`http://127.0.0.1:${port}/callback?**`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Logged in');
    const end = await run.exited;
    expect(end.code, end.stderr).toBe(0);
    expect((await cli(dir, ['orders', 'add-note', '10001', '--message', 'Approved in a browser'])).code).toBe(0);
    const status = await cli(dir, ['auth', 'status', '--json']);
    expect(status.json()).toMatchObject({ login: 'app', client_id: 'sandbox-app', not_covered: [], authenticated: true });
  });

  it('by keyboard alone: untick orders:read and approve; a command that needs it is refused with the hint', async () => {
    const { dir, run, page } = await begin([], 390);
    // Tab from the top of the page reaches the boxes, then Deny, then Approve.
    const focused = () => page.evaluate<string>("document.activeElement?.value ?? ''");
    const reached: string[] = [];
    const stops = (await page.getByRole('checkbox').count()) + 10;
    for (let i = 0; i < stops && (reached.at(-1) ?? '') !== 'approve'; i++) {
      await page.keyboard.press('Tab');
      const value = await focused();
      reached.push(value);
      if (value === 'orders:read') await page.keyboard.press('Space');
    }
    expect(reached.slice(-2)).toEqual(['deny', 'approve']);
    expect(reached).toContain('orders:read');
    await expect(page.getByRole('checkbox', { name: /^See orders\b/ }).isChecked()).resolves.toBe(false);
    await page.keyboard.press('Enter');
    await page.waitForURL(`http://127.0.0.1:${port}/callback?**`);
    const end = await run.exited;
    expect(end.code, end.stderr).toBe(0);
    expect(JSON.parse(end.stdout).not_granted).toEqual(['orders:read']);
    const refused = await cli(dir, ['orders', 'fulfillment-orders', '10001']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('(HTTP 403)');
    expect(refused.stderr).toMatch(/^hint: This command needs a token with the scope orders:read; the app login of profile "default" was granted .*, without orders:read\./m);
    expect((await cli(dir, ['orders', 'add-note', '10001', '--message', 'still allowed'])).code).toBe(0);
  });

  it('deny: the tab says the login was refused, the command exits 4, nothing is saved', async () => {
    const { dir, run, page } = await begin();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`http://127.0.0.1:${port}/callback?**`);
    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('The login was refused');
    const end = await run.exited;
    expect(end.code).toBe(4);
    expect(end.stderr).toContain("The store refused the app's access");
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a forged callback with the wrong state, opened in the browser, is refused and changes nothing; the real approval still works', async () => {
    const { dir, run, page } = await begin();
    const consent = page.url();
    const exchanges = sandbox.counters.oauth.exchanges;
    const forged = await page.goto(`http://127.0.0.1:${port}/callback?store=${new URL(sandbox.url).host}&code=forged-code&state=not-the-state`);
    expect(forged?.status()).toBe(400);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('The login was refused');
    expect(sandbox.counters.oauth.exchanges).toBe(exchanges);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    await page.goto(consent);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`http://127.0.0.1:${port}/callback?**`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Logged in');
    const end = await run.exited;
    expect(end.code, end.stderr).toBe(0);
    expect(end.stderr).toContain("refused an answer that did not carry this login's state");
    expect(sandbox.counters.oauth.exchanges).toBe(exchanges + 1);
  });
});
