import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import { DESKTOP, everyPageSite, PHONE, WALK_MS } from './support/every-page.js';

// Every page of the app at a phone’s width (390 px), signed in: no serious or critical axe finding, and nothing wider than
// the screen (no sideways scrolling). The other widths and visitors have files of their own
// (every-page-*.browser.test.ts); the walk and its records are in support/every-page.ts.

describe('every page at a phone’s width (390 px), signed in', () => {
  const site = everyPageSite();

  it(
    'at 390 px, signed in: every page passes',
    async () => {
      const page = await site.page(PHONE, true);
      expect(await site.walk(page, 'phone-admin')).toEqual([]);
    },
    WALK_MS,
  );

  it('shows a plant one section at a time in tabs, with one map at most, on a phone', async () => {
    const page = await site.page(PHONE, true);
    await page.goto(`/plants/${site.plantId}`);
    const tabs = page.getByRole('tablist', { name: 'Sections of the plant page' });
    await tabs.waitFor();
    expect(await tabs.getByRole('tab').allTextContents()).toEqual([
      'Facts',
      'Lineage',
      'Journey',
      'Environment',
      'Certificate',
    ]);
    for (const name of ['Facts', 'Lineage', 'Journey', 'Environment', 'Certificate']) {
      await tabs.getByRole('tab', { name }).click();
      await expect.poll(() => tabs.getByRole('tab', { name }).getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => page.getByText('Loading…').count(), { timeout: 20_000 }).toBe(0);
      expect(await page.getByRole('tabpanel').count()).toBe(1);
      expect(await page.getByRole('region', { name: /^Map of/ }).count()).toBeLessThanOrEqual(1);
      await screenshot(page, `plant-tab-${name.toLowerCase()}-phone`);
    }
    // The open section is in the address: a reload (or a shared link) opens it again.
    await tabs.getByRole('tab', { name: 'Lineage' }).click();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('lineage');
    await page.reload();
    const graph = page.getByRole('region', { name: 'Lineage graph' });
    await expect.poll(() => graph.getAttribute('data-nodes')).toBe('2');
    // The graph is fitted to its nodes: both inside the graph's box, clear of the zoom buttons.
    const box = (await graph.boundingBox())!;
    const controls = (await graph.getByRole('button', { name: 'Zoom In' }).boundingBox())!;
    for (const node of await graph.getByText(/^generation /).all()) {
      const n = (await node.boundingBox())!;
      expect(n.x).toBeGreaterThanOrEqual(box.x);
      expect(n.x + n.width).toBeLessThanOrEqual(box.x + box.width);
      expect(n.y).toBeGreaterThanOrEqual(controls.y + controls.height);
      expect(n.y + n.height).toBeLessThanOrEqual(box.y + box.height);
    }
    await screenshot(page, 'plant-lineage-fitted-phone');
  });

  it('shows the network on the landing page: counts and the newest plants, led by a photo slot', async () => {
    const page = await site.page(DESKTOP, false);
    await page.goto('/');
    const counts = page.getByRole('region', { name: 'The network now' });
    await expect.poll(() => counts.getByRole('definition').first().textContent()).toMatch(/^[1-9]/);
    const recent = page.getByRole('region', { name: 'Newest plants' });
    await recent
      .getByRole('link', { name: /Walnut tree/ })
      .first()
      .waitFor();
    expect(await recent.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    await recent.getByRole('region', { name: /^Map of the newest plants/ }).waitFor();
    await screenshot(page, 'home-desktop');
  });
});
