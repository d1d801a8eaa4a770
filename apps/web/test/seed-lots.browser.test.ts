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

// The seed inventory in the browser: a grower adds a lot saved from a registered plant from the My plants page, finds
// it under the low-viability filter (old tomato seed), opens it, records a germination test and sees the expected
// viability follow the test. Every page is checked with axe.

const stamp = Date.now();
const ROSA = { name: 'Rosa Seedsaver', email: `rosa-seeds-${stamp}@example.org`, password: 'saving seed every year' };

describe('seed lots, in the browser', () => {
  let rig: BrowserRig;
  let page: Page;
  let motherId: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    const res = await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ROSA),
    });
    expect(res.status).toBe(201);
    const session = (await call(rig, rig.adminToken, 'GET', '/api/auth/session')) as { user: { id: string } };
    const mother = await call(rig, rig.adminToken, 'POST', '/api/plants/register', {
      commonName: 'Tomato',
      location: { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' },
      owner: { id: session.user.id },
    });
    motherId = String(mother.id);
    page = await (await rig.context()).newPage();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  }, 120_000);

  it('adds a lot from the inventory page and finds it under low viability', async () => {
    await signIn(page, ROSA, 'My plants');
    await page.getByRole('link', { name: 'Seed lots' }).click();
    await page.getByRole('heading', { level: 1, name: 'Seed lots' }).waitFor();
    await page.getByText('No seed lots yet.').waitFor();
    await expectAccessible(page);

    const add = page.getByRole('form', { name: 'Add a seed lot' });
    await add.getByLabel('Crop').fill('Tomato');
    await add.getByLabel('Variety').fill('Brandywine');
    await add.getByLabel('Harvest year').fill('2019');
    await add.getByLabel('Quantity').fill('120');
    await add.getByLabel('Unit').selectOption('seeds');
    await add.getByLabel('Saved from plants').fill(motherId);
    await add.getByLabel('Storage place').fill('Cellar, shelf 2');
    await add.getByLabel('Storage temperature (°C)').fill('8');
    await add.getByLabel('Relative humidity (%)').fill('35');
    await add.getByLabel('Container').fill('Glass jar');
    await add.getByRole('button', { name: 'Add the seed lot' }).click();
    await page.getByText('Seed lot Tomato ‘Brandywine’ added.', { exact: true }).waitFor();

    const table = page.getByRole('region', { name: 'Seed lots' }).getByRole('table');
    const row = table.getByRole('row', { name: /Brandywine/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('2019');
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('120 seeds');
    await row.getByText('low').waitFor();

    const filters = page.getByRole('form', { name: 'Filter the seed lots' });
    await filters.getByLabel('Only lots with low viability').check();
    await filters.getByLabel('Harvest year').fill('2020');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No seed lots yet.').waitFor();
    await filters.getByLabel('Harvest year').fill('2019');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('1 seed lot', { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'seed-lots');
  }, 120_000);

  it('shows the lot with its expected viability, and records a germination test that the viability follows', async () => {
    await page.getByRole('link', { name: 'Tomato ‘Brandywine’' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tomato ‘Brandywine’' }).waitFor();
    const viability = page.getByRole('region', { name: 'Expected viability' });
    await viability.getByText(/From the lot’s age: .* years, for a crop whose seed lives about 4 years\./).waitFor();
    await viability.getByText('Low: test the lot again or grow it out for fresh seed.').waitFor();
    const facts = page.getByRole('region', { name: 'About the lot' });
    // The parent plant by its name (and the end of its id), linked to its page.
    const parent = facts.getByRole('link', { name: 'Tomato', exact: true });
    expect(await parent.getAttribute('href')).toBe(`/plants/${motherId}`);
    await facts.getByText(`…${motherId.slice(-5)}`).waitFor();
    await facts.getByText('Cellar, shelf 2 · 8 °C · 35 % · Glass jar').waitFor();
    await page.getByText('No tests yet.').waitFor();
    await expectAccessible(page);

    const form = page.getByRole('form', { name: 'Record a germination test' });
    await form.getByLabel('Seeds sown').fill('50');
    await form.getByLabel('Seeds germinated').fill('60');
    await form.getByRole('button', { name: 'Record the test' }).click();
    // More germinated than sown: the refusal names the field.
    await form.getByRole('alert').waitFor();
    await form.getByLabel('Seeds germinated').fill('45');
    await form.getByLabel('Method').selectOption('between-paper');
    await form.getByRole('button', { name: 'Record the test' }).click();
    await page.getByText('Test recorded: 90 % germinated.', { exact: true }).waitFor();

    const tests = page.getByRole('region', { name: 'Germination tests' }).getByRole('table');
    const row = tests.getByRole('row').nth(1);
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      expect.any(String),
      '50',
      '45',
      '90 %',
      'Between paper',
    ]);
    await viability.getByText('90 % of the seed should germinate today.').waitFor();
    await viability.getByText(/From the last germination test \(.*, 90 %\), carried to today\./).waitFor();
    expect(await viability.getByText('Low: test the lot again').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'seed-lot');
  }, 120_000);

  it('shows a visitor only the lot’s public fields', async () => {
    const visitor = await (await rig.context()).newPage();
    await visitor.goto(page.url());
    await visitor.getByRole('heading', { level: 1, name: 'Tomato ‘Brandywine’' }).waitFor();
    await visitor.getByText('Quantity, storage, notes and tests are shown to the lot’s holder only.').waitFor();
    expect(await visitor.getByRole('region', { name: 'Expected viability' }).count()).toBe(0);
    expect(await visitor.getByText('Cellar, shelf 2').count()).toBe(0);
    await expectAccessible(visitor);
  }, 60_000);
});
