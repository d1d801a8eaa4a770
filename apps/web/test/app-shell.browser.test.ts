import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountMenu,
  type BrowserRig,
  expectAccessible,
  mainMenu,
  RIG_START_MS,
  screenshot,
  signIn,
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

  it('signed in at 1280 px, keeps the header on one line with an account menu; at 390 px the Menu sheet holds it all', async () => {
    const who = {
      name: 'Hedda Header',
      email: `hedda-${Date.now()}@example.org`,
      password: 'a long header passphrase',
    };
    await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(who),
    });
    const desk = await (await rig.context()).newPage();
    await signIn(desk, who);
    const banner = desk.getByRole('banner');
    const nav = banner.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: /^Inbox/ }).waitFor();
    const button = banner.getByRole('button', { name: `Account menu: ${who.name}` });
    await screenshot(desk, 'header-desktop-signed-in');
    // One line: the links, the account button and the brand share a row.
    const tops = await banner
      .locator('a, button')
      .evaluateAll((els) =>
        els
          .filter((e) => e.getClientRects().length > 0)
          .map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)),
      );
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(4);
    expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(80);

    // The account menu opens from the keyboard, moves with the arrows and gives focus back on Escape.
    await button.focus();
    await desk.keyboard.press('Enter');
    const menu = desk.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Account', exact: true }).waitFor();
    await menu.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    await expectAccessible(desk);
    await screenshot(desk, 'header-account-menu');
    await desk.keyboard.press('Escape');
    await expect.poll(() => desk.getByRole('menu').count()).toBe(0);
    expect(await desk.evaluate('document.activeElement.textContent')).toContain(who.name);

    // At phone width the account button gives way to the Menu button, whose sheet holds the account's link.
    const phone = await (await rig.context({ width: 390, height: 844 })).newPage();
    await signIn(phone, who);
    expect(
      await phone
        .getByRole('banner')
        .getByRole('button', { name: /^Account menu/ })
        .isVisible(),
    ).toBe(false);
    const sheet = await mainMenu(phone);
    await sheet.getByRole('link', { name: 'Account', exact: true }).waitFor();
    await screenshot(phone, 'header-menu-phone-signed-in');
    await phone.keyboard.press('Escape');

    // Signing out from the menu leads home, signed out.
    await (await accountMenu(desk)).getByRole('menuitem', { name: 'Sign out' }).click();
    await nav.getByRole('link', { name: 'Sign in' }).waitFor();
    expect(new URL(desk.url()).pathname).toBe('/');
  }, 120_000);
});
