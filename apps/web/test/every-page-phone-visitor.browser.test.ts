import { describe, expect, it } from 'vitest';
import { mainMenu, screenshot } from './support/browser.js';
import { everyPageSite, PHONE, WALK_MS } from './support/every-page.js';

// Every page of the app at a phone’s width (390 px), signed out: no serious or critical axe finding, and nothing wider than
// the screen (no sideways scrolling). The other widths and visitors have files of their own
// (every-page-*.browser.test.ts); the walk and its records are in support/every-page.ts.

describe('every page at a phone’s width (390 px), signed out', () => {
  const site = everyPageSite();

  it(
    'at 390 px, signed out: the header stays under 120 px, the menu opens as a sheet, and every page passes',
    async () => {
      const page = await site.page(PHONE, false);
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
      expect(await site.walk(page, 'phone-visitor')).toEqual([]);
    },
    WALK_MS,
  );
});
