import { signInOverHttp } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  startBrowserRig,
} from './support/browser.js';

// Maps that help: a town typed and picked on Discover and in the marketplace moves the map there, fits what is found
// around it, names the towns in view, and says in words what it shows.

const STEP_MS = 120_000;
const stamp = Date.now();
const GROWER = { name: 'Lena Lyon', email: `lena-${stamp}@example.org`, password: 'herbs by the Rhône river' };

/** The words a map is described by (its aria-describedby), once they say `text`. */
async function mapDescription(page: Page, name: string, text: string | RegExp): Promise<string> {
  const map = page.getByRole('region', { name });
  const described = page.getByText(text);
  await described.waitFor();
  const id = await map.getAttribute('aria-describedby');
  expect(id).toBeTruthy();
  expect(await described.getAttribute('id')).toBe(id);
  return (await described.textContent()) ?? '';
}

/** Latitude and longitude out of "Map centred on 45.76° N, 4.84° E, 50 km". */
function centreOf(description: string): { lat: number; lon: number } {
  const m = /([\d.]+)° ([NS]), ([\d.]+)° ([EW])/.exec(description);
  expect(m, description).not.toBeNull();
  return {
    lat: Number(m![1]) * (m![2] === 'S' ? -1 : 1),
    lon: Number(m![3]) * (m![4] === 'W' ? -1 : 1),
  };
}

async function chooseTown(page: Page, box: string, typed: string, option: RegExp): Promise<void> {
  await page.getByLabel(box).fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

describe('maps: a town found by name on Discover and in the marketplace', () => {
  let rig: BrowserRig;
  let token: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(GROWER),
    });
    token = await signInOverHttp(rig.base, GROWER.email, GROWER.password);
    const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
    const owner = { id: session.user.id, name: GROWER.name };
    for (const [commonName, latitude, longitude] of [
      ['Rhône basil', 45.758, 4.835],
      ['Villeurbanne mint', 45.771, 4.88],
      ['Montmartre sage', 48.886, 2.343],
    ] as const) {
      await call(rig, token, 'POST', '/api/plants/register', {
        commonName,
        location: { latitude, longitude },
        owner,
        privacyLevel: 'exact',
      });
    }
    for (const [title, latitude, longitude] of [
      ['Tomato seedlings from Croix-Rousse', 45.774, 4.831],
      ['Canal-side lettuce', 52.37, 4.9],
    ] as const) {
      await call(rig, token, 'POST', '/api/marketplace/listings', {
        title,
        description: 'Grown without peat, picked up from the garden gate.',
        category: 'seedlings',
        price: 300,
        currency: 'EUR',
        quantity: 5,
        location: { latitude, longitude },
        privacyLevel: 'exact',
      });
    }
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'on Discover a visitor types a town, picks it, and the map zooms there with the plants near it listed',
    async () => {
      const page = await (await rig.context()).newPage();
      await page.goto('/discover');
      const mapName = 'Map of plants near the chosen point';
      await page.getByRole('region', { name: mapName }).waitFor();
      // The world view names only the largest cities.
      await page.getByText('Shanghai', { exact: true }).waitFor();
      expect(await page.getByText('Villeurbanne', { exact: true }).count()).toBe(0);

      const box = page.getByLabel('Find plants near a town');
      await box.fill('lyo');
      const lyon = page.getByRole('option', { name: /^Lyon, France/ });
      await lyon.waitFor();
      expect(await box.getAttribute('aria-expanded')).toBe('true');
      await screenshot(page, 'maps-discover-options');
      await lyon.click();

      expect(await mapDescription(page, mapName, 'Map centred on Lyon, 50 km')).toBe('Map centred on Lyon, 50 km');
      const near = page.getByRole('list', { name: 'Plants near Lyon' });
      await near.getByRole('link', { name: 'Rhône basil' }).waitFor();
      await near.getByRole('link', { name: 'Villeurbanne mint' }).waitFor();
      expect(await near.getByRole('link', { name: 'Montmartre sage' }).count()).toBe(0);
      // The town and the two plants are drawn, and the map is close enough to name Lyon's neighbours.
      await expect.poll(() => page.getByRole('region', { name: mapName }).getAttribute('data-markers')).toBe('3');
      await page.getByText('Lyon', { exact: true }).waitFor();
      await page.getByText('Saint-Étienne', { exact: true }).waitFor();
      expect(await page.getByText('Shanghai', { exact: true }).count()).toBe(0);
      await expectAccessible(page);
      await screenshot(page, 'maps-discover-lyon');

      // A narrower radius: the map zooms in to it.
      await page.getByLabel('Radius in km').fill('5');
      await mapDescription(page, mapName, 'Map centred on Lyon, 5 km');
      // Close enough now to part Lyon's label from its neighbours'.
      await page.getByText('Villeurbanne', { exact: true }).waitFor();
      await page.getByText('Vénissieux', { exact: true }).waitFor();
      await screenshot(page, 'maps-discover-lyon-5km');

      // A click at the map's centre (on the town's own dot) picks the point the map is centred on, not one a degree
      // off.
      const map = page.getByRole('region', { name: mapName });
      const bounds = (await map.boundingBox())!;
      await map.click({ position: { x: bounds.width / 2, y: bounds.height / 2 } });
      const clicked = centreOf(await mapDescription(page, mapName, /^Map centred on [\d.]+° N/));
      expect(Math.abs(clicked.lat - 45.748)).toBeLessThan(0.006);
      expect(Math.abs(clicked.lon - 4.847)).toBeLessThan(0.006);
      await page
        .getByRole('list', { name: /^Plants near [\d.]+° N/ })
        .getByRole('link', { name: 'Rhône basil' })
        .waitFor();

      // The keyboard's way: the arrow keys pan the focused map, a button picks its centre.
      await map.focus();
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
      await page.getByRole('button', { name: 'Pick the map’s centre' }).click();
      const described = page.getByText(/^Map centred on [\d.]+° N/);
      await expect.poll(async () => centreOf((await described.textContent()) ?? '').lon).toBeGreaterThan(clicked.lon);
      await mapDescription(page, mapName, /^Map centred on [\d.]+° N/);
      await screenshot(page, 'maps-discover-picked');
      await page.context().close();
    },
    STEP_MS,
  );

  it(
    'on a phone, a town is chosen with the keyboard alone and the map follows',
    async () => {
      const page = await (await rig.context({ width: 390, height: 844 })).newPage();
      await page.goto('/discover');
      const box = page.getByLabel('Find plants near a town');
      await box.fill('villeurb');
      await page.getByRole('option', { name: /^Villeurbanne, France/ }).waitFor();
      await box.press('ArrowDown');
      expect(await page.getByRole('option', { name: /^Villeurbanne, France/ }).getAttribute('aria-selected')).toBe(
        'true',
      );
      await box.press('Enter');
      const mapName = 'Map of plants near the chosen point';
      await mapDescription(page, mapName, 'Map centred on Villeurbanne, 50 km');
      await page
        .getByRole('list', { name: 'Plants near Villeurbanne' })
        .getByRole('link', { name: 'Rhône basil' })
        .waitFor();
      expect(await page.getByRole('listbox', { name: 'Places found' }).count()).toBe(0);
      // The map's own controls are reachable and named.
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.getByRole('button', { name: 'Pick the map’s centre' }).focus();
      await expectAccessible(page);
      await screenshot(page, 'maps-discover-phone');
      await page.context().close();
    },
    STEP_MS,
  );

  it(
    'in the marketplace a buyer types a town, picks it, and the search runs around it at once',
    async () => {
      const page = await (await rig.context()).newPage();
      await page.goto('/signin');
      await page.getByLabel('Email').fill(GROWER.email);
      await page.getByLabel('Password').fill(GROWER.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
      await page.goto('/market');
      await page.getByRole('link', { name: 'Canal-side lettuce' }).waitFor();

      await chooseTown(page, 'Find listings near a town', 'Lyon', /^Lyon, France/);
      const mapName = 'Map: click to choose the point to search around';
      await mapDescription(page, mapName, 'Map centred on Lyon, 50 km');
      await page.getByRole('heading', { name: '1 listing found' }).waitFor();
      await page.getByRole('link', { name: 'Tomato seedlings from Croix-Rousse' }).waitFor();
      expect(await page.getByRole('link', { name: 'Canal-side lettuce' }).count()).toBe(0);
      await page.getByText('Lyon', { exact: true }).waitFor();
      await expectAccessible(page);
      await screenshot(page, 'maps-market-lyon');

      // The results as a map fit what was found.
      await page.getByLabel('Map', { exact: true }).check();
      const results = page.getByRole('region', { name: 'Map of the listings found' });
      await results.waitFor();
      expect(await results.getAttribute('data-markers')).toBe('1');
      await screenshot(page, 'maps-market-results-map');
      await page.context().close();
    },
    STEP_MS,
  );
});
