import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

// The CSV import in the browser: a grower chooses a file of seed lots whose headers are not the API's, maps them,
// checks the file (the dry run lists each bad row's problem by its line and writes nothing), imports it and sees the
// lots in the inventory, then exports them. Every state is checked with axe.

const stamp = Date.now();
const IRIS = { name: 'Iris Importer', email: `iris-import-${stamp}@example.org`, password: 'a spreadsheet of seed' };
const OTTO = { name: 'Otto Other', email: `otto-import-${stamp}@example.org`, password: 'nothing imported yet' };

const CSV = [
  'Ref,Crop,Year,Amount,quantityUnit,Where',
  'r1,Tomato,2024,120,seeds,cellar',
  'r2,Bean,next year,50,grams,shed',
  'r3,Pea,2025,-4,seeds,shed',
  'r4,Carrot,2025,200,seeds,fridge',
].join('\n');

describe('CSV import, in the browser', () => {
  let rig: BrowserRig;
  let page: Page;

  beforeAll(async () => {
    rig = await startBrowserRig();
    const res = await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(IRIS),
    });
    expect(res.status).toBe(201);
    const other = await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(OTTO),
    });
    expect(other.status).toBe(201);
    page = await (await rig.context()).newPage();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  }, 120_000);

  it('maps the file’s columns, reports each bad row by its line in a dry run, then imports the good rows', async () => {
    await signIn(page, IRIS, 'My plants');
    await page.goto('/seed-lots');
    await page.getByRole('heading', { level: 1, name: 'Seed lots' }).waitFor();
    await page.getByRole('link', { name: 'Import from CSV' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import from a CSV file' }).waitFor();
    await expectAccessible(page);

    const form = page.getByRole('form', { name: 'Import from a CSV file' });
    await form.getByLabel('Seed lots').check();
    await form
      .getByLabel('CSV file')
      .setInputFiles({ name: 'my-seeds.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    // The file's own headers are offered; one named like a field is read as it already.
    await form.getByLabel('Column: quantityUnit').waitFor();
    expect(await form.getByLabel('Column: quantityUnit').inputValue()).toBe('quantityUnit');
    await form.getByLabel('Column: Ref').selectOption('key');
    await form.getByLabel('Column: Crop').selectOption('crop');
    await form.getByLabel('Column: Year').selectOption('harvestYear');
    await form.getByLabel('Column: Amount').selectOption('quantityAmount');
    await form.getByLabel('Column: Where').selectOption('storagePlace');
    await form.getByRole('button', { name: 'Check the file' }).click();

    await page.getByRole('heading', { name: 'Finished' }).waitFor();
    await page.getByText('Check only: nothing was written.').waitFor();
    const report = page.getByRole('table', { name: 'Problems by line' });
    const rows = report.getByRole('row');
    await rows.nth(2).waitFor();
    expect(await rows.nth(1).getByRole('cell').allTextContents()).toEqual(['3', 'Year', 'harvestYear is not a number']);
    expect(await rows.nth(2).getByRole('cell').allTextContents()).toEqual([
      '4',
      'Amount',
      'quantityAmount is out of range',
    ]);
    expect(await page.getByRole('definition').allTextContents()).toEqual(['2', '0', '2']);
    await expectAccessible(page);
    await screenshot(page, 'import-dry-run');

    await page.goto('/seed-lots');
    await page.getByText('No seed lots yet.').waitFor();
    await page.getByRole('link', { name: 'Import from CSV' }).click();
    const again = page.getByRole('form', { name: 'Import from a CSV file' });
    await again
      .getByLabel('CSV file')
      .setInputFiles({ name: 'my-seeds.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await again.getByLabel('Column: Ref').selectOption('key');
    await again.getByLabel('Column: Crop').selectOption('crop');
    await again.getByLabel('Column: Year').selectOption('harvestYear');
    await again.getByLabel('Column: Amount').selectOption('quantityAmount');
    await again.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Finished' }).waitFor();
    expect(await page.getByRole('term').first().textContent()).toBe('Created');
    expect(await page.getByRole('definition').allTextContents()).toEqual(['2', '0', '2']);
    await expectAccessible(page);
    await screenshot(page, 'import-done');

    await page.goto('/seed-lots');
    const table = page.getByRole('region', { name: 'Seed lots' }).getByRole('table');
    await table.getByRole('row', { name: /Carrot/ }).waitFor();
    await table.getByRole('row', { name: /Tomato/ }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export as CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('rootline-seed-lots.csv');
    await page.getByText('Downloaded rootline-seed-lots.csv.').waitFor();
  });

  it('lists the earlier imports newest first, each with its counts and a link to its report; nobody else’s', async () => {
    await page.goto('/imports');
    const earlier = page.getByRole('region', { name: 'Earlier imports' }).getByRole('table');
    const rows = earlier.getByRole('row');
    await rows.nth(2).waitFor();
    expect(await rows.count()).toBe(3);
    const cells = async (n: number) => (await rows.nth(n).getByRole('cell').allTextContents()).map((c) => c.trim());
    const [imported, checked] = [await cells(1), await cells(2)];
    expect([imported[0], imported[1], imported[3], imported[4]]).toEqual([
      'my-seeds.csv',
      'Seed lots',
      'Finished',
      '2 created, 0 unchanged, 2 with problems',
    ]);
    expect([checked[0], checked[1], checked[3], checked[4]]).toEqual([
      'my-seeds.csv',
      'Seed lots (check only)',
      'Finished',
      '2 would be created, 0 unchanged, 2 with problems',
    ]);
    await expectAccessible(page);
    await screenshot(page, 'imports-earlier');

    // By state: none failed.
    await page.getByLabel('State').selectOption('failed');
    await page.getByText('No imports yet.').waitFor();
    await page.getByLabel('State').selectOption('');
    await rows.nth(2).waitFor();

    // The check's report, at an address of its own.
    await rows
      .nth(2)
      .getByRole('link', { name: /^Report of my-seeds\.csv, sent / })
      .click();
    await page.waitForURL(/[?&]job=imp_/);
    await page.getByText('Check only: nothing was written.').waitFor();
    const report = page.getByRole('table', { name: 'Problems by line' });
    await report.getByRole('row').nth(2).waitFor();
    expect(await report.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([
      '3',
      'Year',
      'harvestYear is not a number',
    ]);
    await page.reload();
    await page.getByText('Check only: nothing was written.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'imports-earlier-report');

    // Another account's list is its own: empty.
    const other = await (await rig.context()).newPage();
    await signIn(other, OTTO, 'My plants');
    await other.goto('/imports');
    await other.getByRole('region', { name: 'Earlier imports' }).getByText('No imports yet.').waitFor();
    expect(await other.getByText('my-seeds.csv').count()).toBe(0);
  });
});
