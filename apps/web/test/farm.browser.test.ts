import { recordDemandHistory, settleDemandHouseholds, signInOverHttp } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  mainMenu,
  RIG_START_MS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

// A farm manager runs a vertical farm in the browser: farm, zone, recipe, a batch whose readings and alerts arrive
// live, the harvest and the analytics; then a household states what it wants and a planner reads the forecast.

const stamp = Date.now();
const MANAGER = { name: 'Mo Manager', email: `mo-${stamp}@example.org`, password: 'a farm of many levels' };
const VISITOR = { name: 'Val Visitor', email: `val-${stamp}@example.org`, password: 'only here to look around' };
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };

/** An account made over HTTP; returns its token and id. */
async function account(rig: BrowserRig, who: { name: string; email: string; password: string }) {
  const res = await fetch(`${rig.base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  expect(res.status).toBeLessThan(300);
  const token = await signInOverHttp(rig.base, who.email, who.password);
  const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
  return { token, id: session.user.id };
}

/** The Monday `weeksAgo` weeks before this week's, as YYYY-MM-DD. */
function mondayWeeksAgo(weeksAgo: number): string {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) - 7 * weeksAgo);
  return d.toISOString().slice(0, 10);
}

describe('a farm manager and a demand planner, in the browser', () => {
  let rig: BrowserRig;
  let page: Page;
  let manager: { token: string; id: string };
  let farmId: string;
  let batchId: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    manager = await account(rig, MANAGER);
    await call(rig, rig.adminToken, 'PUT', `/api/admin/users/${manager.id}/role`, { role: 'FARM_MANAGER' });
    await account(rig, VISITOR);
    page = await (await rig.context()).newPage();
    await signIn(page, MANAGER, 'My plants');
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  }, 180_000);

  it('tells a person without the role what they can do and who grants it', async () => {
    const visitor = await (await rig.context({ width: 390, height: 844 })).newPage();
    await signIn(visitor, VISITOR, 'My plants');
    await (await mainMenu(visitor)).getByRole('link', { name: 'Vertical farms' }).click();
    await visitor.getByRole('heading', { level: 2, name: 'Farm manager role needed' }).waitFor();
    await visitor.getByText(/An administrator grants it/).waitFor();
    expect(await visitor.getByRole('button', { name: 'Register the farm' }).count()).toBe(0);
    await expectAccessible(visitor);
    await screenshot(visitor, 'farm-role-needed-phone');
    await visitor.close();
  }, 180_000);

  it('registers a farm and adds a zone', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vertical farms' }).click();
    await page.getByRole('heading', { level: 1, name: 'My vertical farms' }).waitFor();
    await page.getByText('You have no farms yet').waitFor();
    await page.getByLabel('Farm name').fill('Harbour Greens');
    await page.getByLabel('Floor area (m²)').fill('1200');
    await page.getByLabel('Levels').fill('6');
    await page.getByLabel('Climate system').selectOption('hvac-dehumidification');
    await page.getByLabel('Latitude').fill(String(AMSTERDAM.latitude));
    await page.getByLabel('Longitude').fill(String(AMSTERDAM.longitude));
    await page.getByLabel('City (optional)').fill('Amsterdam');
    await page.getByLabel('Country code (optional)').fill('NL');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Register the farm' }).click();
    await page.getByRole('heading', { level: 1, name: 'Harbour Greens' }).waitFor();
    farmId = new URL(page.url()).pathname.split('/').pop()!;
    expect(farmId).toMatch(/^frm_/);
    await page.getByText('No zones yet').waitFor();

    await page.getByLabel('Zone name').fill('Level 1 DWC');
    await page.getByLabel('Level', { exact: true }).fill('1');
    await page.getByLabel('Area (m²)').fill('40');
    await page.getByLabel('Plant sites').fill('800');
    await page.getByLabel('Growing method').selectOption('deep-water-culture');
    await page.getByRole('button', { name: 'Add the zone' }).click();
    await page.getByRole('cell', { name: 'Level 1 DWC' }).waitFor();
    await page.getByRole('cell', { name: '0 / 800' }).waitFor();
    await expectAccessible(page);
  }, 180_000);

  it('derives a recipe version, with its phases, targets and sources shown', async () => {
    await page.goto('/vertical-farm/recipes');
    await page.getByRole('heading', { level: 1, name: 'Growing recipes' }).waitFor();
    const lettuce = page.getByRole('article', { name: 'Butterhead lettuce, deep water culture (Cornell CEA)' });
    await lettuce.getByRole('rowheader', { name: 'vegetative' }).waitFor();
    expect(await lettuce.getByText(/Brechner/).count()).toBeGreaterThan(0);
    await page
      .getByLabel('Parent recipe')
      .selectOption({ label: 'Butterhead lettuce, deep water culture (Cornell CEA) (version 1)' });
    await page.getByLabel('New recipe name').fill('Butterhead, longer pond');
    await page.getByLabel('Days of vegetative').fill('28');
    await page.getByLabel('Source of your changes').fill('Own trials 2026: heavier heads at 28 days');
    await page.getByRole('button', { name: 'Create the version' }).click();
    await page.getByText('Created Butterhead, longer pond, version 2.').waitFor();
    const derived = page.getByRole('article', { name: 'Butterhead, longer pond' });
    await derived.getByText(/version 2 · 39-day cycle · Derived from Butterhead lettuce, deep water culture/).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'farm-recipes');
  }, 180_000);

  it('starts a batch, then shows readings and an alert as they arrive, without a reload', async () => {
    await page.goto(`/vertical-farm/${farmId}`);
    await page.getByRole('heading', { level: 2, name: 'Start a batch' }).waitFor();
    await page.getByText('No batches yet.').waitFor();
    await page.getByLabel('Recipe').selectOption({ label: 'Butterhead, longer pond (version 2)' });
    await page.getByLabel('Variety').fill('Rex');
    await page.getByLabel('Number of plants').fill('400');
    await page.getByLabel('Seed lot').fill('RZ-2026-0412');
    await page.getByLabel('Seed supplier (optional)').fill('Rijk Zwaan');
    await page.getByRole('button', { name: 'Start the batch' }).click();
    await page.getByRole('heading', { level: 1, name: 'lettuce ‘Rex’' }).waitFor();
    batchId = new URL(page.url()).pathname.split('/').pop()!;
    expect(batchId).toMatch(/^bat_/);
    const facts = page.getByRole('region', { name: 'Batch' });
    await facts.getByText('Germinating').waitFor();
    await page.getByText('No readings yet. Readings sent to the API appear here as they arrive.').waitFor();
    await page.getByText('No readings outside their targets.').waitFor();
    await page.locator('header').getByText('Live', { exact: true }).waitFor();
    await expectAccessible(page);
    // The document's time origin changes with every load: the same origin means no reload.
    const loads = await page.evaluate(() => performance.timeOrigin);

    // A sensor reports through the API: in target for germination (humidity 80–95 %).
    const t0 = Date.now();
    const reading = (at: number, humidityPct: number) => ({
      at: new Date(at).toISOString(),
      temperatureC: 20,
      humidityPct,
      co2Ppm: 900,
    });
    await call(rig, manager.token, 'PUT', `/api/vertical-farm/batch/${batchId}/environment`, {
      readings: [reading(t0, 88)],
    });
    const humidity = page.getByRole('figure', { name: 'Relative humidity (%)' });
    const canvas = humidity.getByRole('img');
    await expect.poll(() => canvas.getAttribute('data-points'), { timeout: 30_000 }).toBe('1');

    // Then one too dry: the chart grows and the alert arrives (the manager's notification), still without a reload.
    await call(rig, manager.token, 'PUT', `/api/vertical-farm/batch/${batchId}/environment`, {
      readings: [reading(t0 + 1000, 41.5)],
    });
    await expect.poll(() => canvas.getAttribute('data-points'), { timeout: 30_000 }).toBe('2');
    const alerts = page.getByRole('log', { name: 'Alerts' });
    await alerts.getByText('Relative humidity (%) 41.5, outside 80 to 95').waitFor({ timeout: 30_000 });
    await humidity.getByText('Show the data').click();
    await humidity.getByRole('cell', { name: '41.5', exact: true }).waitFor();
    await humidity.getByRole('cell', { name: '80 – 95' }).first().waitFor();
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(loads);
    await facts.getByText('2 readings, 50 % in target').waitFor();
    // One series per chart: no key, and none of uPlot's empty "Value: --" rows under it.
    expect(await page.getByText('--', { exact: true }).count()).toBe(0);
    expect(await page.locator('.u-legend').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'farm-batch-live');
  }, 180_000);

  it('takes a reading entered by hand, names a wrong value beside its field, and shows it live elsewhere', async () => {
    // A second window on the same batch (another tab, another device): it only listens.
    const other = await (await rig.context({ width: 390, height: 844 })).newPage();
    await signIn(other, MANAGER, 'My plants');
    await other.goto(`/vertical-farm/batch/${batchId}`);
    const otherCo2 = other.getByRole('figure', { name: 'CO2 (ppm)' }).getByRole('img');
    await expect.poll(() => otherCo2.getAttribute('data-points'), { timeout: 30_000 }).toBe('2');
    await other.locator('header').getByText('Live', { exact: true }).waitFor();
    const otherLoad = await other.evaluate(() => performance.timeOrigin);

    const form = page.getByRole('form', { name: 'Record a reading' });
    await form.getByText('Leave empty for now.').waitFor();
    // Nothing measured: said before anything is sent.
    await form.getByRole('button', { name: 'Save the reading' }).click();
    await form.getByText('Fill in at least one measured value.').waitFor();
    // A humidity of 140 % is a broken sensor: refused, the message beside the field.
    await form.getByLabel('Relative humidity (%)').fill('140');
    await form.getByLabel('CO2 (ppm)').fill('1100');
    await form.getByRole('button', { name: 'Save the reading' }).click();
    const humidityField = form.getByLabel('Relative humidity (%)');
    await expect.poll(() => humidityField.getAttribute('aria-invalid'), { timeout: 30_000 }).toBe('true');
    const described = (await humidityField.getAttribute('aria-describedby')) ?? '';
    const message = await page.locator(`[id="${described.split(' ').pop()}"]`).textContent();
    expect(message).toBe('At most 100: a value beyond it is a faulty sensor or a typing error.');
    await form.getByText('Not saved: correct the value marked below.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'farm-reading-error');

    await humidityField.fill('86');
    await form.getByLabel('Air temperature (°C)').fill('20.5');
    await form.getByRole('button', { name: 'Save the reading' }).click();
    await form.getByText('Reading saved, every value within target.').waitFor({ timeout: 30_000 });
    expect(await humidityField.inputValue()).toBe('');
    // Here: the summary and the chart, with the value in its table.
    await page.getByRole('region', { name: 'Batch' }).getByText('3 readings, 67 % in target').waitFor();
    const co2 = page.getByRole('figure', { name: 'CO2 (ppm)' });
    await expect.poll(() => co2.getByRole('img').getAttribute('data-points'), { timeout: 30_000 }).toBe('3');
    await co2.getByText('Show the data').click();
    await co2.getByRole('cell', { name: '1,100', exact: true }).waitFor();
    await screenshot(page, 'farm-reading-saved');
    // There: the reading arrives without a reload.
    await expect.poll(() => otherCo2.getAttribute('data-points'), { timeout: 30_000 }).toBe('3');
    expect(await other.evaluate(() => performance.timeOrigin)).toBe(otherLoad);
    await expectAccessible(other);
    await screenshot(other, 'farm-reading-live-phone');
    await other.close();
  }, 180_000);

  it('records the harvest on the ledger and charts the farm’s analytics', async () => {
    await page.getByLabel('Yield (kg)').fill('12.5');
    await page.getByLabel('Quality grade').selectOption('premium');
    await page.getByLabel('Notes (optional)').fill('Cut early for a restaurant order');
    await page.getByRole('button', { name: 'Record the harvest' }).click();
    const harvest = page.getByRole('region', { name: 'Harvest' });
    await harvest.getByText('Harvested 12.5 kg.').waitFor({ timeout: 60_000 });
    await harvest.getByText('Harvested before the recipe’s expected date.').waitFor();
    await harvest.getByText(/Ledger block: #\d+/).waitFor();
    await page.getByRole('region', { name: 'Batch' }).getByText('Harvested', { exact: true }).waitFor();

    await page.goto(`/vertical-farm/${farmId}`);
    await page.getByRole('cell', { name: 'Harvested' }).waitFor();
    await page.getByRole('link', { name: 'Farm analytics' }).click();
    await page.getByRole('heading', { level: 1, name: 'Analytics: Harbour Greens' }).waitFor();
    // The totals and the charts agree: 12.5 kg harvested; per m² of the 40 m² zone over the year 12.5 ÷ 40;
    // per m² in use, 12.5 kg on half the zone (400 of 800 sites) for the day it counts at least: 12.5 × 365 ÷ 20.
    const totals = page.getByRole('region', { name: 'Totals' });
    await totals.getByText('1 (12.5 kg)').waitFor();
    await totals.getByText('0.31 kg').waitFor();
    const harvestByCrop = page.getByRole('figure', { name: 'Harvest by crop (kg)' });
    await harvestByCrop.getByText('Show the data').click();
    await harvestByCrop.getByRole('cell', { name: '12.5', exact: true }).waitFor();
    const byCrop = page.getByRole('figure', { name: 'Yield per m² in use per year by crop (kg)' });
    expect(await byCrop.getByRole('img').getAttribute('data-points')).toBe('1');
    await byCrop.getByText('Show the data').click();
    await byCrop.getByRole('rowheader', { name: 'lettuce' }).waitFor();
    await byCrop.getByRole('cell', { name: '228.13', exact: true }).waitFor();
    expect(await page.getByText('--', { exact: true }).count()).toBe(0);
    await page.getByRole('figure', { name: 'Readings in target by recipe (%)' }).waitFor();
    await page.getByRole('figure', { name: 'Utilisation by zone (%)' }).waitFor();
    expect(await page.locator('canvas').count()).toBeGreaterThanOrEqual(5);
    await expectAccessible(page);
    await screenshot(page, 'farm-analytics');
  }, 180_000);

  it('marks a batch failed after a confirm step, with the reason, and keeps it so', async () => {
    await page.goto(`/vertical-farm/${farmId}`);
    await page.getByRole('heading', { level: 2, name: 'Start a batch' }).waitFor();
    await page.getByLabel('Recipe').selectOption({ label: 'Butterhead, longer pond (version 2)' });
    await page.getByLabel('Variety').fill('Salanova');
    await page.getByLabel('Number of plants').fill('100');
    await page.getByLabel('Seed lot').fill('RZ-2026-0519');
    await page.getByRole('button', { name: 'Start the batch' }).click();
    await page.getByRole('heading', { level: 1, name: 'lettuce ‘Salanova’' }).waitFor();
    const failedId = new URL(page.url()).pathname.split('/').pop()!;
    const facts = page.getByRole('region', { name: 'Batch' });
    await facts.getByText('Germinating').waitFor();

    // Asking first: nothing is closed until the reason is given and confirmed; keeping it growing changes nothing.
    await facts.getByRole('button', { name: 'Mark the batch failed…' }).click();
    const confirm = facts.getByRole('form', { name: 'Mark the batch failed?' });
    await confirm.getByText('A failed batch is closed for good').waitFor();
    expect(await confirm.getByRole('button', { name: 'Mark it failed' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Keep it growing' }).click();
    await facts.getByRole('button', { name: 'Mark the batch failed…' }).waitFor();
    const open = (await call(rig, manager.token, 'GET', `/api/vertical-farm/batch/${failedId}`)) as { state: string };
    expect(open.state).toBe('germinating');

    await facts.getByRole('button', { name: 'Mark the batch failed…' }).click();
    await page.getByLabel('Why it failed').fill('Pythium root rot in the pond');
    await screenshot(page, 'farm-batch-fail-confirm');
    await page.getByRole('button', { name: 'Mark it failed' }).click();
    await facts.getByText('Failed', { exact: true }).waitFor();
    await facts.getByText('Pythium root rot in the pond').waitFor();
    await page.getByRole('region', { name: 'Harvest' }).getByText('This batch is closed.').waitFor();
    expect(await page.getByRole('button', { name: 'Mark the batch failed…' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Record the harvest' }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'farm-batch-failed');

    await page.reload();
    await facts.getByText('Pythium root rot in the pond').waitFor();
    await page.goto(`/vertical-farm/${farmId}`);
    await page.getByRole('cell', { name: 'Failed' }).waitFor();
  }, 180_000);

  it('saves a household’s preferences and draws the demand forecast with its interval', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Demand' }).click();
    await page.getByRole('heading', { level: 1, name: 'My preferences' }).waitFor();
    await page.getByText('You have not stated preferences yet.').waitFor();
    await page.getByLabel('Latitude').fill(String(AMSTERDAM.latitude));
    await page.getByLabel('Longitude').fill(String(AMSTERDAM.longitude));
    await page.getByLabel('City (optional)').fill('Amsterdam');
    await page.getByLabel('Country code (optional)').fill('NL');
    await page.getByLabel('People in the household').fill('3');
    await page.getByLabel('Crop', { exact: true }).selectOption('tomato');
    await page.getByLabel('Quantity per week').fill('2');
    await page.getByLabel('Highest price per unit (EUR, optional)').fill('4.5');
    await page.getByRole('checkbox', { name: 'Winter' }).uncheck();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save my preferences' }).click();
    await page.getByText('Your preferences are saved.').waitFor();
    await screenshot(page, 'demand-preferences');
    await page.reload();
    await page.getByText(/^Last saved /).waitFor();
    expect(await page.getByLabel('Quantity per week').inputValue()).toBe('2');
    expect(await page.getByRole('checkbox', { name: 'Winter' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'Summer' }).isChecked()).toBe(true);

    // Eight neighbours state theirs too (demand shows from five households; with its noise, a crop nine ask for
    // shows), and all have lived there two weeks (a household counts only then). Weekly signals over past weeks
    // recorded the history a forecast reads; this week's signal records the week.
    const neighbours = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) =>
        account(rig, {
          name: `Neighbour ${i}`,
          email: `n${i}-${stamp}@example.org`,
          password: 'neighbourly passphrase',
        }),
      ),
    );
    const prefer = (token: string, kg: number) =>
      call(rig, token, 'POST', '/api/demand/preferences', {
        location: AMSTERDAM,
        householdSize: 2,
        items: [{ crop: 'tomato', quantityPerWeek: kg, unit: 'kg' }],
      });
    for (const n of neighbours) await prefer(n.token, 1);
    await settleDemandHouseholds(rig.databaseUrl);
    await recordDemandHistory(
      rig.databaseUrl,
      'tomato',
      'NL/amsterdam',
      [9, 9.5, 9.2, 10, 9.8, 10.4].map((demandKg, week) => ({ weekStart: mondayWeeksAgo(7 - week), demandKg })),
    );
    await call(rig, manager.token, 'POST', '/api/demand/signal', {
      region: { country: 'NL', city: 'Amsterdam' },
      from: mondayWeeksAgo(1),
      horizonWeeks: 1,
    });

    await page.getByRole('link', { name: 'Signals and forecasts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Signals and forecasts' }).waitFor();
    const signal = page.getByRole('region', { name: 'Demand in a region' });
    await signal.getByLabel('Country code').fill('NL');
    await signal.getByLabel('City (optional)').fill('Amsterdam');
    await signal.getByRole('button', { name: 'Show demand' }).click();
    await signal.getByText(/^9 households\./).waitFor();
    await signal.getByRole('rowheader', { name: 'tomato' }).waitFor();

    const forecast = page.getByRole('region', { name: 'Demand forecast' });
    await forecast.getByLabel('Crop').selectOption('tomato');
    await forecast.getByLabel('Region').fill('NL/amsterdam');
    await forecast.getByRole('button', { name: 'Forecast' }).click();
    await forecast.getByText(/^Holt’s linear smoothing over \d+ weeks of history\./).waitFor();
    const chart = forecast.getByRole('figure', { name: 'tomato in NL/amsterdam: weekly demand (kg)' });
    expect(Number(await chart.getByRole('img').getAttribute('data-points'))).toBeGreaterThanOrEqual(11);
    expect(await chart.getByRole('img').getAttribute('aria-label')).toMatch(/95 % interval [\d.]+ to [\d.]+ kg/);
    await chart.getByText('Show the data').click();
    await chart.getByRole('columnheader', { name: '95 % interval' }).waitFor();
    await forecast.getByText(/one-week-ahead forecasts scored: MAPE [\d.]+ %, MASE [\d.]+/).waitFor();

    const recommend = page.getByRole('region', { name: 'What to plant' });
    await recommend.getByLabel('Latitude').fill('52.35');
    await recommend.getByLabel('Longitude').fill('4.92');
    await recommend.getByLabel('Area (m²)').fill('20');
    await recommend.getByLabel('Growing method').selectOption('greenhouse');
    await recommend.getByRole('button', { name: 'Recommend crops' }).click();
    await recommend.getByRole('cell', { name: '1', exact: true }).waitFor();
    // A greenhouse sows something every month: the list starts with a crop that can be sown now.
    expect(await recommend.getByRole('row').nth(1).textContent()).not.toContain('not sowable now');
    await expectAccessible(page);
    await screenshot(page, 'demand-forecast');
  }, 180_000);

  it('commits supply and matches it with the households nearby', async () => {
    await page.getByRole('link', { name: 'Supply' }).click();
    await page.getByRole('heading', { level: 1, name: 'Supply and matches' }).waitFor();
    await page.getByLabel('Crop').first().selectOption('tomato');
    await page.getByLabel('Quantity').fill('30');
    await page.getByLabel('Price per unit (EUR)').fill('3');
    await page.getByLabel('Latitude').fill('52.37');
    await page.getByLabel('Longitude').fill('4.95');
    const mine = page.getByRole('region', { name: 'My commitments' });
    await mine.getByText('You have committed no supply yet.').waitFor();
    await page.getByRole('button', { name: 'Commit the supply' }).click();
    await page.getByText('Committed 30 kg of tomato.').waitFor();
    // The new commitment joins the list at once, not matched yet.
    const commitment = mine.getByRole('article', { name: 'tomato, 30 kg' });
    await commitment.getByText('No household matched yet.').waitFor();
    await commitment.getByText('0 of 30 kg', { exact: true }).waitFor();
    const match = page.getByRole('region', { name: 'Match my supply' });
    await match.getByRole('button', { name: 'Find matches' }).click();
    await match.getByText(/^\d+ matches, \d+ new\./).waitFor();
    // The eight neighbours want tomatoes at any price: each is matched, and shown to the grower by the match only,
    // its distance as a 5 km band.
    expect(await match.getByRole('cell', { name: 'hidden' }).count()).toBe(8);
    expect(await match.getByRole('cell', { name: /^within \d+ km$/ }).count()).toBe(8);
    await expect.poll(() => commitment.getByRole('cell', { name: 'hidden' }).count(), { timeout: 20_000 }).toBe(8);
    await expectAccessible(page);
    await screenshot(page, 'demand-supply');

    // The commitments and their matches come from the API: a reload shows them again.
    const committed = (await call(rig, manager.token, 'GET', '/api/demand/supply')) as unknown as {
      matchedKg: number;
    }[];
    expect(committed).toHaveLength(1);
    expect(committed[0]!.matchedKg).toBeGreaterThan(0);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Supply and matches' }).waitFor();
    await expect.poll(() => commitment.getByRole('cell', { name: 'hidden' }).count(), { timeout: 20_000 }).toBe(8);
    await commitment.getByText(/^[\d.,]+ of 30 kg$/).waitFor();
    expect(await commitment.getByText('0 of 30 kg', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Match my supply' }).getByRole('cell').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'demand-supply-list');
  }, 180_000);
});
