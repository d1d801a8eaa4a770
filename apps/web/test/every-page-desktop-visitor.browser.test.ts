import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, RIG_START_MS, startBrowserRig } from './support/browser.js';
import { DESKTOP, everyPagePaths, WALK_MS, walk } from './support/every-page.js';

// Every page of the app at a laptop’s width (1280 px), signed out: no serious or critical axe finding, and nothing wider than the screen (no sideways
// scrolling). The other widths and visitors have files of their own (every-page-*.browser.test.ts).

describe('every page at a laptop’s width (1280 px), signed out', () => {
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
    'at 1280 px, signed out: every page passes',
    async () => {
      const page = await (await rig.context(DESKTOP)).newPage();
      expect(await walk(page, paths, 'desktop-visitor')).toEqual([]);
    },
    WALK_MS,
  );
});
