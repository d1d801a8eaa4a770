import { signInOverHttp } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

// Seed lending in the browser: Lena's seed library lends seed of a lot to Bruno from the lot's page; Bruno grows a
// plant from it, and on the loans page returns seed saved from it, which becomes a new lot of Lena's whose parent is
// his plant. Every page is checked with axe.

const STEP_MS = 180_000;
const stamp = Date.now();
const LENA = { name: 'Lena Library', email: `lena-loans-${stamp}@example.org`, password: 'a library of open seed' };
const BRUNO = { name: 'Bruno Borrower', email: `bruno-loans-${stamp}@example.org`, password: 'growing it out again' };

async function account(rig: BrowserRig, who: typeof LENA): Promise<{ token: string; id: string }> {
  await fetch(`${rig.base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  const token = await signInOverHttp(rig.base, who.email, who.password);
  const id = ((await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } }).user.id;
  return { token, id };
}

describe('seed loans, in the browser', () => {
  let rig: BrowserRig;
  let lena: Page;
  let bruno: Page;
  let lotId: string;
  let brunoId: string;
  let brunoToken: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    const library = await account(rig, LENA);
    ({ token: brunoToken, id: brunoId } = await account(rig, BRUNO));
    lotId = (
      await call(rig, library.token, 'POST', '/api/seed-lots', {
        crop: 'Tomato',
        variety: 'Brandywine',
        harvestYear: 2025,
        quantity: { amount: 120, unit: 'seeds' },
      })
    ).id as string;
    lena = await (await rig.context()).newPage();
    bruno = await (await rig.context()).newPage();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  }, 120_000);

  it(
    'lends seed from the lot’s page',
    async () => {
      await signIn(lena, LENA);
      await lena.goto(`/seed-lots/${lotId}`);
      const form = lena.getByRole('form', { name: 'Lend seeds' });
      await form.waitFor();
      await expectAccessible(lena);
      await form.getByLabel('Borrower’s account id').fill('usr_nosuchborrower00000000');
      await form.getByText('No account has this id.').waitFor();
      await form.getByLabel('Borrower’s account id').fill(brunoId);
      await form.getByText(`Lends to ${BRUNO.name}.`).waitFor();
      await form.getByLabel('Quantity (seeds)').fill('500');
      await form.getByLabel('Due season').selectOption('autumn');
      await form.getByLabel('Due year').fill('2030');
      await form.getByRole('button', { name: 'Lend seeds' }).click();
      // More than the lot holds: refused in words.
      await form.getByText('The lot holds less seed than this loan: lend less.').first().waitFor();
      await form.getByLabel('Quantity (seeds)').fill('30');
      await form.getByRole('button', { name: 'Lend seeds' }).click();
      await form
        .getByText(`Lent 30 seeds to ${BRUNO.name}, due Autumn (September–November) 2030.`, { exact: false })
        .waitFor();
      await lena.getByRole('region', { name: 'About the lot' }).getByText('90 seeds').waitFor();
      await expectAccessible(lena);
      await screenshot(lena, 'seed-lot-lend');
    },
    STEP_MS,
  );

  it(
    'returns seed saved from a plant grown from the loan as a new lot of the library',
    async () => {
      // Two plants of one name grown from the loan: the form tells them apart by the end of their ids.
      const grow = async () =>
        (
          await call(rig, brunoToken, 'POST', '/api/plants/register', {
            commonName: 'Tomato',
            scientificName: 'Solanum lycopersicum',
            location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
            owner: { id: brunoId },
            seedLotId: lotId,
          })
        ).id as string;
      const plantId = await grow();
      const otherId = await grow();
      await signIn(bruno, BRUNO);
      await bruno.goto('/loans');
      await bruno.getByRole('heading', { level: 1, name: 'Seed loans' }).waitFor();
      await bruno.getByLabel('Whose loans').selectOption('borrower');
      const table = bruno.getByRole('region', { name: 'Seed loans' }).getByRole('table');
      const row = table.getByRole('row', { name: /Brandywine/ });
      await row.waitFor();
      expect(await row.getByRole('cell').allTextContents()).toEqual([
        'Tomato ‘Brandywine’',
        LENA.name,
        '30 seeds',
        'Autumn (September–November) 2030',
        'Open',
        'Return seeds of Tomato ‘Brandywine’',
      ]);
      await expectAccessible(bruno);
      await row.getByRole('button', { name: 'Return seeds of Tomato ‘Brandywine’' }).click();

      const form = bruno.getByRole('form', { name: 'Return seeds' });
      // Each plant by its name and species, never by its whole id.
      const plants = form.getByRole('group', { name: 'Plants the seed was saved from' }).getByRole('checkbox');
      expect(await plants.count()).toBe(2);
      await form.getByLabel(`Tomato Solanum lycopersicum …${plantId.slice(-5)}`).waitFor();
      await form.getByLabel(`Tomato Solanum lycopersicum …${otherId.slice(-5)}`).waitFor();
      expect(await form.textContent()).not.toContain(plantId);
      await form.getByLabel(`Tomato Solanum lycopersicum …${plantId.slice(-5)}`).check();
      await screenshot(bruno, 'loans-return-choose');
      await form.getByLabel('Quantity').fill('200');
      await form.getByLabel('Unit').selectOption('seeds');
      await form.getByLabel('Harvest year').fill('2026');
      await form.getByRole('button', { name: 'Return seeds' }).click();
      await form.getByText(`Returned: the seed is now a new lot of ${LENA.name}.`).waitFor();
      await row.getByText('Returned').waitFor();
      await expectAccessible(bruno);
      await screenshot(bruno, 'loans-return');

      // The library sees it returned, and the new lot names Bruno's plant as its parent.
      await lena.goto('/loans');
      await lena.getByLabel('Status').selectOption('returned');
      const lent = lena.getByRole('region', { name: 'Seed loans' }).getByRole('row', { name: /Brandywine/ });
      await lent.getByText(BRUNO.name).waitFor();
      await expectAccessible(lena);
      await lent.getByRole('link', { name: 'The new lot' }).click();
      // The parent by its name, linked to its page.
      const parent = lena.getByRole('region', { name: 'About the lot' }).getByRole('link', { name: 'Tomato' });
      expect(await parent.getAttribute('href')).toBe(`/plants/${plantId}`);
      expect(await lena.getByRole('region', { name: 'About the lot' }).textContent()).not.toContain(plantId);
      await lena.getByRole('region', { name: 'About the lot' }).getByText('200 seeds').waitFor();
    },
    STEP_MS,
  );
});
