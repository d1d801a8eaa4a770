import { signInOverHttp, TEST_ADMIN } from '@rootline/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountMenu,
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  startBrowserRig,
} from './support/browser.js';

// Administration and a plant's environment in the browser: an administrator changes a person's role while that
// person has pages open in another browser, controls the background agents and reads the components' health; a
// grower updates a plant's environment, finds similar plants, compares two, and reads the network analysis.

const stamp = Date.now();
const UMA = { name: 'Uma Example', email: `uma-${stamp}@example.org`, password: 'a role that changes twice' };
const OTTO = { name: 'Otto Other', email: `otto-${stamp}@example.org`, password: 'another grower entirely' };
const AMSTERDAM = { latitude: 52.37, longitude: 4.9 };
const LISBON = { latitude: 38.72, longitude: -9.14 };

async function register(rig: BrowserRig, person: { name: string; email: string; password: string }) {
  const res = await fetch(`${rig.base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(person),
  });
  expect(res.status).toBe(201);
  const token = await signInOverHttp(rig.base, person.email, person.password);
  const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
  return { token, id: session.user.id };
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
}

describe('administration and environment, in the browser', () => {
  let rig: BrowserRig;
  let adminContext: BrowserContext;
  let admin: Page;
  let uma: Page;
  let umaAccount: { token: string; id: string };
  let otto: { token: string; id: string };
  const plants: Record<string, string> = {};

  async function plant(
    owner: { token: string; id: string },
    name: string,
    commonName: string,
    scientificName: string,
    location = AMSTERDAM,
  ) {
    const p = await call(rig, owner.token, 'POST', '/api/plants/register', {
      commonName,
      scientificName,
      location,
      owner: { id: owner.id, name },
    });
    return String(p.id);
  }

  beforeAll(async () => {
    rig = await startBrowserRig();
    umaAccount = await register(rig, UMA);
    otto = await register(rig, OTTO);
    // Enough accounts for a second page of the list.
    for (let i = 0; i < 20; i++) {
      await fetch(`${rig.base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Filler ${i}`,
          email: `filler-${i}-${stamp}@example.org`,
          password: UMA.password,
        }),
      });
    }
    // Uma's basil, and an offspring 1,800 km away: the lineage agent's "distant offspring".
    plants.basil = await plant(umaAccount, UMA.name, 'Balcony basil', 'Ocimum basilicum');
    await call(rig, umaAccount.token, 'POST', '/api/plants/clone', {
      parentPlantId: plants.basil,
      propagationType: 'cutting',
      newPlant: { location: LISBON, owner: { id: umaAccount.id, name: UMA.name } },
    });
    // A trip by car with no load (the tracker's "empty run") and a delivery by cargo bike (a saving).
    const journey = (mode: string, massKg?: number) =>
      call(rig, umaAccount.token, 'POST', '/api/transport/distribution', {
        plantId: plants.basil,
        eventTime: new Date().toISOString(),
        from: AMSTERDAM,
        to: { latitude: 52.16, longitude: 4.49 },
        transportMode: mode,
        ...(massKg ? { massKg } : {}),
      });
    await journey('car');
    await journey('cargo-bike', 20);
    // Otto's plants: one grown much like Uma's basil will be, one not at all.
    plants.greenhouse = await plant(otto, OTTO.name, 'Greenhouse basil', 'Ocimum basilicum');
    await call(rig, otto.token, 'POST', '/api/environment/records', {
      plantId: plants.greenhouse,
      soil: { type: 'loam', ph: 6.6 },
      climate: { temperatureC: 22, humidityPercent: 60 },
      lighting: { hoursPerDay: 14 },
      location: { setting: 'indoor' },
    });
    plants.cactus = await plant(otto, OTTO.name, 'Desert cactus', 'Carnegiea gigantea');
    await call(rig, otto.token, 'POST', '/api/environment/records', {
      plantId: plants.cactus,
      soil: { type: 'sand', ph: 8.2 },
      climate: { temperatureC: 38, humidityPercent: 10 },
      lighting: { hoursPerDay: 12 },
      location: { setting: 'outdoor' },
    });
    // Six thymes where warmth goes with the grower's rating: the analysis finds it.
    for (let i = 0; i < 6; i++) {
      const id = await plant(otto, OTTO.name, `Thyme ${i + 1}`, 'Thymus vulgaris');
      await call(rig, otto.token, 'POST', '/api/environment/records', {
        plantId: id,
        climate: { temperatureC: 16 + 2 * i, humidityPercent: [40, 70, 55, 45, 65, 50][i] },
        growth: { healthScore: 50 + 8 * i + (i % 2) },
      });
    }

    adminContext = await rig.context();
    admin = await adminContext.newPage();
    await signIn(admin, TEST_ADMIN.email, TEST_ADMIN.password);
    uma = await (await rig.context()).newPage();
    await signIn(uma, UMA.email, UMA.password);
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  it('tells a person without the ADMIN role that the pages are for administrators, and where to go', async () => {
    await uma.goto('/admin/users');
    await uma.getByRole('heading', { level: 1, name: 'Administrators only' }).waitFor();
    expect(await uma.getByText('You are signed in as a user, so they are not open to you.').count()).toBe(1);
    expect(await mainNav(uma).getByRole('link', { name: 'Administration' }).count()).toBe(0);
    expect(await (await accountMenu(uma)).getByRole('menuitem', { name: 'Administration' }).count()).toBe(0);
    await uma.keyboard.press('Escape');
    await expectAccessible(uma);
    await screenshot(uma, 'admin-only');
  });

  it('lists accounts a page at a time and finds one by its email address', async () => {
    await (await accountMenu(admin)).getByRole('menuitem', { name: 'Administration' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Users and roles' }).waitFor();
    await admin.getByText('Page 1 of 2').waitFor();
    expect(await admin.getByRole('table').getByRole('row').count()).toBe(21);
    await admin.getByRole('button', { name: 'Next page' }).click();
    await admin.getByText('Page 2 of 2').waitFor();
    await expectAccessible(admin);
    await admin.getByLabel('Search by email or name').fill(UMA.email.toUpperCase());
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByText('1 account', { exact: true }).waitFor();
    expect(await admin.getByRole('row', { name: new RegExp(UMA.name) }).count()).toBe(1);
  });

  it('shows the API’s refusal to demote the last administrator', async () => {
    await admin.getByLabel('Search by email or name').fill(TEST_ADMIN.email);
    await admin.getByRole('button', { name: 'Search' }).click();
    const row = admin.getByRole('row', { name: new RegExp(TEST_ADMIN.email) });
    await row.waitFor();
    await row.getByRole('combobox').selectOption('USER');
    await row.getByRole('button', { name: /^Change role of/ }).click();
    // Worded by its reason (LAST_ADMIN), in the reader's language.
    await row
      .getByRole('alert')
      .getByText('The last administrator cannot be demoted: make another account administrator first.')
      .waitFor();
  });

  it('changes a user’s role, and the user’s open pages follow: the account’s role and the Administration link', async () => {
    await uma.goto('/account');
    await uma.getByText('Your role: user').waitFor();
    await uma.locator('header').getByText('Live', { exact: true }).waitFor();

    await admin.getByLabel('Search by email or name').fill(UMA.email);
    await admin.getByRole('button', { name: 'Search' }).click();
    const row = admin.getByRole('row', { name: new RegExp(UMA.name) });
    await row.waitFor();
    await admin.getByLabel(`Role of ${UMA.name}`, { exact: true }).selectOption('ADMIN');
    await admin.getByRole('button', { name: `Change role of ${UMA.name}` }).click();
    await row.getByText(`${UMA.name} is now administrator.`).waitFor();
    await screenshot(admin, 'admin-users');

    await uma.getByText('Your role: administrator').waitFor({ timeout: 30_000 });
    const link = (await accountMenu(uma)).getByRole('menuitem', { name: 'Administration' });
    await link.waitFor();
    await link.click();
    await uma.getByRole('heading', { level: 1, name: 'Users and roles' }).waitFor();

    // Back to grower: the open administration page closes itself and the link goes away.
    await admin.getByLabel(`Role of ${UMA.name}`, { exact: true }).selectOption('GROWER');
    await admin.getByRole('button', { name: `Change role of ${UMA.name}` }).click();
    await uma.getByRole('heading', { level: 1, name: 'Administrators only' }).waitFor({ timeout: 30_000 });
    await uma.getByText('You are signed in as a grower, so they are not open to you.').waitFor();
    await expect
      .poll(async () => {
        const items = await (await accountMenu(uma)).getByRole('menuitem', { name: 'Administration' }).count();
        await uma.keyboard.press('Escape');
        return items;
      })
      .toBe(0);
  });

  it('starts, pauses and stops the lineage agent and shows what its scan found', async () => {
    await admin.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Agents' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    const lineage = admin.getByRole('region', { name: 'Lineage agent' });
    await lineage.getByText('State: stopped').waitFor();
    await expectAccessible(admin);
    await lineage.getByRole('button', { name: 'Start: lineage agent' }).click();
    await lineage.getByText('State: running').waitFor();
    await lineage.getByRole('cell', { name: 'Offspring far from its parent' }).waitFor({ timeout: 30_000 });
    await lineage.getByLabel('Kind').selectOption('orphaned-parent');
    await lineage.getByText('No anomalies:', { exact: false }).waitFor();
    await lineage.getByLabel('Kind').selectOption('');
    await lineage.getByRole('button', { name: 'Pause: lineage agent' }).click();
    await lineage.getByText('State: paused').waitFor();
    expect(await lineage.getByRole('button', { name: 'Start: lineage agent' }).count()).toBe(0);
    await lineage.getByRole('button', { name: 'Stop: lineage agent' }).click();
    await lineage.getByText('State: stopped').waitFor();
  });

  it('runs the transport tracker once, then starts and pauses it, with its findings and the carbon saved', {
    timeout: 90_000,
  }, async () => {
    const tracker = admin.getByRole('region', { name: 'Transport tracker' });
    await tracker.getByText('State: stopped').waitFor();
    await tracker.getByRole('button', { name: 'Run now: transport tracker' }).click();
    await tracker.getByRole('cell', { name: 'Empty run' }).waitFor({ timeout: 45_000 });
    await tracker.getByText('State: stopped').waitFor();
    await tracker.getByRole('button', { name: 'Start: transport tracker' }).click();
    await tracker.getByText('State: running').waitFor();
    await tracker.getByRole('button', { name: 'Pause: transport tracker' }).click();
    await tracker.getByText('State: paused').waitFor();
    await tracker.getByRole('button', { name: 'Resume: transport tracker' }).waitFor();
    await tracker.getByText('Carbon saved against conventional logistics').waitFor();
    // The empty car trip emitted more than the bike's 20 kg would have conventionally: no saving, said in words.
    await tracker.getByText(/^No saving yet: these deliveries emitted 2\.7\d kg CO2e more/).waitFor();
    await expectAccessible(admin);
    await screenshot(admin, 'admin-agents');
  });

  it('shows each component ready', async () => {
    await admin
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Component health' })
      .click();
    await admin.getByRole('heading', { level: 1, name: 'Component health' }).waitFor();
    await admin.getByRole('heading', { level: 2, name: 'Every component is ready.' }).waitFor({ timeout: 30_000 });
    const readiness = admin.getByRole('region', { name: 'Every component is ready.' });
    for (const service of ['plants', 'environment', 'transport', 'chain-miner']) {
      const row = readiness.getByRole('row', { name: new RegExp(`^${service}\\b`) });
      expect(await row.getByText('ready', { exact: true }).count(), service).toBe(1);
    }
    // Beside it, each service as discovery finds it, and the platform's shared parts.
    const services = admin.getByRole('region', { name: 'Services as discovery finds them' });
    await services.getByText('Overall: ok').waitFor({ timeout: 30_000 });
    for (const service of ['plants', 'environment', 'transport', 'chain-miner', 'transparency']) {
      const cells = await services
        .getByRole('row', { name: new RegExp(`^${service}\\b`) })
        .getByRole('cell')
        .allInnerTexts();
      expect(cells[0], service).toBe('ok');
      expect(Number(cells[1]), service).toBeGreaterThanOrEqual(1);
      expect(cells[2], service).toMatch(/^[\d.,]+ ms$/);
    }
    await services.getByText(/instances answered discovery in [\d.,]+ ms/).waitFor();
    await services.getByText('Audit log delay').waitFor();
    await expectAccessible(admin);
    await screenshot(admin, 'admin-health');
  });

  it('updates a plant’s environment, refused values shown at their field, and reads it back', {
    timeout: 90_000,
  }, async () => {
    await uma.goto(`/plants/${plants.basil}`);
    await uma.getByRole('tab', { name: 'Environment' }).click();
    await uma.getByRole('link', { name: 'Environment in detail, similar plants and comparison' }).click();
    await uma.getByRole('heading', { level: 1, name: 'Environment of Balcony basil' }).waitFor();
    await uma.getByText('Nothing recorded yet.').waitFor({ timeout: 10_000 });
    await uma.getByLabel('Soil type').selectOption('loam');
    await uma.getByLabel('Soil pH').fill('6.4');
    await uma.getByLabel('Temperature (°C)').fill('23');
    await uma.getByLabel('Relative humidity (%)').fill('58');
    await uma.getByLabel('Hardiness zone (USDA 1–13, a or b)').fill('14z');
    await uma.getByLabel('Light per day (hours)').fill('14');
    await uma.getByLabel('Setting').selectOption('indoor');
    await uma.getByLabel('Volume (L)').fill('5');
    await expectAccessible(uma);
    await uma.getByRole('button', { name: 'Save the environment' }).click();
    const zone = uma.getByLabel('Hardiness zone (USDA 1–13, a or b)');
    await expect.poll(() => zone.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    await zone.fill('8b');
    await uma.getByRole('button', { name: 'Save the environment' }).click();
    await uma.getByText('Saved: soil, lighting, climate, growing location, container.').waitFor({ timeout: 20_000 });
    await screenshot(uma, 'environment-edit');

    await uma.reload();
    await uma.getByRole('heading', { level: 1, name: 'Environment of Balcony basil' }).waitFor();
    expect(await uma.getByLabel('Temperature (°C)').inputValue()).toBe('23');
    expect(await uma.getByLabel('Hardiness zone (USDA 1–13, a or b)').inputValue()).toBe('8b');
    const current = uma.getByRole('region', { name: 'Current environment' });
    await current.getByText('23 °C').waitFor();
    await current.getByText('5 L').waitFor();
    expect(await uma.getByRole('region', { name: 'Records' }).getByRole('listitem').count()).toBe(1);
    // Only what changed is sent: one category, the others stay as they were.
    await uma.getByLabel('Relative humidity (%)').fill('61');
    await uma.getByRole('button', { name: 'Save the environment' }).click();
    await uma.getByText('Saved: climate.').waitFor();
    await current.getByText('61 %').waitFor();
    await current.getByText('5 L').waitFor();
    await expect.poll(() => uma.getByRole('region', { name: 'Records' }).getByRole('listitem').count()).toBe(2);
  });

  it('lists plants in similar conditions and compares two side by side', async () => {
    const similar = uma.getByRole('region', { name: 'Plants in similar conditions' });
    await similar.getByRole('link', { name: 'Greenhouse basil', exact: true }).waitFor();
    await similar.getByRole('link', { name: 'Desert cactus', exact: true }).waitFor();
    // Most similar first: the basil grown much like Uma's before the cactus.
    const items = await similar.getByRole('listitem').allTextContents();
    const at = (name: string) => items.findIndex((text) => text.startsWith(name));
    expect(at('Greenhouse basil')).toBeGreaterThanOrEqual(0);
    expect(at('Greenhouse basil')).toBeLessThan(at('Desert cactus'));
    const score = (name: string) => Number.parseFloat(items[at(name)]?.match(/([\d.]+) \/ 100 similar/)?.[1] ?? '');
    expect(score('Greenhouse basil')).toBeGreaterThan(score('Desert cactus'));
    await expectAccessible(uma);
    await screenshot(uma, 'environment-similar');
    await similar.getByRole('link', { name: 'Compare with Greenhouse basil' }).click();
    await uma.getByRole('heading', { level: 1, name: 'Compare two plants' }).waitFor();
    await uma.getByText('Overall similarity:').waitFor();
    const climate = uma.getByRole('region', { name: 'Climate' });
    const temperature = climate.getByRole('row', { name: /Temperature/ });
    expect(await temperature.getByRole('cell').allInnerTexts()).toEqual(['23', '22', '-1']);
    expect(await uma.getByLabel('First plant (id)').inputValue()).toBe(plants.basil);
    await expectAccessible(uma);
    await screenshot(uma, 'environment-compare');
  }, 120_000);

  it('lets only the owner record a plant’s environment', async () => {
    await uma.goto(`/plants/${plants.greenhouse}/environment`);
    await uma.getByRole('heading', { level: 1, name: 'Environment of Greenhouse basil' }).waitFor();
    await uma
      .getByText('Only the plant’s owner (or an administrator) can record its environment.', { exact: false })
      .waitFor();
    expect(await uma.getByRole('button', { name: 'Save the environment' }).count()).toBe(0);
    await uma.getByRole('region', { name: 'Current environment' }).getByText('22 °C').waitFor();
  });

  it('reaches both environment pages from the main menu, and reads the network analysis explained', async () => {
    await uma.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Environment' }).click();
    await uma.getByRole('heading', { level: 1, name: 'Compare two plants' }).waitFor();
    expect(new URL(uma.url()).pathname).toBe('/environment/compare');
    const pages = uma.getByRole('navigation', { name: 'Environment pages' });
    expect(await pages.getByRole('link', { name: 'Compare two plants' }).getAttribute('aria-current')).toBe('page');
    await pages.getByRole('link', { name: 'Conditions and growth' }).click();
    await uma.getByRole('heading', { level: 1, name: 'Conditions and growth' }).waitFor();
    expect(new URL(uma.url()).pathname).toBe('/environment/analysis');
    expect(await pages.getByRole('link', { name: 'Conditions and growth' }).getAttribute('aria-current')).toBe('page');
    await uma.getByRole('heading', { level: 2, name: 'How to read this' }).waitFor();
    expect(await uma.getByText(/Benjamini–Hochberg/).count()).toBe(1);
    await uma.getByLabel('Species (scientific name, optional)').fill('thymus vulgaris');
    await uma.getByLabel('Fewest plants per correlation').fill('4');
    await uma.getByRole('button', { name: 'Analyse' }).click();
    const row = uma.getByRole('row', { name: /Temperature \(°C\) Grower’s health rating/ });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells[0]?.toLowerCase()).toBe('thymus vulgaris');
    expect(cells[3]).toBe('6');
    expect(Number(cells[4])).toBeGreaterThan(0.9);
    expect(cells[8]).toBe('yes');
    await expectAccessible(uma);
    await screenshot(uma, 'environment-analysis');
  });

  it('is usable at phone width: no page scrolls sideways', async () => {
    const phone = { width: 390, height: 844 };
    const umaPhone = await (await rig.context(phone)).newPage();
    await signIn(umaPhone, UMA.email, UMA.password);
    const adminPhone = await adminContext.newPage();
    await adminPhone.setViewportSize(phone);
    const pages: [Page, string, string][] = [
      [umaPhone, `/plants/${plants.basil}/environment`, 'Environment of Balcony basil'],
      [umaPhone, `/environment/compare?a=${plants.basil}&b=${plants.cactus}`, 'Compare two plants'],
      [umaPhone, '/environment/analysis', 'Conditions and growth'],
      [adminPhone, '/admin/users', 'Users and roles'],
      [adminPhone, '/admin/agents', 'Agents'],
      [adminPhone, '/admin/health', 'Component health'],
    ];
    for (const [page, path, title] of pages) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await expect.poll(() => page.getByText('Loading…').count(), { timeout: 20_000 }).toBe(0);
      // The page itself never scrolls sideways (a wide table may, inside its own scrolling box); a failure names
      // what sticks out, by tag and class.
      const overflow = await page.evaluate((limit) => {
        // The browser's globals, typed here: the tests compile without the DOM library.
        type Box = {
          tagName: string;
          className: string;
          parentElement: Box | null;
          getBoundingClientRect(): { right: number };
        };
        const w = globalThis as unknown as {
          document: { documentElement: { scrollWidth: number }; querySelectorAll(s: string): ArrayLike<Box> };
          getComputedStyle(el: Box): { overflowX: string };
        };
        const scrolls = (el: Box | null): boolean =>
          !!el && (['auto', 'scroll'].includes(w.getComputedStyle(el).overflowX) || scrolls(el.parentElement));
        const out = Array.from(w.document.querySelectorAll('body *'))
          .filter((el) => el.getBoundingClientRect().right > limit + 1 && !scrolls(el.parentElement))
          .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);
        return { width: w.document.documentElement.scrollWidth, out: out.slice(0, 8) };
      }, phone.width);
      expect(overflow, path).toEqual({ width: phone.width, out: [] });
      await expectAccessible(page);
      await screenshot(page, `phone-${title.toLowerCase().replace(/\W+/g, '-')}`);
    }
    await adminPhone.goto('/admin/agents');
    await adminPhone.getByRole('region', { name: 'Transport tracker' }).getByText('State: paused').waitFor();
    await screenshot(adminPhone, 'admin-agents-phone');
  }, 180_000);
});
