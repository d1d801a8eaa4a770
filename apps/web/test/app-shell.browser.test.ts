import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  expectAccessible,
  mainMenu,
  RIG_START_MS,
  screenshot,
  startBrowserRig,
} from './support/browser.js';

describe('the web app shell, served by the gateway in cluster mode', () => {
  let rig: BrowserRig;
  let page: Page;

  beforeAll(async () => {
    rig = await startBrowserRig();
    page = await (await rig.context({ width: 390, height: 844 })).newPage();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it('serves the start page at / with working navigation, at phone width', async () => {
    const res = await page.goto('/');
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Trace your plants');
    await (await mainMenu(page)).getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Trace your plants' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'home-phone');
  });

  it('answers unknown app paths with the app (its own not-found page), and unknown /api paths with JSON', async () => {
    const res = await page.goto('/no/such/page');
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await expectAccessible(page);
    const api = await fetch(`${rig.base}/api/no/such/route`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
  });

  it('works with the keyboard alone: the skip link moves focus to the content', async () => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Trace your plants' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
  });
});
