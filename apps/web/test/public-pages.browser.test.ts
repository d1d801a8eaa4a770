import { readFileSync } from 'node:fs';
import { TEST_ADMIN } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  mainMenu,
  RIG_START_MS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

const STEP_MS = 120_000;

/**
 * The reads a plant's page makes for a visitor (session, plant, certificate, photos, lineage, journey, owners) and for
 * a person signed in (those, with the environment record and health and the QR code): the budgets of docs/web.md.
 */
const PLANT_PAGE_BUDGET = { visitor: 7, signedIn: 11 } as const;

/** The API reads (GET /api/…) a page makes, counted from its network requests. */
function countReads(page: Page): { reads: string[] } {
  const seen = { reads: [] as string[] };
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (r.method() === 'GET' && url.pathname.startsWith('/api/')) seen.reads.push(url.pathname);
  });
  return seen;
}

describe('public pages, limits made for people, links that open, and the phone menu', () => {
  let rig: BrowserRig;
  let admin: { id: string; name: string };
  let plantId: string;
  let listingId: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    const session = await call(rig, rig.adminToken, 'GET', '/api/auth/session');
    const user = session.user as { id: string; name: string };
    admin = { id: user.id, name: user.name };
    const plant = await call(rig, rig.adminToken, 'POST', '/api/plants/register', {
      commonName: 'Public pear',
      scientificName: 'Pyrus communis',
      location: { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' },
      owner: admin,
      privacyLevel: 'city',
    });
    plantId = String(plant.id);
    const listing = await call(rig, rig.adminToken, 'POST', '/api/marketplace/listings', {
      title: 'Pear seedlings',
      description: 'Grafted last spring, picked up from the orchard gate.',
      category: 'seedlings',
      price: 450,
      currency: 'EUR',
      quantity: 4,
      location: { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' },
      privacyLevel: 'city',
      plantId,
    });
    listingId = String(listing.id);
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'lets a visitor open Discover, a plant, a listing and a seller signed out, within the page budget',
    async () => {
      const page = await (await rig.context()).newPage();
      await page.goto('/discover');
      await page.getByRole('heading', { level: 1, name: 'Discover' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/discover');
      await page.getByRole('searchbox').first().fill('pear');
      await page.getByRole('searchbox').first().press('Enter');
      await page
        .getByRole('link', { name: /Public pear/ })
        .first()
        .waitFor({ timeout: 30_000 });
      await expectAccessible(page);
      await screenshot(page, 'visitor-discover');

      const seen = countReads(page);
      await page.goto(`/plants/${plantId}`);
      await page.getByRole('heading', { level: 1, name: 'Public pear' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/plants/${plantId}`);
      // Each section in its tab, read when first opened: the budget holds once every tab has been opened.
      for (const [tab, heading] of [
        ['Lineage', /Lineage/],
        ['Journey', /Journey/],
        ['Certificate', /Certificate/],
        ['Facts', /Facts/],
      ] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tabpanel').getByRole('heading', { name: heading }).first().waitFor();
      }
      await expect.poll(() => page.getByText('Loading…').count(), { timeout: 20_000 }).toBe(0);
      // Public fields at the plant's privacy level: the city's cell, never the registered point.
      expect(await page.getByText('52.0907').count()).toBe(0);
      // What needs an account is not offered, and nothing asks to sign in.
      expect(await page.getByRole('heading', { name: 'Propagate' }).count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(seen.reads.length, seen.reads.join('\n')).toBeLessThanOrEqual(PLANT_PAGE_BUDGET.visitor);
      await expectAccessible(page);
      await screenshot(page, 'visitor-plant');

      await page.goto(`/market/listings/${listingId}`);
      await page.getByRole('heading', { level: 1, name: 'Pear seedlings' }).waitFor();
      await page.getByRole('link', { name: 'Sign in to make an offer' }).waitFor();
      await expectAccessible(page);
      await screenshot(page, 'visitor-listing');

      await page.goto(`/market/sellers/${admin.id}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expect.poll(() => page.getByText('Loading…').count(), { timeout: 20_000 }).toBe(0);
      expect(new URL(page.url()).pathname).toBe(`/market/sellers/${admin.id}`);
      expect(await page.getByRole('alert').count()).toBe(0);
      await expectAccessible(page);
      await screenshot(page, 'visitor-seller');
      await page.context().close();
    },
    STEP_MS,
  );

  it(
    'opens the plant’s page signed out after an anonymous registration, and proves ownership with the saved key',
    async () => {
      const page = await (await rig.context({ width: 390, height: 844 })).newPage();
      await page.goto('/plants/register-anonymous');
      await page.getByLabel('Common name').fill('Hidden hazel');
      await page.getByLabel('Latitude').fill('52.1601');
      await page.getByLabel('Longitude').fill('4.4970');
      await page.getByRole('button', { name: 'Make my key and register' }).click();
      await page.getByRole('heading', { name: 'Your plant is on the ledger' }).waitFor({ timeout: 60_000 });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download the private key' }).click(),
      ]);
      const keyFile = (await download.path())!;
      const saved = JSON.parse(readFileSync(keyFile, 'utf8')) as { plantId: string };

      await page.getByRole('link', { name: 'Open the plant’s page' }).click();
      await page.getByRole('heading', { level: 1, name: 'Hidden hazel' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/plants/${saved.plantId}`);
      const proof = page.getByRole('region', { name: 'Prove you own this plant' });
      await proof.getByLabel('Saved key file').setInputFiles(keyFile);
      await proof.getByRole('button', { name: 'Prove ownership' }).click();
      await proof.getByRole('status').filter({ hasText: 'Proven: this key holds the plant’s wallet.' }).waitFor();
      await expectAccessible(page);
      await screenshot(page, 'anonymous-owner-proof');

      // Another plant's key proves nothing.
      await page.goto(`/plants/${plantId}`);
      await page.getByRole('heading', { level: 1, name: 'Public pear' }).waitFor();
      expect(await page.getByRole('region', { name: 'Prove you own this plant' }).count()).toBe(0);
      await page.context().close();
    },
    STEP_MS,
  );

  it(
    'shows a 429 as a calm pause that tries again after Retry-After, and never signs the person out',
    async () => {
      // Without the service worker, so the routes below see the page's reads (a worker's reads bypass them).
      const signInPage = await (await rig.context(undefined, { serviceWorkers: 'block' })).newPage();
      await signIn(signInPage, TEST_ADMIN);
      // A page of its own (the same cookies), so no request of the sign-in page meets the refusals below.
      const page = await signInPage.context().newPage();
      await signInPage.close();
      // The gateway's 429 (its envelope and Retry-After, as services/gateway/test/rate-limit.test.ts checks over
      // HTTP) answered once to the session check and once to the plant read.
      const limited = {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '3' },
        body: JSON.stringify({
          success: false,
          data: null,
          error: {
            code: 'RATE_LIMITED',
            message: 'Rate limit of 600 requests per minute per session exceeded; retry in 3 s',
            details: { retryAfterSeconds: 3 },
          },
        }),
      };
      let sessionRefused = 0;
      let plantRefused = 0;
      await page.route('**/api/auth/session', (route) =>
        sessionRefused++ === 0 ? route.fulfill(limited) : route.fallback(),
      );
      await page.route(`**/api/plants/${plantId}`, (route) =>
        plantRefused++ === 0 ? route.fulfill(limited) : route.fallback(),
      );
      await page.goto('/plants/mine');
      const pause = page.getByRole('status').filter({ hasText: 'A short pause.' });
      await pause.waitFor();
      expect(await pause.textContent()).toMatch(/tries again in [123] s/);
      expect(new URL(page.url()).pathname).toBe('/plants/mine');
      await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor({ timeout: 15_000 });
      expect(new URL(page.url()).pathname).toBe('/plants/mine');

      await page.goto(`/plants/${plantId}`);
      await page.getByRole('status').filter({ hasText: 'A short pause.' }).waitFor();
      await screenshot(page, 'rate-limited-pause');
      expect(await page.getByText('RATE_LIMITED').count()).toBe(0);
      expect(await page.getByText('"success"').count()).toBe(0);
      await expectAccessible(page);
      await page.getByRole('heading', { level: 1, name: 'Public pear' }).waitFor({ timeout: 15_000 });
      expect(sessionRefused).toBeGreaterThanOrEqual(1);
      expect(plantRefused).toBe(2);
      await page.context().close();
    },
    STEP_MS,
  );

  it(
    'makes inbox items links to their subject, and keeps the signed-in plant page within its budget',
    async () => {
      const page = await (await rig.context()).newPage();
      await signIn(page, TEST_ADMIN);
      await page.goto('/inbox');
      const item = page.getByRole('link', { name: 'Public pear is registered' });
      await item.waitFor({ timeout: 60_000 });
      await expectAccessible(page);
      await screenshot(page, 'inbox-links');
      const seen = countReads(page);
      await item.click();
      await page.getByRole('heading', { level: 1, name: 'Public pear' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/plants/${plantId}`);
      await expect.poll(() => page.getByText('Loading…').count(), { timeout: 20_000 }).toBe(0);
      const plantReads = seen.reads.filter((r) => !r.startsWith('/api/notifications'));
      expect(plantReads.length, plantReads.join('\n')).toBeLessThanOrEqual(PLANT_PAGE_BUDGET.signedIn);
      await page.context().close();
    },
    STEP_MS,
  );

  it(
    'puts the menu behind a button at phone width, with a header at most 120 px tall',
    async () => {
      const page = await (await rig.context({ width: 390, height: 844 })).newPage();
      await signIn(page, TEST_ADMIN);
      await page.goto('/discover');
      await page.getByRole('heading', { level: 1, name: 'Discover' }).waitFor();
      const menu = page.getByRole('banner').getByRole('button', { name: 'Menu', exact: true });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
      const header = await page.getByRole('banner').boundingBox();
      expect(header!.height).toBeLessThanOrEqual(120);
      await expectAccessible(page);
      await screenshot(page, 'phone-menu-closed');

      // The menu opens as a modal sheet (a dialog): the rest of the page, the button too, is hidden from it meanwhile.
      const nav = await mainMenu(page);
      await page.getByRole('dialog', { name: 'Menu' }).waitFor();
      await nav.getByRole('link', { name: 'My plants' }).waitFor();
      await expectAccessible(page);
      await screenshot(page, 'phone-menu-open');
      await nav.getByRole('link', { name: 'My plants' }).click();
      await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
      // A new page closes the menu.
      expect(await menu.getAttribute('aria-expanded')).toBe('false');

      // At desktop width the menu is the header itself.
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await menu.isVisible()).toBe(false);
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
      await page.context().close();
    },
    STEP_MS,
  );
});
