import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
  browser: Browser;
  /** A fresh browser context (its own cookies) at phone or desktop width. */
  context(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  stop(): Promise<void>;
}

const SETTINGS = {
  CHAIN_DIFFICULTY: '8',
  BCRYPT_COST: '4',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_PER_HOUR_PER_USER: '1000000',
  AUTH_RATE_LIMIT_PER_MINUTE: '1000',
};

/**
 * Rootline as a cluster on a private NATS and a fresh PostgreSQL database. By default every service runs in this
 * test process with its own NATS connection (the cluster's transport and database, without eleven Node processes
 * to start on a 2-core machine); `BROWSER_TESTS_CLUSTER=processes` starts the real process-per-service cluster.
 */
async function startRootline(): Promise<{ base: string; adminToken: string; stop(): Promise<void> }> {
  if (process.env.BROWSER_TESTS_CLUSTER === 'processes') {
    const c = await startTestCluster({ env: SETTINGS, readyTimeoutMs: 240_000 });
    return { base: c.cluster.url, adminToken: c.token, stop: () => c.stop() };
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const storage = mkdtempSync(join(tmpdir(), 'rootline-web-media-'));
  const platform = await startTestPlatform(SERVICES, {
    ...SETTINGS,
    ...TEST_ADMIN_ENV,
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
    async stop() {
      await platform.stop();
      rmSync(storage, { recursive: true, force: true });
    },
  };
}

export async function startBrowserRig(): Promise<BrowserRig> {
  const rootline = await startRootline();
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
    browser,
    context: (viewport = { width: 1280, height: 900 }) =>
      browser.newContext({ viewport, baseURL: rootline.base, acceptDownloads: true }),
    async stop() {
      await browser.close();
      await rootline.stop();
    },
  };
}

/** Runs axe-core on the page and fails on any serious or critical violation (listed by rule and target). */
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
