import type { Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  emailedLink,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  startBrowserRig,
} from './support/browser.js';

const GROWER = { name: 'Ada Grower', email: `ada-${Date.now()}@example.org`, password: 'correct horse battery staple' };

async function pickOnMap(page: Page, name: string, x = 200, y = 120): Promise<void> {
  await page.getByRole('region', { name }).click({ position: { x, y } });
}

describe('a grower, in the browser: sign up, register on the map, propagate, journey, lineage, certificate', () => {
  let rig: BrowserRig;
  let page: Page;
  let plantUrl: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    page = await (await rig.context()).newPage();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it('signs up and lands signed in on the account page', async () => {
    await page.goto('/signup');
    await page.getByLabel('Your name').fill(GROWER.name);
    await page.getByLabel('Email').fill(GROWER.email);
    await page.getByLabel('Password').fill(GROWER.password);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    expect(await page.getByText(`Signed in as ${GROWER.name} (${GROWER.email})`).count()).toBe(1);
    await screenshot(page, 'account');
  });

  it('creates an API token with chosen permissions, sees it once, and revokes it', async () => {
    await page.getByLabel('Token name').fill('greenhouse sensor');
    await page.getByRole('checkbox', { name: 'plants:read' }).check();
    await page.getByRole('checkbox', { name: 'environment:write' }).check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByLabel('New token').inputValue();
    expect(token).toMatch(/^rlpat_/);
    const network = () => fetch(`${rig.base}/api/plants/network`, { headers: { authorization: `Bearer ${token}` } });
    expect((await network()).status).toBe(200);
    await expect.poll(() => page.getByRole('cell', { name: /environment:write/ }).count()).toBe(1);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Revoke greenhouse sensor' }).click();
    await page.getByText('You have no API tokens.').waitFor();
    expect(
      (await fetch(`${rig.base}/api/auth/session`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(401);
  });

  it('registers a plant at a place found by name, misspelt, chosen with the keyboard', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Register a plant' }).click();
    await page.getByLabel('Common name').fill('Cherry tomato');
    await page.getByLabel('Scientific name (optional)').fill('Solanum lycopersicum');
    await pickOnMap(page, 'Map: click to pick the location', 330, 110);
    expect(Number(await page.getByLabel('Latitude').inputValue())).not.toBeNaN();
    // The map's point, then the place found by name, as a grower who knows the town but not its coordinates would.
    const search = page.getByLabel('Find a place');
    await search.fill('a');
    await page.getByRole('status').filter({ hasText: 'Type at least 2 letters.' }).waitFor();
    await search.fill('amsterdm');
    // Both Amsterdams, announced with their number; the larger first.
    await page.getByRole('status').filter({ hasText: '2 places found' }).waitFor({ timeout: 15_000 });
    const results = page.getByRole('listbox', { name: 'Places found' }).getByRole('option');
    expect((await results.allTextContents()).map((t) => t.split(' · ')[0])).toEqual([
      'Amsterdam, Netherlands',
      'Amsterdam, United States',
    ]);
    await page.getByLabel('Privacy of the location').selectOption('exact');
    expect(await page.getByText('Everyone sees the exact point you give.').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'register-plant');
    // Enter in the box goes to the places found rather than sending the form; the focus stays in the box.
    await search.press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await results.first().getAttribute('aria-selected')).toBe('true');
    expect(await search.getAttribute('aria-activedescendant')).toBe(await results.first().getAttribute('id'));
    await page.keyboard.press('Enter');

    await page.getByRole('status').filter({ hasText: 'Amsterdam, Netherlands chosen' }).waitFor();
    expect(await page.getByRole('listbox', { name: 'Places found' }).count()).toBe(0);
    expect(await page.getByLabel('Latitude').inputValue()).toBe('52.37403');
    expect(await page.getByLabel('Longitude').inputValue()).toBe('4.88969');
    expect(await page.getByLabel('City (optional)').inputValue()).toBe('Amsterdam');
    expect(await page.getByLabel('Country code (optional)').inputValue()).toBe('NL');
    const map = page.getByRole('region', { name: 'Map: click to pick the location' });
    expect(await map.getAttribute('data-markers')).toBe('1');
    await screenshot(page, 'register-plant-place-chosen');
    await page.getByRole('button', { name: 'Register the plant' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cherry tomato' }).waitFor({ timeout: 60_000 });
    plantUrl = new URL(page.url()).pathname;
    expect(plantUrl).toMatch(/^\/plants\/plt_/);
    expect(await page.getByText('Amsterdam, NL · 52.3740, 4.8897').count()).toBe(1);
  });

  it('adds a photo to the plant and sees its thumbnail', async () => {
    const photos = page.getByRole('region', { name: 'Photos' });
    await photos.getByText('No photos yet.').waitFor();
    // Any real image will do: a PNG drawn here.
    const png = await QRCode.toBuffer('a photo of a cherry tomato', { width: 400 });
    await photos.getByLabel('Add a photo').setInputFiles({ name: 'tomato.png', mimeType: 'image/png', buffer: png });
    const thumbnail = photos.getByRole('img', { name: 'Photo of Cherry tomato', exact: true });
    await thumbnail.waitFor({ timeout: 30_000 });
    // The browser picks the 300 px thumbnail for the 180 px tile from the srcset.
    await expect
      .poll(() => thumbnail.evaluate((img: unknown) => (img as { currentSrc: string }).currentSrc))
      .toMatch(/thumb-300\.webp/);
  });

  it('propagates it twice from its page', async () => {
    for (const type of ['cutting', 'seed'] as const) {
      await page.getByLabel('Propagation type').selectOption(type);
      await page.getByRole('button', { name: 'Record the offspring' }).click();
      await page.getByText('Offspring recorded:').waitFor({ timeout: 60_000 });
      await page.goto(plantUrl);
      await page.getByRole('heading', { level: 1, name: 'Cherry tomato' }).waitFor();
    }
    await page.getByRole('tab', { name: 'Lineage' }).click();
    const graph = page.getByRole('region', { name: 'Lineage graph' });
    await expect.poll(() => graph.getAttribute('data-nodes')).toBe('3');
    expect(await graph.getAttribute('data-edges')).toBe('2');
    expect(await graph.getByText('cutting').count()).toBe(1);
    expect(await graph.getByText('seed').count()).toBe(1);
  });

  it('records a journey event and sees it on the timeline and the map with distance and CO2e', async () => {
    await page.getByRole('tab', { name: 'Journey' }).click();
    const form = page.getByRole('region', { name: 'Record a journey event' });
    await form.getByLabel('What happened').selectOption('distribution');
    await form.getByLabel('Transport').selectOption('electric-van');
    await form.getByLabel('Mass carried in kg (optional)').fill('20');
    const to = form.getByRole('group', { name: 'Where to' });
    await to.getByLabel('Latitude').fill('52.1601');
    await to.getByLabel('Longitude').fill('4.4970');
    await to.getByLabel('City (optional)').fill('Leiden');
    await form.getByRole('button', { name: 'Record the event' }).click();
    await form.getByText('Event recorded on the ledger.').waitFor({ timeout: 60_000 });
    const journey = page.getByRole('region', { name: 'Journey' });
    await journey.getByText(/1 event · [\d.,]+ km · [\d.,]+ kg CO2e in all/).waitFor();
    expect(await journey.getByRole('listitem').first().textContent()).toContain('to Leiden, NL by electric van');
    const map = journey.getByRole('region', { name: 'Map of the journey: one line per leg' });
    await expect.poll(() => map.getAttribute('data-lines')).toBe('1');
    expect(await map.locator('path.leaflet-interactive').count()).toBeGreaterThanOrEqual(2);
  });

  it('shows the lineage graph drawn and moves through the family by clicking', async () => {
    await page.getByRole('tab', { name: 'Lineage' }).click();
    const graph = page.getByRole('region', { name: 'Lineage graph' });
    await graph.locator('.react-flow__node').first().waitFor();
    expect(await graph.locator('.react-flow__edge').count()).toBe(2);
    await expectAccessible(page);
    await screenshot(page, 'plant-page');
    await graph.locator('.react-flow__node', { hasText: 'generation 1' }).first().click();
    await expect.poll(() => new URL(page.url()).pathname).not.toBe(plantUrl);
    // The offspring opens on its own lineage, one generation down the same family.
    expect(new URL(page.url()).searchParams.get('tab')).toBe('lineage');
    await page.getByRole('tab', { name: 'Facts' }).click();
    await page.getByText('Parent', { exact: true }).waitFor();
    await page.goto(plantUrl);
  });

  it('verifies the certificate in the browser against the published key, listing every check', async () => {
    await page.getByRole('tab', { name: 'Certificate' }).click();
    const panel = page.getByRole('region', { name: 'Certificate of authenticity' });
    await panel.getByRole('button', { name: 'Verify in this browser' }).click();
    await panel.getByText('Verified: every check passed.').waitFor({ timeout: 30_000 });
    expect(await panel.getByText('passed', { exact: true }).count()).toBe(5);
    expect(await panel.getByText('failed', { exact: true }).count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download the PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^rootline-certificate-plt_.+\.pdf$/);
    expect(await page.getByRole('img', { name: 'QR code of the plant’s verification page' }).count()).toBe(1);
    await screenshot(page, 'plant-certificate');
  });

  it('lists the three plants under my plants, and finds them by search', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My plants' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Cherry tomato' }).count()).toBe(3);
    await expectAccessible(page);
    await screenshot(page, 'my-plants');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discover' }).click();
    await page.getByLabel('Name, place or owner').fill('cherry');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('3 found').waitFor();
    await expectAccessible(page);
  });

  it('confirms the email address from the link in the email, on an app page', async () => {
    const link = await emailedLink(rig.dataDir, GROWER.email, '/verify-email');
    expect(new URL(link).origin).toBe(rig.base);
    await page.goto(link);
    await page.getByText('Your email address is confirmed.').waitFor();
    await expectAccessible(page);
  });

  it('signs out, resets the password from the emailed link, and signs in with the new one', async () => {
    await page.goto('/account');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).waitFor();
    // Signed out, a page of one's own sends to sign in, and back there afterwards.
    await page.goto('/plants/mine');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/plants/mine');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(GROWER.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(/a link is on its way/).waitFor();
    await page.goto(await emailedLink(rig.dataDir, GROWER.email, '/reset-password'));
    const fresh = 'a brand new passphrase 2';
    await page.getByLabel('New password').fill(fresh);
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByText('Your password is changed.').waitFor();
    await expectAccessible(page);
    await page.goto('/signin');
    await page.getByLabel('Email').fill(GROWER.email);
    await page.getByLabel('Password').fill(fresh);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
    // Eight pages, two emails and three password hashes: more than one step's time when the machine is busy.
  }, 90_000);
});
