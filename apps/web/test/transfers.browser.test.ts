import { signInOverHttp } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountMenu,
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

// A plant changes hands in the browser: Ada offers her tomato to Grace's seed library from the plant's page, Grace
// acting for the library accepts it on the transfers page, and the plant's page then names the library as owner and
// tells who gave it and who accepted it for the library. Then a seed lot of Ada's changes hands the same way, from the
// lot's page, and is listed on the transfers page by the lot's name.

const STEP_MS = 180_000;
const stamp = Date.now();
const ADA = { name: 'Ada Grower', email: `ada-tr-${stamp}@example.org`, password: 'a grower giving a plant' };
const GRACE = { name: 'Grace Keeper', email: `grace-tr-${stamp}@example.org`, password: 'keeper of the seed library' };
const ORG = 'Riverside Seed Library';

async function account(rig: BrowserRig, who: typeof ADA): Promise<string> {
  await fetch(`${rig.base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  return signInOverHttp(rig.base, who.email, who.password);
}

describe('ownership transfers, in the browser', () => {
  let rig: BrowserRig;
  let ada: Page;
  let grace: Page;
  let plantId: string;
  let lotId: string;
  let orgId: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    const adaToken = await account(rig, ADA);
    const graceToken = await account(rig, GRACE);
    const adaId = ((await call(rig, adaToken, 'GET', '/api/auth/session')) as { user: { id: string } }).user.id;
    orgId = (await call(rig, graceToken, 'POST', '/api/organizations', { name: ORG, kind: 'seed-library' }))
      .id as string;
    plantId = (
      await call(rig, adaToken, 'POST', '/api/plants/register', {
        commonName: 'Tomato',
        location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
        owner: { id: adaId },
        privacyLevel: 'city',
      })
    ).id as string;
    lotId = (
      await call(rig, adaToken, 'POST', '/api/seed-lots', {
        crop: 'tomato',
        variety: 'Brandywine',
        harvestYear: 2026,
        quantity: { amount: 120, unit: 'seeds' },
      })
    ).id as string;
    ada = await (await rig.context()).newPage();
    grace = await (await rig.context()).newPage();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  }, 120_000);

  it(
    'offers the plant from its page to an organization',
    async () => {
      await signIn(ada, ADA);
      await ada.goto(`/plants/${plantId}`);
      const form = ada.getByRole('region', { name: 'Transfer this plant' });
      await form.waitFor();
      await ada.getByRole('region', { name: 'Owners' }).getByText(`Registered by ${ADA.name}`).waitFor();
      // The library found by a few letters of its name, not by an id typed by hand.
      await form.getByLabel('Find an organization').fill('riversi');
      const found = form.getByRole('list', { name: 'Organizations found' });
      await found.getByRole('button', { name: `Choose ${ORG}` }).click();
      await form.getByText(`The transfer goes to ${ORG}.`).waitFor();
      expect(await form.getByLabel('Or the recipient’s id').inputValue()).toBe(orgId);
      expect(await found.getByRole('button', { name: `Choose ${ORG}` }).getAttribute('aria-pressed')).toBe('true');
      await form.getByLabel('Message (optional)').fill('For the library’s collection');
      await expectAccessible(ada);
      await screenshot(ada, 'transfer-recipient-found');
      await form.getByRole('button', { name: 'Offer the transfer' }).click();
      await form.getByText(`A transfer to ${ORG} waits for an answer.`).waitFor();
      await expectAccessible(ada);
      await screenshot(ada, 'transfer-offered');
    },
    STEP_MS,
  );

  it(
    'is accepted by the organization’s owner acting for it, and the plant page shows the new owner and who signed',
    async () => {
      await signIn(grace, GRACE);
      await (await accountMenu(grace)).getByRole('menuitemradio', { name: ORG }).click();
      await grace.goto('/transfers');
      await grace.getByRole('heading', { level: 1, name: 'Transfers' }).waitFor();
      const incoming = grace.getByRole('region', { name: 'Offered to you' });
      await incoming.getByRole('link', { name: `${ADA.name} offers Tomato to ${ORG}` }).waitFor();
      await incoming.getByText('Their word: “For the library’s collection”').waitFor();
      await expectAccessible(grace);
      await screenshot(grace, 'transfer-incoming');
      await incoming.getByRole('button', { name: `Accept Tomato from ${ADA.name}` }).click();
      await incoming.getByText('Accepted', { exact: true }).first().waitFor();

      await grace.goto(`/plants/${plantId}`);
      const owners = grace.getByRole('region', { name: 'Owners' });
      await owners.getByText(`${ADA.name} gave it to ${ORG}`).waitFor();
      await owners.getByText(`Given by ${ADA.name}, accepted by ${GRACE.name} for ${ORG}`, { exact: false }).waitFor();
      // Grace owns the library: she may give the plant on, acting for it.
      await grace.getByRole('region', { name: 'Transfer this plant' }).waitFor();
      await expectAccessible(grace);
      await screenshot(grace, 'transfer-history');

      // Ada is no longer its owner: no transfer form for her, and the plant is the library's.
      await ada.goto(`/plants/${plantId}`);
      await ada.getByRole('region', { name: 'Owners' }).getByText(`${ADA.name} gave it to ${ORG}`).waitFor();
      expect(await ada.getByRole('region', { name: 'Transfer this plant' }).count()).toBe(0);
    },
    STEP_MS,
  );

  it(
    'gives a seed lot from its page to the organization, which accepts it on the transfers page',
    async () => {
      const LOT = 'tomato, Brandywine (2026)';
      await ada.goto(`/seed-lots/${lotId}`);
      const form = ada.getByRole('region', { name: 'Transfer this seed lot' });
      await form.waitFor();
      await ada.getByRole('region', { name: 'Owners' }).getByText(`Recorded by ${ADA.name}`).waitFor();
      // The library she gave to before is a quick choice; an id typed by hand still works, and is named back.
      const quick = form.getByLabel('Quick choice');
      expect(await quick.locator('option').allTextContents()).toContain(`${ORG} (an earlier transfer)`);
      await form.getByLabel('Or the recipient’s id').fill('org_nosuchlibrary0000000000');
      await form.getByText('No account or organization has this id.').waitFor();
      await form.getByLabel('Or the recipient’s id').fill(orgId);
      await form.getByText(`The transfer goes to ${ORG}.`).waitFor();
      expect(await quick.inputValue()).toBe(orgId);
      await form.getByRole('button', { name: 'Offer the transfer' }).click();
      await form.getByText(`A transfer to ${ORG} waits for an answer.`).waitFor();
      await expectAccessible(ada);
      await screenshot(ada, 'transfer-lot-offered');

      // Grace, still acting for the library, finds it among the offers by the lot's name.
      await grace.goto('/transfers');
      const incoming = grace.getByRole('region', { name: 'Offered to you' });
      const offer = incoming.getByRole('listitem').filter({ hasText: LOT });
      await offer.getByRole('link', { name: `${ADA.name} offers ${LOT} to ${ORG}` }).waitFor();
      await offer.getByText('Seed lot', { exact: true }).waitFor();
      await expectAccessible(grace);
      await screenshot(grace, 'transfer-lot-incoming');
      await offer.getByRole('button', { name: `Accept ${LOT} from ${ADA.name}` }).click();
      await offer.getByText('Accepted', { exact: true }).first().waitFor();

      await offer.getByRole('link', { name: `${ADA.name} offers ${LOT} to ${ORG}` }).click();
      const owners = grace.getByRole('region', { name: 'Owners' });
      await owners.getByText(`${ADA.name} gave it to ${ORG}`).waitFor();
      await owners.getByText(`Given by ${ADA.name}, accepted by ${GRACE.name} for ${ORG}`, { exact: false }).waitFor();
      // The library holds the lot now: Grace sees its quantity and may give it on.
      await grace.getByRole('region', { name: 'Transfer this seed lot' }).waitFor();
      await expectAccessible(grace);
      await screenshot(grace, 'transfer-lot-history');

      await ada.goto(`/seed-lots/${lotId}`);
      await ada.getByRole('region', { name: 'Owners' }).getByText(`${ADA.name} gave it to ${ORG}`).waitFor();
      expect(await ada.getByRole('region', { name: 'Transfer this seed lot' }).count()).toBe(0);
    },
    STEP_MS,
  );
});
