import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { startTestCluster, type TestCluster } from '@rootline/scripts/test-cluster';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where each test leaves its screenshots (not committed; docs/screenshots holds the chosen ones). */
export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results');

/** Rootline in cluster mode (NATS, PostgreSQL, a process per service) and a headless Chromium, for one file. */
export interface BrowserRig {
  cluster: TestCluster;
  base: string;
  browser: Browser;
  /** A fresh browser context (its own cookies) at phone or desktop width. */
  context(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  stop(): Promise<void>;
}

/** How long a file may take to start its rig (beforeAll's timeout): a cluster on a busy machine is slow. */
export const RIG_START_MS = 300_000;

export async function startBrowserRig(env: Record<string, string> = {}): Promise<BrowserRig> {
  // Eleven processes start at once: on a busy 2-core machine that can take longer than the default minute.
  const cluster = await startTestCluster({
    env: { CHAIN_DIFFICULTY: '8', BCRYPT_COST: '4', ...env },
    readyTimeoutMs: 240_000,
  });
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
    await cluster.stop();
    throw err;
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    cluster,
    base: cluster.cluster.url,
    browser,
    context: (viewport = { width: 1280, height: 900 }) =>
      browser.newContext({ viewport, baseURL: cluster.cluster.url, acceptDownloads: true }),
    async stop() {
      await browser.close();
      await cluster.stop();
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
