import { signInOverHttp } from '@rootline/testing';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

// Photos first: a grower adds a photo on the plant's page and sees it at once; every list that shows the plant or a
// listing (Discover, My plants, the marketplace) shows its photo from the list's own answer, named for what it shows.

/** A test drives several pages against a cluster on a busy machine. */
const STEP_MS = 180_000;

const GROWER = {
  name: 'Pia Photographer',
  email: `pia-${Date.now()}@example.org`,
  password: 'tomatoes in every light',
};
/** Another grower with the plant's page open on their own screen. */
const WATCHER = { name: 'Wim Watcher', email: `wim-${Date.now()}@example.org`, password: 'watching tomatoes grow' };
const PLANT = "Tomato 'Brandywine'";
const LISTING = 'Brandywine seedlings';

/** A real JPEG, as a phone would send it: with EXIF, including where it was taken. */
function jpeg(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g, b } } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="800" height="600"><circle cx="400" cy="300" r="220" fill="#c0392b"/>' +
            '<rect x="380" y="40" width="40" height="90" fill="#2e7d32"/></svg>',
        ),
      },
    ])
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: 'Rootline', Model: 'Test Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 54/1 0/1' },
    })
    .toBuffer();
}

/** Uploads an image over HTTP, as the app does (the fields first, then the file). */
async function uploadImage(rig: BrowserRig, token: string, data: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'seedlings.jpg');
  const res = await fetch(`${rig.base}/api/upload/image`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const json = (await res.json()) as { data: { id: string } };
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.data.id;
}

async function register(rig: BrowserRig, who: typeof GROWER): Promise<string> {
  await fetch(`${rig.base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  return signInOverHttp(rig.base, who.email, who.password);
}

/** An image shown from square thumbnails: a `srcset` of every size, `sizes`, lazy, and a box of its own size. */
async function expectThumbnailed(img: Locator, side: number): Promise<void> {
  const srcset = (await img.getAttribute('srcset')) ?? '';
  for (const size of [150, 300, 600, 1200]) expect(srcset).toMatch(new RegExp(`thumb-${size}\\.webp\\S* ${size}w`));
  expect(await img.getAttribute('sizes')).toBeTruthy();
  expect(await img.getAttribute('loading')).toBe('lazy');
  expect(await img.getAttribute('width')).toBe(String(side));
  // The image fills its square frame whether or not it has arrived: nothing moves when it does.
  const box = await img.boundingBox();
  expect(box && Math.round(box.width)).toBe(Math.round(box?.height ?? -1));
  await expect
    .poll(() => img.evaluate((el: unknown) => (el as { naturalWidth: number }).naturalWidth))
    .toBeGreaterThan(0);
}

describe('photos first: a plant page that shows a new photo at once, and lists that show photos', () => {
  let rig: BrowserRig;
  let page: Page;
  let token: string;
  let plantId: string;
  let listingId: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    token = await register(rig, GROWER);
    await register(rig, WATCHER);
    const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
    const plant = await call(rig, token, 'POST', '/api/plants/register', {
      commonName: PLANT,
      scientificName: 'Solanum lycopersicum',
      location: { latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
      privacyLevel: 'city',
      owner: { id: session.user.id },
    });
    plantId = plant.id as string;
    const images = [
      await uploadImage(rig, token, await jpeg(90, 140, 60)),
      await uploadImage(rig, token, await jpeg(230, 200, 120)),
    ];
    const listing = await call(rig, token, 'POST', '/api/marketplace/listings', {
      title: LISTING,
      description: 'Hardened off, ready for the garden.',
      category: 'seedlings',
      price: 350,
      currency: 'EUR',
      quantity: 6,
      location: { latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
      privacyLevel: 'city',
      imageFileIds: images,
      status: 'active',
    });
    listingId = listing.id as string;
    page = await (await rig.context()).newPage();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    "adds a photo on the plant's page and sees it at once, named for the plant, as does another person there",
    async () => {
      const watcher = await (await rig.context()).newPage();
      await signIn(watcher, WATCHER, 'My plants');
      await watcher.goto(`/plants/${plantId}`);
      await watcher.getByRole('region', { name: 'Photos' }).getByText('No photos yet.').waitFor({ timeout: 30_000 });
      await watcher.locator('header').getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
      const watcherMark = await watcher.evaluate('window.loadMark = Math.random()');

      await signIn(page, GROWER, 'My plants');
      await page.goto(`/plants/${plantId}`);
      const photos = page.getByRole('region', { name: 'Photos' });
      await photos.getByText('No photos yet.').waitFor({ timeout: 30_000 });
      const mark = await page.evaluate('window.loadMark = Math.random()');

      await photos
        .getByLabel('Add a photo')
        .setInputFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: await jpeg(60, 120, 50) });
      const photo = photos.getByRole('img', { name: `Photo of ${PLANT}`, exact: true });
      await photo.waitFor({ timeout: 30_000 });
      await photos.getByText('Photo added.').waitFor();
      // Shown without a reload of the page.
      expect(await page.evaluate('window.loadMark')).toBe(mark);
      await expectThumbnailed(photo, 180);
      await expectAccessible(page);
      await screenshot(page, 'photos-plant-page');

      // The other person's open page shows it too, through the plant's live room, without a reload.
      const seen = watcher
        .getByRole('region', { name: 'Photos' })
        .getByRole('img', { name: `Photo of ${PLANT}`, exact: true });
      await seen.waitFor({ timeout: 30_000 });
      expect(await watcher.evaluate('window.loadMark')).toBe(watcherMark);
      await screenshot(watcher, 'photos-plant-page-live');
      await watcher.close();
    },
    STEP_MS,
  );

  it(
    'shows the photo on My plants, from the list answer',
    async () => {
      await page.goto('/plants/mine');
      const img = page.getByRole('table').getByRole('img', { name: `Photo of ${PLANT}`, exact: true });
      await img.waitFor({ timeout: 30_000 });
      await expectThumbnailed(img, 72);
      await expectAccessible(page);
      await screenshot(page, 'photos-my-plants');
    },
    STEP_MS,
  );

  it(
    'shows the photo in the search results of Discover, to a visitor',
    async () => {
      const visitor = await (await rig.context()).newPage();
      const lists: string[] = [];
      visitor.on('request', (r) => {
        if (r.url().includes('/api/upload/')) lists.push(r.url());
      });
      await visitor.goto('/discover');
      await visitor.getByLabel('Name, place or owner').fill('Brandywine');
      await visitor.getByRole('button', { name: 'Search' }).click();
      const img = visitor.getByRole('img', { name: `Photo of ${PLANT}`, exact: true });
      await img.waitFor({ timeout: 30_000 });
      await expectThumbnailed(img, 72);
      // No photo is asked for row by row: only the thumbnails themselves are fetched.
      expect(lists.filter((u) => !u.includes('/api/upload/local/'))).toEqual([]);
      await expectAccessible(visitor);
      await screenshot(visitor, 'photos-discover-search');
      await visitor.close();
    },
    STEP_MS,
  );

  it(
    "shows a listing's first photo on the marketplace and its gallery on its page",
    async () => {
      await page.goto('/market');
      await page.getByLabel('Words in the title or description').fill('Brandywine');
      await page.getByRole('button', { name: 'Search' }).click();
      const card = page.getByRole('img', { name: `Photo of ${LISTING}`, exact: true });
      await card.waitFor({ timeout: 30_000 });
      await expectThumbnailed(card, 180);
      await screenshot(page, 'photos-market-search');

      await page.goto(`/market/listings/${listingId}`);
      const gallery = page.getByRole('region', { name: 'Photos' });
      const first = gallery.getByRole('img', { name: `Photo 1 of 2 of ${LISTING}`, exact: true });
      await first.waitFor({ timeout: 30_000 });
      await expectThumbnailed(first, 480);
      await expectThumbnailed(gallery.getByRole('img', { name: `Photo 2 of 2 of ${LISTING}`, exact: true }), 180);
      await expectAccessible(page);
      await screenshot(page, 'photos-listing-gallery');
    },
    STEP_MS,
  );

  it(
    'adds photos while writing a listing, sees them as they will show, and finds them on its page',
    async () => {
      await page.goto('/market/sell');
      await page.getByLabel('Title').fill('Cherry seedlings');
      await page.getByLabel('Price per unit (EUR)').fill('2.50');
      await page.getByLabel('Latitude').fill('52.37');
      await page.getByLabel('Longitude').fill('4.9');
      await page.getByLabel('Photos (optional)').setInputFiles([
        { name: 'tray.jpg', mimeType: 'image/jpeg', buffer: await jpeg(120, 90, 40) },
        { name: 'close-up.jpg', mimeType: 'image/jpeg', buffer: await jpeg(200, 220, 180) },
      ]);
      const preview = page.getByRole('img', { name: 'Photo 2 of 2 of Cherry seedlings', exact: true });
      await preview.waitFor({ timeout: 30_000 });
      await expectThumbnailed(preview, 180);
      await expectAccessible(page);
      await screenshot(page, 'photos-sell-form');
      await page.getByRole('button', { name: 'Create the listing' }).click();

      await page.getByRole('heading', { level: 1, name: 'Cherry seedlings' }).waitFor({ timeout: 60_000 });
      const gallery = page.getByRole('region', { name: 'Photos' });
      await gallery.getByRole('img', { name: 'Photo 1 of 2 of Cherry seedlings', exact: true }).waitFor();
      expect(await gallery.getByRole('img').count()).toBe(2);
    },
    STEP_MS,
  );
});
