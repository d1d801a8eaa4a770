import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, mainMenu, RIG_START_MS, screenshot, startBrowserRig } from './support/browser.js';
import { everyPagePaths, PHONE, WALK_MS, walk } from './support/every-page.js';

// Every page of the app at a phone’s width (390 px), signed out: no serious or critical axe finding, and nothing wider than the screen (no sideways
// scrolling). The other widths and visitors have files of their own (every-page-*.browser.test.ts).

describe('every page at a phone’s width (390 px), signed out', () => {
  let rig: BrowserRig;
  let paths: Awaited<ReturnType<typeof everyPagePaths>>['paths'];

  beforeAll(async () => {
    rig = await startBrowserRig();
    ({ paths } = await everyPagePaths(rig));
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

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
      expect(await walk(page, paths, 'phone-visitor')).toEqual([]);
    },
    WALK_MS,
  );
});
