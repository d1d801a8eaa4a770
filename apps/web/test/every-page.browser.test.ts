import AxeBuilder from '@axe-core/playwright';
import { APP_PAGES, type AppPage, appLink } from '@rootline/contracts/app-links';
import { TEST_ADMIN } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, call, mainMenu, RIG_START_MS, screenshot, startBrowserRig } from './support/browser.js';

// Every page of the app, at a phone's width (390 px) and a laptop's (1280 px), signed out and signed in: no serious or
// critical axe finding, and nothing wider than the screen (no sideways scrolling).

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** A walk over every page at one width: about forty pages, each loaded and checked. */
const WALK_MS = 420_000;
/** Pages worth a screenshot at each width, to look at. */
const PICTURED = new Set<AppPage>(['home', 'discover', 'plant', 'listing', 'farmBatch', 'farm', 'market', 'network']);

interface Problem {
  path: string;
  what: string;
}

describe('every page, at phone and laptop width, signed out and signed in', () => {
  let rig: BrowserRig;
  let paths: [AppPage, string][];
  let plantId: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    const t = rig.adminToken;
    const session = (await call(rig, t, 'GET', '/api/auth/session')) as { user: { id: string; name: string } };
    const owner = { id: session.user.id, name: session.user.name };
    const place = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
    const plant = await call(rig, t, 'POST', '/api/plants/register', {
      commonName: 'Walnut tree with a rather long common name for a narrow screen',
      scientificName: 'Juglans regia',
      location: place,
      owner,
    });
    plantId = String(plant.id);
    await call(rig, t, 'POST', '/api/plants/clone', {
      parentPlantId: plantId,
      propagationType: 'seed',
      newPlant: { location: place, owner },
    });
    const listing = await call(rig, t, 'POST', '/api/marketplace/listings', {
      title: 'Walnut seedlings',
      description: 'Grown from the old tree by the gate.',
      category: 'seedlings',
      price: 800,
      currency: 'EUR',
      quantity: 3,
      location: place,
      privacyLevel: 'city',
      plantId,
    });
    const farm = await call(rig, t, 'POST', '/api/vertical-farm/register', {
      name: 'Harbour Greens',
      location: { latitude: 51.9225, longitude: 4.4792, city: 'Rotterdam', country: 'NL' },
      floorAreaM2: 1200,
      levels: 8,
      lightingSystem: 'led',
      climateSystem: 'hvac-dehumidification',
    });
    const farmId = String(farm.id);
    const zone = await call(rig, t, 'POST', `/api/vertical-farm/farms/${farmId}/zones`, {
      name: 'Level 1 NFT',
      level: 1,
      areaM2: 100,
      growingMethod: 'nft',
      capacity: 1000,
    });
    const batch = await call(rig, t, 'POST', '/api/vertical-farm/batch/start', {
      farmId,
      zoneId: String(zone.id),
      recipeId: 'rcp_lettuce0butterhead01',
      crop: 'lettuce',
      variety: 'Rex',
      plantCount: 100,
      seedSource: { type: 'seed-lot', seedLot: 'RZ-1' },
    });
    const organization = await call(rig, t, 'POST', '/api/organizations', {
      name: 'Harbour Seed Library',
      kind: 'seed-library',
      description: 'Seeds saved by the harbour’s gardeners.',
      location: { latitude: 51.9225, longitude: 4.4792, city: 'Rotterdam', country: 'NL' },
    });
    const seedLot = await call(rig, t, 'POST', '/api/seed-lots', {
      crop: 'walnut',
      variety: 'Franquette with a rather long variety name',
      parentPlantIds: [plantId],
      harvestYear: 2025,
      quantity: { amount: 40, unit: 'seeds' },
      storage: { place: 'Shed', temperatureC: 5, humidityPct: 40, container: 'Paper bag' },
    });
    await call(rig, t, 'POST', `/api/seed-lots/${seedLot.id}/germination-tests`, {
      testedOn: '2026-01-15',
      seedsSown: 20,
      germinated: 15,
    });
    const params: Record<string, string> = {
      seedLotId: String(seedLot.id),
      organizationId: String(organization.id),
      plantId,
      listingId: String(listing.id),
      sellerId: owner.id,
      farmId,
      batchId: String(batch.id),
    };
    paths = (Object.keys(APP_PAGES) as AppPage[]).map((name) => [name, appLink(name, params)]);
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  /** Opens each page and lists what is wrong with it: axe's serious and critical findings, and sideways scrolling. */
  async function walk(page: Page, label: string): Promise<Problem[]> {
    const problems: Problem[] = [];
    for (const [name, path] of paths) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // What the page reads has arrived (or failed visibly): nothing left loading.
      await expect
        .poll(() => page.getByText('Loading…').count(), { timeout: 20_000 })
        .toBe(0)
        .catch(() => problems.push({ path, what: 'still loading after 20 s' }));
      const { scrollWidth, clientWidth } = (await page.evaluate(
        '({ scrollWidth: document.scrollingElement.scrollWidth, clientWidth: document.scrollingElement.clientWidth })',
      )) as { scrollWidth: number; clientWidth: number };
      if (scrollWidth > clientWidth) problems.push({ path, what: `scrolls sideways: ${scrollWidth} > ${clientWidth}` });
      const axe = await new AxeBuilder({ page }).analyze();
      for (const v of axe.violations) {
        if (v.impact !== 'serious' && v.impact !== 'critical') continue;
        problems.push({ path, what: `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}` });
      }
      if (PICTURED.has(name)) await screenshot(page, `page-${label}-${name}`);
    }
    return problems;
  }

  async function signIn(page: Page) {
    await page.goto('/signin');
    await page.getByLabel('Email').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
  }

  it(
    'at 390 px, signed out: the header stays under 120 px, the menu opens as a sheet, and every page passes',
    async () => {
      const page = await (await rig.context(PHONE)).newPage();
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: 'Trace your plants' }).waitFor();
      const header = await page.getByRole('banner').boundingBox();
      expect(header!.height).toBeLessThanOrEqual(120);
      // The menu is a dialog: it opens from the button, holds the main navigation, and Escape closes it.
      const nav = await mainMenu(page);
      await page.getByRole('dialog', { name: 'Menu' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Sign in' }).count()).toBe(1);
      await screenshot(page, 'menu-phone');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      expect(await walk(page, 'phone-visitor')).toEqual([]);
    },
    WALK_MS,
  );

  it(
    'at 390 px, signed in: every page passes',
    async () => {
      const page = await (await rig.context(PHONE)).newPage();
      await signIn(page);
      expect(await walk(page, 'phone-admin')).toEqual([]);
    },
    WALK_MS,
  );

  it(
    'at 1280 px, signed out and signed in: every page passes',
    async () => {
      const page = await (await rig.context(DESKTOP)).newPage();
      expect(await walk(page, 'desktop-visitor')).toEqual([]);
      await signIn(page);
      expect(await walk(page, 'desktop-admin')).toEqual([]);
    },
    2 * WALK_MS,
  );

  it('shows a plant one section at a time in tabs, with one map at most, on a phone', async () => {
    const page = await (await rig.context(PHONE)).newPage();
    await signIn(page);
    await page.goto(`/plants/${plantId}`);
    const tabs = page.getByRole('tablist', { name: 'Sections of the plant page' });
    await tabs.waitFor();
    expect(await tabs.getByRole('tab').allTextContents()).toEqual([
      'Facts',
      'Lineage',
      'Journey',
      'Environment',
      'Certificate',
    ]);
    for (const name of ['Facts', 'Lineage', 'Journey', 'Environment', 'Certificate']) {
      await tabs.getByRole('tab', { name }).click();
      await expect.poll(() => tabs.getByRole('tab', { name }).getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => page.getByText('Loading…').count(), { timeout: 20_000 }).toBe(0);
      expect(await page.getByRole('tabpanel').count()).toBe(1);
      expect(await page.getByRole('region', { name: /^Map of/ }).count()).toBeLessThanOrEqual(1);
      await screenshot(page, `plant-tab-${name.toLowerCase()}-phone`);
    }
    // The open section is in the address: a reload (or a shared link) opens it again.
    await tabs.getByRole('tab', { name: 'Lineage' }).click();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('lineage');
    await page.reload();
    const graph = page.getByRole('region', { name: 'Lineage graph' });
    await expect.poll(() => graph.getAttribute('data-nodes')).toBe('2');
    // The graph is fitted to its nodes: both inside the graph's box, clear of the zoom buttons.
    const box = (await graph.boundingBox())!;
    const controls = (await graph.getByRole('button', { name: 'Zoom In' }).boundingBox())!;
    for (const node of await graph.getByText(/^generation /).all()) {
      const n = (await node.boundingBox())!;
      expect(n.x).toBeGreaterThanOrEqual(box.x);
      expect(n.x + n.width).toBeLessThanOrEqual(box.x + box.width);
      expect(n.y).toBeGreaterThanOrEqual(controls.y + controls.height);
      expect(n.y + n.height).toBeLessThanOrEqual(box.y + box.height);
    }
    await screenshot(page, 'plant-lineage-fitted-phone');
  });

  it('shows the network on the landing page: counts and the newest plants, led by a photo slot', async () => {
    const page = await (await rig.context(DESKTOP)).newPage();
    await page.goto('/');
    const counts = page.getByRole('region', { name: 'The network now' });
    await expect.poll(() => counts.getByRole('definition').first().textContent()).toMatch(/^[1-9]/);
    const recent = page.getByRole('region', { name: 'Newest plants' });
    await recent
      .getByRole('link', { name: /Walnut tree/ })
      .first()
      .waitFor();
    expect(await recent.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    await recent.getByRole('region', { name: /^Map of the newest plants/ }).waitFor();
    await screenshot(page, 'home-desktop');
  });
});
