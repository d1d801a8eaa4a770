import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { startTestPlatform } from '@rootline/gateway/testing';
import { SERVICES } from '@rootline/scripts/services';
import { startTestCluster } from '@rootline/scripts/test-cluster';
import { freePort, signInOverHttp, TEST_ADMIN, TEST_ADMIN_ENV } from '@rootline/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where each test leaves its screenshots (not committed; docs/screenshots holds the chosen ones). */
export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results');
/** How long a file may take to start its rig (beforeAll's timeout). */
export const RIG_START_MS = 300_000;

/** Rootline on NATS and PostgreSQL with a headless Chromium, for one test file. */
export interface BrowserRig {
  base: string;
  /** A session of the first ADMIN, for checks made beside the browser. */
  adminToken: string;
  /** The platform's data folder: notify writes each email there under mail/ (no SMTP server is set). */
  dataDir: string;
  /** The platform's database, for setting up what time alone would (a household settled for two weeks). */
  databaseUrl: string;
  browser: Browser;
  /**
   * A fresh browser context (its own cookies and storage) at phone or desktop width, its browser set to a language
   * (`navigator.languages`): English unless `locale` is given, so the app starts in English. The app's service worker
   * runs in it, as in any browser; `serviceWorkers: 'block'` keeps it out, for a test whose `page.route` must see every
   * API request (requests the worker answers reach the network from the worker, where page routes do not apply).
   */
  context(
    viewport?: { width: number; height: number },
    options?: { serviceWorkers?: 'allow' | 'block'; locale?: string },
  ): Promise<BrowserContext>;
  stop(): Promise<void>;
}

const SETTINGS = {
  CHAIN_DIFFICULTY: '8',
  BCRYPT_COST: '4',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
  RATE_LIMIT_SESSION_PER_MINUTE: '1000000',
  RATE_LIMIT_PER_HOUR_PER_USER: '1000000',
  AUTH_RATE_LIMIT_PER_MINUTE: '1000',
  // Webhook receivers in the tests listen on 127.0.0.1, which the SSRF rule refuses otherwise.
  WEBHOOK_ALLOW_PRIVATE: 'true',
};

/**
 * Rootline as a cluster on a private NATS and a fresh PostgreSQL database. By default every service runs in this
 * test process with its own NATS connection (the cluster's transport and database, without eleven Node processes
 * to start on a 2-core machine); `BROWSER_TESTS_CLUSTER=processes` starts the real process-per-service cluster.
 */
async function startRootline(settings: Record<string, string>): Promise<{
  base: string;
  adminToken: string;
  dataDir: string;
  databaseUrl: string;
  stop(): Promise<void>;
}> {
  if (process.env.BROWSER_TESTS_CLUSTER === 'processes') {
    const dataDir = mkdtempSync(join(tmpdir(), 'rootline-web-data-'));
    const c = await startTestCluster({ env: { ...SETTINGS, ...settings, DATA_DIR: dataDir }, readyTimeoutMs: 240_000 });
    return {
      base: c.cluster.url,
      adminToken: c.token,
      dataDir,
      databaseUrl: c.db.url,
      async stop() {
        await c.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'rootline-web-data-'));
  const storage = join(dataDir, 'media');
  const platform = await startTestPlatform(SERVICES, {
    ...SETTINGS,
    ...settings,
    ...TEST_ADMIN_ENV,
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    STORAGE_DIR: storage,
    STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'),
    STORAGE_PUBLIC_URL: base,
  });
  await platform.app.listen({ port, host: '127.0.0.1' });
  const adminToken = await signInOverHttp(base, TEST_ADMIN.email, TEST_ADMIN.password);
  return {
    base,
    adminToken,
    dataDir,
    databaseUrl: platform.infra.pg.url,
    async stop() {
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the rig; `settings` adds to (or overrides) the platform's test settings, e.g. `MAP_TILE_URL`. */
export async function startBrowserRig(settings: Record<string, string> = {}): Promise<BrowserRig> {
  const rootline = await startRootline(settings);
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
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
  } catch (err) {
    await rootline.stop();
    throw err;
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    base: rootline.base,
    adminToken: rootline.adminToken,
    dataDir: rootline.dataDir,
    databaseUrl: rootline.databaseUrl,
    browser,
    context: (viewport = { width: 1280, height: 900 }, { serviceWorkers, locale = 'en-US' } = {}) =>
      browser.newContext({ viewport, baseURL: rootline.base, acceptDownloads: true, locale, serviceWorkers }),
    async stop() {
      await browser.close();
      await rootline.stop();
    },
  };
}

/** Runs axe-core on the page and fails on any serious or critical violation (listed by rule and target). */
/**
 * Calls the API over HTTP as the holder of `token` (setting up what a test needs without the pages), expects a 2xx
 * answer and returns its `data`.
 */
export async function call(rig: BrowserRig, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${rig.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
  return json.data;
}

export async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, `axe violations on ${page.url()}`).toEqual([]);
}

/** A full-page screenshot under test-results/, named for what it shows. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The link to `path` (e.g. /reset-password) in the newest email to `to`, once notify has written it. */
export async function emailedLink(dataDir: string, to: string, path: string, timeoutMs = 30_000): Promise<string> {
  const folder = join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.eml')) : [];
    for (const file of files.sort().reverse()) {
      // Quoted-printable soft breaks and escaped '=' undone, enough to read a link.
      const text = readFileSync(join(folder, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (!text.includes(to)) continue;
      const link = text.match(new RegExp(`https?://[^\\s"<>]*${path}\\?token=[A-Za-z0-9_%.-]+`));
      if (link) return link[0];
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no email to ${to} with a ${path} link in ${folder}`);
}

/** The main navigation, opened first with the Menu button where the screen is narrow enough to hide it. */
export async function mainMenu(page: Page) {
  const button = page.getByRole('banner').getByRole('button', { name: 'Menu', exact: true });
  if ((await button.isVisible()) && (await button.getAttribute('aria-expanded')) === 'false') await button.click();
  return page.getByRole('navigation', { name: 'Main' });
}

/**
 * The account menu of the header (from 768 px wide), opened: its links (Account, Administration) and Sign out are
 * menu items. Escape closes it and returns focus to its button.
 */
export async function accountMenu(page: Page) {
  const button = page.getByRole('banner').getByRole('button', { name: /^Account menu/ });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  return menu;
}

/**
 * Signs `who` in through the sign-in form and waits for the page it lands on: the level-1 heading `landing` when
 * given, else any level-1 heading but the sign-in form's own.
 */
export async function signIn(page: Page, who: { email: string; password: string }, landing?: string): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const heading = page.getByRole('heading', { level: 1, ...(landing ? { name: landing } : {}) });
  await (landing ? heading : heading.filter({ hasNotText: 'Sign in' })).waitFor();
}
