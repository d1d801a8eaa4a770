import { describe, expect, it } from 'vitest';
import { DESKTOP, everyPageSite, WALK_MS } from './support/every-page.js';

// Every page of the app at a laptop’s width (1280 px), signed out: no serious or critical axe finding, and nothing wider than
// the screen (no sideways scrolling). The other widths and visitors have files of their own
// (every-page-*.browser.test.ts); the walk and its records are in support/every-page.ts.

describe('every page at a laptop’s width (1280 px), signed out', () => {
  const site = everyPageSite();

  it(
    'at 1280 px, signed out: every page passes',
    async () => {
      const page = await site.page(DESKTOP, false);
      expect(await site.walk(page, 'desktop-visitor')).toEqual([]);
    },
    WALK_MS,
  );
});
