import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signInOverHttp } from '@rootline/testing';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  SCREENSHOTS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

// An app that installs and works offline: the manifest and its icons, the service worker that keeps the shell and
// public reads (never personal ones), forgets them at sign-out and offers a new version; and photos from the camera,
// made smaller in the browser before they are sent.

const STEP_MS = 180_000;
/** The build the gateway serves here: a copy, so a test can put a new service worker in it as a deploy would. */
const BUILD = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

const GROWER = {
  name: 'Ines Installer',
  email: `ines-${Date.now()}@example.org`,
  password: 'gardening without a signal',
};
const PLANT = 'Offline olive';

/** A PNG's width and height, read from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Every request URL held in any of the page's caches, by cache name. */
function cachedUrls(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate<Record<string, string[]>>(`(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      out[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
    }
    return out;
  })()`);
}

/** A script for page.evaluate: `expression` of the page's service worker registration `r`. */
function registration(expression: string): string {
  return `navigator.serviceWorker.getRegistration().then((r) => ${expression})`;
}

/** Waits until the service worker has installed (the shell is kept) and controls the page. */
async function controlled(page: Page): Promise<string> {
  await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
  await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 30_000 });
  return page.evaluate<string>("navigator.serviceWorker.controller?.scriptURL ?? ''");
}

/** A phone's 4000×3000 camera photo with the place it was taken in its EXIF. */
function cameraPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 70, g: 120, b: 60 } } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="4000" height="3000"><circle cx="2000" cy="1500" r="1100" fill="#8a9a3b"/>' +
            '<rect x="1900" y="200" width="200" height="500" fill="#2e7d32"/></svg>',
        ),
      },
    ])
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'Rootline', Model: 'Test Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 58/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '8/1 52/1 0/1' },
    })
    .toBuffer();
}

describe('an installable app that works offline, and photos from the camera', () => {
  let rig: BrowserRig;
  let webDir: string;
  let token: string;
  let plantId: string;
  let visitorContext: BrowserContext;
  let visitor: Page;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), 'rootline-web-build-'));
    cpSync(BUILD, webDir, { recursive: true });
    rig = await startBrowserRig({ WEB_APP_DIR: webDir });
    await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(GROWER),
    });
    token = await signInOverHttp(rig.base, GROWER.email, GROWER.password);
    const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
    const plant = await call(rig, token, 'POST', '/api/plants/register', {
      commonName: PLANT,
      scientificName: 'Olea europaea',
      location: { latitude: 37.0194, longitude: -7.9304, city: 'Faro', country: 'PT' },
      privacyLevel: 'city',
      owner: { id: session.user.id },
    });
    plantId = String(plant.id);
    visitorContext = await rig.context({ width: 412, height: 860 });
    visitor = await visitorContext.newPage();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
    if (webDir) rmSync(webDir, { recursive: true, force: true });
  });

  it(
    'links a manifest that installs Rootline standalone, with icons of the sizes it names',
    async () => {
      const html = await (await fetch(`${rig.base}/`)).text();
      expect(html).toContain('<meta name="theme-color" content="#2f6b3a"');
      expect(html).toMatch(/<link rel="apple-touch-icon" href="\/apple-touch-icon.png"/);
      const href = html.match(/<link rel="manifest" href="([^"]+)"/)?.[1];
      expect(href).toBe('/manifest.webmanifest');
      const res = await fetch(`${rig.base}${href}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
      const manifest = (await res.json()) as Record<string, unknown> & {
        icons: { src: string; sizes: string; type: string; purpose?: string }[];
      };
      expect(manifest).toMatchObject({
        name: 'Rootline',
        short_name: 'Rootline',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#2f6b3a',
        background_color: '#f7f8f5',
      });
      expect(String(manifest.description).length).toBeGreaterThan(10);
      const sizes = manifest.icons.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`);
      expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
      for (const icon of [...manifest.icons, { src: '/apple-touch-icon.png', sizes: '180x180', type: 'image/png' }]) {
        const file = await fetch(new URL(icon.src, rig.base));
        expect(file.status, icon.src).toBe(200);
        expect(file.headers.get('content-type')).toBe(icon.type);
        const { width, height } = pngSize(Buffer.from(await file.arrayBuffer()));
        expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
      }
      const worker = await fetch(`${rig.base}/sw.js`);
      expect(worker.status).toBe(200);
      expect(worker.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(worker.headers.get('cache-control')).toBe('no-cache');
    },
    STEP_MS,
  );

  it(
    "registers the service worker, and shows a plant's page seen before with the network gone",
    async () => {
      await visitor.goto(`/plants/${plantId}`);
      await visitor.getByRole('heading', { level: 1, name: PLANT }).waitFor({ timeout: 30_000 });
      expect(await controlled(visitor)).toBe(`${rig.base}/sw.js`);
      // Seen again while the worker controls the page: its public reads are kept as they come.
      await visitor.reload();
      await visitor.getByRole('heading', { level: 1, name: PLANT }).waitFor({ timeout: 30_000 });
      const kept = await cachedUrls(visitor);
      expect(Object.keys(kept).some((name) => name.startsWith('workbox-precache'))).toBe(true);
      expect(kept['rootline-public-api']).toContain(`${rig.base}/api/plants/${plantId}`);

      await visitorContext.setOffline(true);
      try {
        await visitor.reload();
        await visitor.getByRole('banner').getByRole('link', { name: 'Rootline' }).first().waitFor({ timeout: 30_000 });
        await visitor.getByRole('heading', { level: 1, name: PLANT }).waitFor({ timeout: 30_000 });
        await visitor.getByText('Faro', { exact: false }).first().waitFor();
        await screenshot(visitor, 'offline-plant-page');
        // Another page of the app opens offline too: the shell, whatever it can show without the network.
        await visitor.goto('/discover');
        await visitor.getByRole('heading', { level: 1, name: 'Discover' }).waitFor({ timeout: 30_000 });
      } finally {
        await visitorContext.setOffline(false);
      }
    },
    STEP_MS,
  );

  it(
    'keeps no answer that carries personal data, and forgets what it kept at sign-out',
    async () => {
      const context = await rig.context();
      const page = await context.newPage();
      // First as a visitor: the plant's public read is kept.
      await page.goto(`/plants/${plantId}`);
      await page.getByRole('heading', { level: 1, name: PLANT }).waitFor({ timeout: 30_000 });
      await controlled(page);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: PLANT }).waitFor({ timeout: 30_000 });
      expect((await cachedUrls(page))['rootline-public-api']).toContain(`${rig.base}/api/plants/${plantId}`);

      const keptAsVisitor = new Set(Object.values(await cachedUrls(page)).flat());

      // Signed in: My plants and the plant's own page, read by its owner.
      const reads: { url: string; cache: string }[] = [];
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (r.request().method() === 'GET' && url.pathname.startsWith('/api/')) {
          reads.push({ url: r.url(), cache: r.headers()['cache-control'] ?? '' });
        }
      });
      await signIn(page, GROWER, 'My plants');
      await page.getByRole('link', { name: PLANT }).first().waitFor({ timeout: 30_000 });
      await page.goto(`/plants/${plantId}`);
      await page.getByRole('heading', { level: 1, name: PLANT }).waitFor({ timeout: 30_000 });
      const personal = reads.filter((r) => !/\bpublic\b/.test(r.cache));
      const paths = personal.map((r) => new URL(r.url).pathname);
      expect(paths).toEqual(expect.arrayContaining(['/api/auth/session', `/api/plants/${plantId}`]));
      // My plants: the account's own list.
      expect(paths.some((p) => p.startsWith('/api/plants/owned/'))).toBe(true);
      const stored = new Set(Object.values(await cachedUrls(page)).flat());
      for (const read of personal) {
        // Nothing read while signed in is kept; what was kept of a public read before sign-in stays the public one.
        if (!keptAsVisitor.has(read.url)) expect(stored.has(read.url), read.url).toBe(false);
        const kept = await page.evaluate<string | null>(
          `caches.match(${JSON.stringify(read.url)}).then((r) => r?.headers.get('cache-control') ?? null)`,
        );
        expect(kept ?? 'not kept', read.url).not.toMatch(/private/);
      }

      await page.goto('/account');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('link', { name: 'Sign in' }).first().waitFor({ timeout: 30_000 });
      // What was kept is gone. The start page shown after sign-out reads as a visitor again: its public answers may
      // be kept anew, and nothing else.
      const left = Object.entries(await cachedUrls(page)).filter(([name]) => !name.startsWith('workbox-precache'));
      expect(left.map(([name]) => name).filter((name) => name !== 'rootline-public-api')).toEqual([]);
      const urls = left.flatMap(([, u]) => u);
      expect(urls).not.toContain(`${rig.base}/api/plants/${plantId}`);
      for (const url of urls) expect(new URL(url).pathname, url).not.toBe(`/api/upload/plants/${plantId}`);
      for (const url of urls) {
        const kept = await page.evaluate<string | null>(
          `caches.match(${JSON.stringify(url)}).then((r) => r?.headers.get('cache-control') ?? null)`,
        );
        expect(kept, url).toBe('public, no-cache');
      }
      await context.close();
    },
    STEP_MS,
  );

  it(
    'offers a new version when one is deployed, and Reload brings it in',
    async () => {
      await visitor.goto(`/plants/${plantId}`);
      await visitor.getByRole('heading', { level: 1, name: PLANT }).waitFor({ timeout: 30_000 });
      expect(await visitor.evaluate(registration('Boolean(r?.active)'))).toBe(true);
      expect(await visitor.getByRole('button', { name: 'Reload' }).count()).toBe(0);

      // A deploy: a service worker that differs from the running one. The open page finds it when it next checks.
      appendFileSync(join(webDir, 'sw.js'), '\n// a new build\n');
      await visitor.evaluate(registration('r?.update().then(() => true)'));
      const prompt = visitor.getByRole('complementary', { name: 'A new version of Rootline is ready.' });
      await prompt.waitFor({ timeout: 30_000 });
      // Until Reload, the old version keeps the page: the new one waits.
      expect(await visitor.evaluate(registration('Boolean(r?.waiting)'))).toBe(true);
      await expectAccessible(visitor);
      await screenshot(visitor, 'update-prompt');

      const mark = await visitor.evaluate('window.loadMark = Math.random()');
      await prompt.getByRole('button', { name: 'Reload' }).click();
      await expect.poll(() => visitor.evaluate('window.loadMark'), { timeout: 30_000 }).not.toBe(mark);
      await visitor.getByRole('heading', { level: 1, name: PLANT }).waitFor({ timeout: 30_000 });
      const after = await visitor.evaluate(
        registration('({ waiting: Boolean(r?.waiting), controlled: navigator.serviceWorker.controller !== null })'),
      );
      expect(after).toEqual({ waiting: false, controlled: true });
      const served = await (await fetch(`${rig.base}/sw.js`)).text();
      expect(served).toContain('// a new build');
      expect(await visitor.getByRole('button', { name: 'Reload' }).count()).toBe(0);
    },
    STEP_MS,
  );

  it(
    'takes a photo with the camera on a phone and sends it no larger than 2048 px, without where it was taken',
    async () => {
      const context = await rig.browser.newContext({
        viewport: { width: 412, height: 860 },
        isMobile: true,
        hasTouch: true,
        baseURL: rig.base,
      });
      const page = await context.newPage();
      await signIn(page, GROWER, 'My plants');
      await page.goto(`/plants/${plantId}`);
      const photos = page.getByRole('region', { name: 'Photos' });
      await photos.scrollIntoViewIfNeeded();
      await photos.getByText('No photos yet.').waitFor({ timeout: 30_000 });
      const camera = photos.getByLabel('Take a photo');
      await camera.waitFor();
      expect(await camera.getAttribute('capture')).toBe('environment');
      expect(await camera.getAttribute('accept')).toBe('image/*');
      expect(await photos.getByLabel('Add a photo').isVisible()).toBe(true);
      await expectAccessible(page);
      // The control itself (a full-page capture of a touch-screen page may draw it with a mouse's media features).
      await photos.screenshot({ path: join(SCREENSHOTS, 'photo-from-camera.png') });

      const original = await cameraPhoto();
      await camera.setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: original });
      await photos.getByText('Photo added.').waitFor({ timeout: 60_000 });
      await photos.getByRole('img', { name: `Photo of ${PLANT}`, exact: true }).waitFor({ timeout: 30_000 });

      // Read back as its owner, who would be answered where it was taken if the photo had said so.
      const files = (await call(rig, token, 'GET', `/api/upload/plants/${plantId}`)) as unknown as {
        width: number | null;
        height: number | null;
        exif: { gps: unknown } | null;
        urls: { original: string };
      }[];
      expect(files).toHaveLength(1);
      const stored = files[0]!;
      expect({ width: stored.width, height: stored.height }).toEqual({ width: 2048, height: 1536 });
      expect(stored.exif?.gps ?? null).toBeNull();
      const bytes = Buffer.from(await (await fetch(new URL(stored.urls.original, rig.base))).arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect({ width: meta.width, height: meta.height }).toEqual({ width: 2048, height: 1536 });
      await context.close();
    },
    STEP_MS,
  );
});
