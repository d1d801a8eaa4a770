import AxeBuilder from '@axe-core/playwright';
import { APP_PAGES, type AppPage, appLink } from '@rootline/contracts/app-links';
import { TEST_ADMIN } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type BrowserRig, call, RIG_START_MS, screenshot, startBrowserRig } from './browser.js';

// The walk over every page of the app (axe's serious and critical findings, sideways scrolling), shared by the
// every-page files: one file per width and visitor, so the four walks run side by side on separate workers.

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };
/** A walk over every page at one width: about fifty pages, each loaded and checked. */
export const WALK_MS = 420_000;
/** Pages worth a screenshot at each width, to look at. */
const PICTURED = new Set<AppPage>(['home', 'discover', 'plant', 'listing', 'farmBatch', 'farm', 'market', 'network']);

interface Problem {
  path: string;
  what: string;
}

/** Records for every page that shows one (a plant and its clone, a listing, a farm with a batch, an organization, a
 * seed lot with a germination test), made by the admin; answers each page's address. */
export async function everyPagePaths(rig: BrowserRig): Promise<{ paths: [AppPage, string][]; plantId: string }> {
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
  const plantId = String(plant.id);
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
  const paths = (Object.keys(APP_PAGES) as AppPage[]).map((name): [AppPage, string] => [name, appLink(name, params)]);
  return { paths, plantId };
}

/** Opens each page of `paths` and lists what is wrong with it: axe's serious and critical findings, and sideways scrolling. */
export async function walk(page: Page, paths: [AppPage, string][], label: string): Promise<Problem[]> {
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

export async function signIn(page: Page): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(TEST_ADMIN.email);
  await page.getByLabel('Password').fill(TEST_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
}

/**
 * The site an every-page file walks: a rig of its own with the records of {@link everyPagePaths}, started before the
 * file's tests and stopped after them (call it inside the file's `describe`).
 */
export function everyPageSite() {
  let rig: BrowserRig | undefined;
  let made: Awaited<ReturnType<typeof everyPagePaths>> | undefined;
  beforeAll(async () => {
    rig = await startBrowserRig();
    made = await everyPagePaths(rig);
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });
  return {
    get rig(): BrowserRig {
      return rig!;
    },
    get plantId(): string {
      return made!.plantId;
    },
    /** A new page at `size`, signed in as the administrator when `signedIn`. */
    async page(size: { width: number; height: number }, signedIn: boolean): Promise<Page> {
      const page = await (await rig!.context(size)).newPage();
      if (signedIn) await signIn(page);
      return page;
    },
    /** Walks every page on `page`: what is wrong, with `label` naming the screenshots. */
    walk: (page: Page, label: string) => walk(page, made!.paths, label),
  };
}
