import { signInOverHttp, TEST_ADMIN } from '@rootline/testing';
import type { Locator } from 'playwright-core';
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

// People, plants and events by name, and refusals in words beside the field they concern: what a person reads on
// each page, never an account id, a request path or an event subject.

const STEP_MS = 180_000;
const stamp = Date.now();
const ALICE = { name: 'Alice Gardener', email: `alice-${stamp}@example.org`, password: 'heirloom seeds every spring' };

/** The text the field's aria-describedby points at: its hint and the message bound to it. */
async function description(field: Locator): Promise<string> {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const page = field.page();
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

/** A refusal shown beside its field: the field is marked invalid and describes the message, in plain words. */
async function expectRefusal(field: Locator, message: string | RegExp): Promise<void> {
  await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 30_000 }).toBe('true');
  const said = await description(field);
  expect(said).toMatch(message);
  expect(said).not.toMatch(/body\/|querystring\/|usr_|evt\.|must NOT|must match/);
}

describe('names, not ids; refusals in words', () => {
  let rig: BrowserRig;
  let alice: { token: string; id: string };
  let motherId: string;
  let childId: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ALICE),
    });
    const token = await signInOverHttp(rig.base, ALICE.email, ALICE.password);
    const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
    alice = { token, id: session.user.id };
    const where = { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' };
    const mother = await call(rig, token, 'POST', '/api/plants/register', {
      commonName: 'Brandywine tomato',
      scientificName: 'Solanum lycopersicum',
      location: where,
      owner: { id: alice.id },
    });
    motherId = String(mother.id);
    const child = await call(rig, token, 'POST', '/api/plants/clone', {
      parentPlantId: motherId,
      propagationType: 'cutting',
      newPlant: { location: where, owner: { id: alice.id } },
    });
    childId = String(child.id);
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'names a plant’s parent and keeps the ids under Details',
    async () => {
      const page = await (await rig.context()).newPage();
      await page.goto(`/plants/${childId}`);
      const facts = page.getByRole('region', { name: 'Facts' });
      const parent = facts.getByRole('link', { name: 'Brandywine tomato' });
      await parent.waitFor({ timeout: 30_000 });
      expect(await parent.getAttribute('href')).toBe(`/plants/${motherId}`);
      expect(await facts.getByText(ALICE.name).count()).toBeGreaterThan(0);
      // The ids are there for whoever needs one, folded away.
      expect(await facts.getByText(motherId).isVisible()).toBe(false);
      await facts.getByText('Details').click();
      expect(await facts.getByText(motherId).isVisible()).toBe(true);
      await facts.getByRole('button', { name: 'Copy the parent plant id' }).waitFor();
      await expectAccessible(page);
      await screenshot(page, 'names-plant-parent');
    },
    STEP_MS,
  );

  it(
    'tells the audit log in sentences that name people, with counts in the right plural',
    async () => {
      const page = await (await rig.context()).newPage();
      await signIn(page, TEST_ADMIN);
      await page.goto('/network/audit');
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await page.getByLabel('Record id').fill(motherId);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const table = page.getByRole('table');
      await table
        .getByRole('cell', { name: /^Alice Gardener registered Brandywine tomato \(Solanum lycopersicum\)/ })
        .first()
        .waitFor({ timeout: 60_000 });
      await table.getByRole('cell', { name: ALICE.name, exact: true }).first().waitFor();
      await screenshot(page, 'names-audit-plant');

      // Blocks: "Block 3 mined with 1 transaction", never "1 transactions" nor the subject.
      await page.getByLabel('Record id').fill('');
      await page.getByLabel('Kind').fill('evt.chain.block.mined');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const block = table.getByRole('cell', { name: /^Block \d+ mined with \d+ transactions?/ }).first();
      await block.waitFor({ timeout: 60_000 });
      const sentences = await table.getByRole('cell', { name: /^Block \d+ mined/ }).allInnerTexts();
      for (const s of sentences) {
        expect(s).toMatch(/^Block \d+ mined with (1 transaction|(0|[2-9]|\d{2,}) transactions)\b/);
      }
      expect(
        await table
          .getByText(/evt\./)
          .first()
          .isVisible()
          .catch(() => false),
      ).toBe(false);
      await expectAccessible(page);
      await screenshot(page, 'names-audit-blocks');
    },
    STEP_MS,
  );

  it(
    'shows each refusal beside its field in plain words: sign-up, register a plant, listing, reading, webhook',
    async () => {
      const visitor = await (await rig.context()).newPage();
      await visitor.goto('/signup');
      await visitor.getByLabel('Your name').fill('Another Alice');
      await visitor.getByLabel('Email').fill(ALICE.email);
      await visitor.getByLabel('Password').fill('a different long passphrase');
      await visitor.getByRole('button', { name: 'Create account' }).click();
      await expectRefusal(visitor.getByLabel('Email'), 'An account with this email address already exists.');
      await expectAccessible(visitor);
      await screenshot(visitor, 'names-error-signup');

      const page = await (await rig.context()).newPage();
      await signIn(page, ALICE);
      // The browser's own checks are left out, as an older browser would: the API's answer is what is shown.
      const withoutBrowserChecks = () =>
        page.evaluate("document.querySelectorAll('form').forEach((f) => { f.noValidate = true; })");

      await page.goto('/plants/new');
      await page.getByLabel('Common name').fill('Lemon balm');
      await page.getByLabel('Latitude').fill('95');
      await page.getByLabel('Longitude').fill('5.1');
      await withoutBrowserChecks();
      await page.getByRole('button', { name: 'Register the plant' }).click();
      await expectRefusal(page.getByLabel('Latitude'), 'Enter 90 or less.');
      await screenshot(page, 'names-error-register-plant');

      await page.goto('/market/sell');
      await page.getByRole('heading', { level: 1, name: 'Sell something' }).waitFor();
      await page.getByLabel('Title').fill(' ');
      await page.getByLabel('Quantity').fill('1');
      await page.getByLabel('Price per unit (EUR)').fill('2');
      await page.getByLabel('Latitude').fill('52.1');
      await page.getByLabel('Longitude').fill('5.1');
      await page.getByRole('button', { name: 'Create the listing' }).click();
      await expectRefusal(page.getByLabel('Title'), /Fill this in|character/);
      await screenshot(page, 'names-error-listing');

      // A reading of the plant's environment, dated in the future.
      await page.goto(`/plants/${childId}/environment`);
      await page.getByRole('heading', { level: 1, name: 'Environment of Brandywine tomato' }).waitFor();
      await page.getByLabel('Temperature (°C)').fill('23');
      const next = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 16);
      await page.getByLabel('Measured at (optional, default now)').fill(next);
      await page.getByRole('button', { name: 'Save the environment' }).click();
      await expectRefusal(
        page.getByLabel('Measured at (optional, default now)'),
        'Choose a time that is not in the future.',
      );
      await screenshot(page, 'names-error-reading');

      await page.goto('/network/webhooks');
      const form = page.getByRole('form', { name: 'New webhook' });
      await form.getByLabel('Address (URL)').fill('ftp://hooks.example.org/rootline');
      await form.getByRole('button', { name: 'Save the webhook' }).click();
      await expectRefusal(form.getByLabel('Address (URL)'), 'Enter a web address starting with https:// (or http://).');
      await expectAccessible(page);
      await screenshot(page, 'names-error-webhook');
    },
    STEP_MS,
  );
});
