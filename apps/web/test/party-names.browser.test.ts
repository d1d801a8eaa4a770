import { renameAccount } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  startBrowserRig,
} from './support/browser.js';

const STEP_MS = 120_000;
const UTRECHT = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
const LEIDEN = { latitude: 52.1601, longitude: 4.497, city: 'Leiden', country: 'NL' };
const GROCER = { id: 'shop-green-grocer', name: 'Green Grocer' };
const COOP = { id: 'coop-utrecht-veg', name: 'Utrecht Veg Co-op' };
const RENAMED = 'Ada Renamed';

/**
 * Names on a plant's page as records keep them (docs/privacy.md, "Names on records"): a party without an account is
 * shown as stated by whoever stated it, under that account's current name, and an account renamed since a record was
 * written is shown under the recorded name with its current one beside.
 */
describe('names on a plant’s page: stated by whom, and the account’s current name', () => {
  let rig: BrowserRig;
  let admin: { id: string; name: string };
  let shopPlant: string;
  let ownPlant: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    const session = await call(rig, rig.adminToken, 'GET', '/api/auth/session');
    admin = session.user as { id: string; name: string };
    const register = async (commonName: string, owner: unknown) =>
      String(
        (await call(rig, rig.adminToken, 'POST', '/api/plants/register', { commonName, location: UTRECHT, owner })).id,
      );
    shopPlant = await register('Shop carrot', GROCER);
    ownPlant = await register('Orchard pear', { id: admin.id });
    for (const [hour, handler] of [
      [8, { id: admin.id }],
      [9, COOP],
    ] as const) {
      await call(rig, rig.adminToken, 'POST', '/api/transport/distribution', {
        plantId: ownPlant,
        eventTime: `2026-06-01T0${hour}:00:00Z`,
        from: UTRECHT,
        to: LEIDEN,
        transportMode: 'cargo-bike',
        handler,
      });
    }
    // The ADMIN's account is renamed after the records were written.
    await renameAccount(rig.databaseUrl, admin.id, RENAMED);
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'shows a shop’s name as stated by the ADMIN, under the ADMIN’s current name',
    async () => {
      const page = await (await rig.context()).newPage();
      await page.goto(`/plants/${shopPlant}`);
      const facts = page.getByRole('region', { name: 'Facts' });
      await expect.poll(() => facts.textContent()).toContain(`${GROCER.name} (stated by ${RENAMED})`);
      await expectAccessible(page);
      await screenshot(page, 'party-names-stated-owner');
    },
    STEP_MS,
  );

  it(
    'shows a renamed account under its recorded name with the current one beside, and journey handlers likewise',
    async () => {
      const page = await (await rig.context()).newPage();
      await page.goto(`/plants/${ownPlant}`);
      const facts = page.getByRole('region', { name: 'Facts' });
      await expect.poll(() => facts.textContent()).toContain(`${admin.name} (account now named ${RENAMED})`);
      // The journey is a tab of its own.
      await page.getByRole('tab', { name: 'Journey' }).click();
      const timeline = page.getByRole('list', { name: 'Timeline' });
      await expect.poll(() => timeline.textContent()).toContain(`handled by ${COOP.name} (stated by ${RENAMED})`);
      expect(await timeline.textContent()).toContain(`handled by ${admin.name} (account now named ${RENAMED})`);
      await expectAccessible(page);
      await page.getByRole('heading', { name: 'Journey' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'party-names-renamed-and-journey');
    },
    STEP_MS,
  );
});
