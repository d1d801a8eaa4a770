import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PLACEHOLDER_GS1_COMPANY_PREFIX, plantEpc } from '@rootline/domain';
import { signInOverHttp } from '@rootline/testing';
import jsQRModule from 'jsqr';
import type { BrowserContext, Download, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  startBrowserRig,
} from './support/browser.js';

// Labels as a grower prints them: choose plants on My plants, choose the sheet, download; one plant's labels from
// its Certificate tab. Each downloaded PDF is rendered with pdftoppm and every QR code decoded.

const run = promisify(execFile);
/** What a plant's label QR encodes: its GS1 Digital Link on the app's address (ADR 275). */
const linkAt = (base: string, id: string) => plantEpc(id, base, PLACEHOLDER_GS1_COMPANY_PREFIX);
const jsQR = (jsQRModule as unknown as { default: typeof jsQRModule.default }).default;
const STEP_MS = 120_000;
const DPI = 150;
const px = (pt: number) => Math.round((pt * DPI) / 72);
const MM = 72 / 25.4;
// US Letter 3 × 10 and A4 3 × 8, in points (docs/transparency.md).
const LETTER = { columns: 3, cells: 30, left: 13.5, top: 36, w: 189, h: 72, px: 198, py: 72 };
const A4 = { columns: 3, cells: 24, left: 0, top: 0, w: 70 * MM, h: 37.125 * MM, px: 70 * MM, py: 37.125 * MM };

const GROWER = { name: 'Lena Labelmaker', email: `lena-${Date.now()}@example.org`, password: 'labels on every pot' };

/** The QR code of each position of the first page of a downloaded sheet (null where there is none). */
async function decodeFirstPage(download: Download, g: typeof LETTER): Promise<(string | null)[]> {
  const dir = await mkdtemp(join(tmpdir(), 'labels-web-'));
  try {
    const file = join(dir, 'labels.pdf');
    await download.saveAs(file);
    await run('pdftoppm', ['-r', String(DPI), '-png', '-f', '1', '-l', '1', file, join(dir, 'page')]);
    const png = join(dir, (await readdir(dir)).find((f) => f.endsWith('.png')) as string);
    const codes: (string | null)[] = [];
    for (let cell = 0; cell < g.cells; cell++) {
      const { data, info } = await sharp(png)
        .extract({
          left: px(g.left + (cell % g.columns) * g.px),
          top: px(g.top + Math.floor(cell / g.columns) * g.py),
          width: px(g.w) - 1,
          height: px(g.h) - 1,
        })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      codes.push(
        jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null,
      );
    }
    return codes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('printing plant labels in the browser', () => {
  let rig: BrowserRig;
  let context: BrowserContext;
  let page: Page;
  const ids: string[] = [];

  beforeAll(async () => {
    rig = await startBrowserRig();
    await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(GROWER),
    });
    const token = await signInOverHttp(rig.base, GROWER.email, GROWER.password);
    const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
    for (const name of ['Brandywine tomato', 'Lemon basil', 'Black krim tomato']) {
      const plant = await call(rig, token, 'POST', '/api/plants/register', {
        commonName: name,
        scientificName: 'Solanum lycopersicum',
        location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
        privacyLevel: 'hidden',
        owner: { id: session.user.id },
      });
      ids.push(String(plant.id));
    }
    context = await rig.context();
    page = await context.newPage();
    await page.goto('/signin');
    await page.getByLabel('Email').fill(GROWER.email);
    await page.getByLabel('Password').fill(GROWER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1 }).filter({ hasNotText: 'Sign in' }).waitFor();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'chooses plants on My plants and downloads a US Letter sheet whose QR codes open their pages',
    async () => {
      await page.goto('/plants/mine');
      const form = page.getByRole('form', { name: 'Print labels' });
      await form.waitFor();
      const download = form.getByRole('button', { name: /Download labels/ });
      expect(await download.isDisabled()).toBe(true);
      await page.getByRole('checkbox', { name: 'Choose Lemon basil for labels' }).check();
      await page.getByRole('checkbox', { name: 'Choose Brandywine tomato for labels' }).check();
      await form.getByLabel('Sheet').selectOption({ label: 'US Letter, 30 labels a page (3 × 10, 2⅝ × 1 in)' });
      await form.getByLabel('Start at position').fill('4');
      await expect.poll(() => download.textContent()).toBe('Download labels (2 plants)');
      await expectAccessible(page);
      await screenshot(page, 'labels-my-plants');
      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toBe('rootline-labels.pdf');
      const codes = await decodeFirstPage(file, LETTER);
      // Chosen in this order, from position 4: the second row's first two labels.
      expect(codes.filter(Boolean)).toHaveLength(2);
      expect(codes.slice(3, 5)).toEqual([linkAt(rig.base, ids[1] as string), linkAt(rig.base, ids[0] as string)]);
      await form.getByRole('status').filter({ hasText: 'The labels were downloaded.' }).waitFor();
    },
    STEP_MS,
  );

  it(
    'chooses every plant on the page at once',
    async () => {
      await page.getByRole('button', { name: 'Clear the choice' }).click();
      await page.getByRole('checkbox', { name: 'Choose every plant on this page for labels' }).check();
      const form = page.getByRole('form', { name: 'Print labels' });
      await form.getByLabel('Sheet').selectOption({ label: 'A4, 24 labels a page (3 × 8, 70 × 37 mm)' });
      await form.getByLabel('Start at position').fill('1');
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        form.getByRole('button', { name: 'Download labels (3 plants)' }).click(),
      ]);
      const codes = await decodeFirstPage(file, A4);
      expect(codes.filter(Boolean).sort()).toEqual(ids.map((id) => linkAt(rig.base, id)).sort());
    },
    STEP_MS,
  );

  it(
    'prints one plant’s labels from its Certificate tab',
    async () => {
      await page.goto(`/plants/${ids[2]}`);
      await page.getByRole('tab', { name: 'Certificate' }).click();
      const form = page.getByRole('form', { name: 'Print labels' });
      await form.getByLabel('Sheet').selectOption({ label: 'US Letter, 30 labels a page (3 × 10, 2⅝ × 1 in)' });
      await expectAccessible(page);
      await screenshot(page, 'labels-certificate-tab');
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        form.getByRole('button', { name: 'Download labels (1 plant)' }).click(),
      ]);
      const codes = await decodeFirstPage(file, LETTER);
      expect(codes[0]).toBe(linkAt(rig.base, ids[2] as string));
      expect(codes.filter(Boolean)).toHaveLength(1);
    },
    STEP_MS,
  );

  it(
    'fits a phone: My plants with its label form does not scroll sideways',
    async () => {
      const phone = await (await rig.context({ width: 390, height: 844 })).newPage();
      await phone.context().addCookies(await context.cookies());
      await phone.goto('/plants/mine');
      const form = phone.getByRole('form', { name: 'Print labels' });
      await form.waitFor();
      await phone.getByRole('checkbox', { name: 'Choose Lemon basil for labels' }).check();
      await form.getByLabel('Sheet').selectOption({ label: 'Seed packets, 8 a page (A4)' });
      await form.getByLabel('Harvest date').fill('2026-09');
      await form.scrollIntoViewIfNeeded();
      await screenshot(phone, 'labels-my-plants-phone');
      const width = await phone.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
            .scrollWidth,
      );
      expect(width).toBeLessThanOrEqual(390);
      await expectAccessible(phone);
    },
    STEP_MS,
  );
});
