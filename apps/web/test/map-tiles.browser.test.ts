import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project } from '../src/components/map/geo.js';
import { type BrowserRig, expectAccessible, RIG_START_MS, screenshot, startBrowserRig } from './support/browser.js';

// With MAP_TILE_URL set, the maps draw street tiles from that server (here a tiny one on this machine, answering one
// light-blue 8 × 8 PNG for every tile) with MAP_TILE_ATTRIBUTION under them.

const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGNYceEZVsQwtCQAIr2XgTf5y10AAAAASUVORK5CYII=',
  'base64',
);
const LYON = { lat: 45.74846, lon: 4.84671 };

describe('maps with street tiles from MAP_TILE_URL', () => {
  let rig: BrowserRig;
  let tiles: Server;
  const asked: { z: number; x: number; y: number }[] = [];

  beforeAll(async () => {
    tiles = createServer((req, res) => {
      const m = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
      if (!m) return void res.writeHead(404).end();
      asked.push({ z: Number(m[1]), x: Number(m[2]), y: Number(m[3]) });
      res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(TILE);
    });
    const port = await freePort();
    await new Promise<void>((r) => tiles.listen(port, '127.0.0.1', () => r()));
    rig = await startBrowserRig({
      MAP_TILE_URL: `http://127.0.0.1:${(tiles.address() as AddressInfo).port}/tiles/{z}/{x}/{y}.png`,
      MAP_TILE_ATTRIBUTION: '© Test tiles contributors',
    });
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
    await new Promise<void>((r) => tiles?.close(() => r()));
  });

  it('loads the tiles of the place chosen, credits them, and leaves out the offline outlines and names', async () => {
    const page = await (await rig.context()).newPage();
    await page.goto('/discover');
    const map = page.getByRole('region', { name: 'Map of plants near the chosen point' });
    await map.waitFor();
    await page.getByText('© Test tiles contributors').waitFor();
    expect(await page.getByText('Natural Earth, GeoNames').count()).toBe(0);

    await page.getByLabel('Find plants near a town').fill('Lyon');
    await page.getByRole('option', { name: /^Lyon, France/ }).click();
    await page.getByText('Map centred on Lyon, 50 km').waitFor();
    // The tile under Lyon at the zoom the map went to is asked for, and drawn.
    await expect
      .poll(() =>
        asked.some((t) => {
          const p = project(LYON, t.z);
          return t.z >= 7 && t.x === Math.floor(p.x / 256) && t.y === Math.floor(p.y / 256);
        }),
      )
      .toBe(true);
    // Tiles have no name to find them by: Leaflet marks each one drawn.
    await page.waitForFunction('document.querySelectorAll("img.leaflet-tile-loaded").length >= 4');
    // The street tiles name places themselves: the bundled names are not drawn over them.
    expect(await page.getByText('Lyon', { exact: true }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'maps-tiles-lyon');
  });
});
