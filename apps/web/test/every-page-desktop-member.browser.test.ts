import { describe, expect, it } from 'vitest';
import { DESKTOP, everyPageSite, WALK_MS } from './support/every-page.js';

// Every page of the app at a laptop’s width (1280 px), signed in: no serious or critical axe finding, and nothing wider than
// the screen (no sideways scrolling). The other widths and visitors have files of their own
// (every-page-*.browser.test.ts); the walk and its records are in support/every-page.ts.

describe('every page at a laptop’s width (1280 px), signed in', () => {
  const site = everyPageSite();

  it(
    'at 1280 px, signed in: every page passes',
    async () => {
      const page = await site.page(DESKTOP, true);
      expect(await site.walk(page, 'desktop-admin')).toEqual([]);
    },
    WALK_MS,
  );
});
