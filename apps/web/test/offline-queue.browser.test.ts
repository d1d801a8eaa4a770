import { signInOverHttp } from '@rootline/testing';
import type { BrowserContext, Page } from 'playwright-core';
import QRCode from 'qrcode';
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

// Writes that work offline: a grower in a garden where the signal comes and goes registers a plant, records a
// journey event and a climate reading, and adds a photo without a network. They wait on the device (through a
// reload), are sent in order when the network is back, each stored exactly once; a refused one says why on its
// item; and the writes of one account are neither shown to nor sent by another.

/** A test drives several pages against a cluster on a busy machine. */
const STEP_MS = 240_000;
/** How long the outbox may take to send on its own (it tries every 10 s while writes wait). */
const SEND_MS = 60_000;

const GROWER = { name: 'Gita Gardener', email: `gita-${Date.now()}@example.org`, password: 'signal comes and goes' };
const OTHER = { name: 'Otto Other', email: `otto-${Date.now()}@example.org`, password: 'another person entirely' };
const BASIL = 'Basil';
const KEPT = 'Saved on this device — will be sent when you’re back online.';
/** The writes that go through the outbox, as the browser sends them. */
const WRITES = /\/api\/(plants\/register|transport\/[a-z-]+|environment\/records|upload\/image)$/;

async function register(rig: BrowserRig, who: typeof GROWER): Promise<{ token: string; id: string }> {
  await fetch(`${rig.base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  const token = await signInOverHttp(rig.base, who.email, who.password);
  const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
  return { token, id: session.user.id };
}

/** Reads a list over HTTP (status, data and pagination), for counting what was stored. */
async function list(rig: BrowserRig, token: string, path: string) {
  const res = await fetch(`${rig.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const json = (await res.json()) as { data: unknown[]; pagination?: { total: number } };
  expect(res.status, `${path}: ${JSON.stringify(json)}`).toBe(200);
  return json;
}

describe('writes that work offline: kept on the device, sent in order once, per account', () => {
  let rig: BrowserRig;
  let context: BrowserContext;
  let page: Page;
  let grower: { token: string; id: string };
  let plantId: string;

  /** How many plants named `name` the grower has, through the API. */
  const plantsNamed = async (name: string) =>
    (
      (await list(rig, grower.token, `/api/plants/owned/${grower.id}?limit=100`)).data as { commonName: string }[]
    ).filter((p) => p.commonName === name).length;
  const journeyEvents = async () =>
    (await list(rig, grower.token, `/api/transport/journey/${plantId}?limit=100`)).data.length;
  const readings = async () =>
    (await list(rig, grower.token, `/api/environment/records/${plantId}?limit=10`)).pagination?.total;
  const photos = async () =>
    ((await list(rig, grower.token, `/api/upload/plants/${plantId}`)).data as { kind: string }[]).filter(
      (f) => f.kind === 'image',
    ).length;

  const header = () => page.getByRole('banner');
  const waitingRegion = () => page.getByRole('region', { name: 'Waiting to be sent' });

  /** Opens the plant's page by the links of the app (no page load: the app works on while offline). */
  async function openBasil(): Promise<void> {
    await (await mainMenu(page)).getByRole('link', { name: 'My plants' }).click();
    await page.getByRole('link', { name: BASIL, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: BASIL }).waitFor();
  }

  beforeAll(async () => {
    rig = await startBrowserRig();
    grower = await register(rig, GROWER);
    await register(rig, OTHER);
    const plant = await call(rig, grower.token, 'POST', '/api/plants/register', {
      commonName: BASIL,
      location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
      privacyLevel: 'city',
      owner: { id: grower.id },
    });
    plantId = plant.id as string;
    context = await rig.context();
    page = await context.newPage();
    page.on('pageerror', (err) => console.error('page error:', err));
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'keeps four writes made offline through a reload, and a fifth made after it, then sends them in order, each stored once',
    async () => {
      await signIn(page, GROWER, 'My plants');
      // The pages used offline are opened once while online (the app keeps their code), as a grower would have.
      await (await mainMenu(page)).getByRole('link', { name: 'Register a plant' }).click();
      await page.getByRole('heading', { level: 1, name: 'Register a plant' }).waitFor();
      await openBasil();
      await page.getByRole('tab', { name: 'Journey' }).click();
      await page.getByRole('region', { name: 'Record a journey event' }).waitFor();
      await page.getByRole('tab', { name: 'Environment' }).click();
      await page.getByRole('region', { name: 'Environment and health' }).getByLabel('Temperature (°C)').waitFor();
      await page.getByRole('tab', { name: 'Facts' }).click();
      // The app's service worker keeps its shell: it controls the page before the network goes.
      await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
      await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 30_000 });

      await context.setOffline(true);

      // A photo.
      const photosRegion = page.getByRole('region', { name: 'Photos' });
      const png = await QRCode.toBuffer('basil by the shed', { width: 400 });
      await photosRegion
        .getByLabel('Add a photo')
        .setInputFiles({ name: 'basil.png', mimeType: 'image/png', buffer: png });
      await photosRegion.getByText(KEPT).waitFor({ timeout: 20_000 });

      // A journey event.
      await page.getByRole('tab', { name: 'Journey' }).click();
      const eventForm = page.getByRole('region', { name: 'Record a journey event' });
      await eventForm.getByLabel('What happened').selectOption('distribution');
      const to = eventForm.getByRole('group', { name: 'Where to' });
      await to.getByLabel('Latitude').fill('52.1601');
      await to.getByLabel('Longitude').fill('4.4970');
      await eventForm.getByRole('button', { name: 'Record the event' }).click();
      await eventForm.getByText(KEPT).waitFor({ timeout: 20_000 });
      expect(await eventForm.getByText('Event recorded on the ledger.').count()).toBe(0);

      // A climate reading.
      await page.getByRole('tab', { name: 'Environment' }).click();
      const climate = page.getByRole('region', { name: 'Environment and health' });
      await climate.getByLabel('Temperature (°C)').fill('21');
      await climate.getByLabel('Humidity (%)').fill('60');
      await climate.getByRole('button', { name: 'Save the reading' }).click();
      await climate.getByText(KEPT).waitFor({ timeout: 20_000 });

      // A plant.
      await (await mainMenu(page)).getByRole('link', { name: 'Register a plant' }).click();
      await page.getByLabel('Common name').fill('Tomato');
      await page.getByLabel('Latitude').fill('52.0907');
      await page.getByLabel('Longitude').fill('5.1214');
      await page.getByRole('button', { name: 'Register the plant' }).click();
      await page.getByText(KEPT).waitFor({ timeout: 20_000 });
      // It stays on the form (no plant page to open yet), with no error, ready for the next plant.
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await page.getByLabel('Common name').inputValue()).toBe('');

      // The header counts them; the outbox lists them in words, in the order they were made.
      await header().getByRole('link', { name: '4 items waiting to be sent' }).click();
      await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
      const expected = [
        "Photo of 'Basil' — waiting to be sent",
        "Distribution event for 'Basil' — waiting to be sent",
        "Environment reading for 'Basil' — waiting to be sent",
        "Plant 'Tomato' — waiting to be sent",
      ];
      const lines = async () =>
        (await waitingRegion().getByRole('listitem').allTextContents()).map((t) => t.split(' — ')[0]);
      await expect.poll(lines).toEqual(expected.map((t) => t.split(' — ')[0]));
      for (const line of expected) expect(await waitingRegion().getByText(line).count()).toBe(1);
      expect(
        await waitingRegion()
          .getByText(/^Made /)
          .count(),
      ).toBe(4);
      await page.getByText('This device is offline: they are sent when it is back online.').waitFor();
      await expectAccessible(page);
      await screenshot(page, 'outbox-offline');

      // A reload with the network still cut: the page comes from the service worker, and the same four writes wait.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor({ timeout: 30_000 });
      await expect.poll(lines, { timeout: 20_000 }).toEqual(expected.map((t) => t.split(' — ')[0]));
      await header().getByRole('link', { name: '4 items waiting to be sent' }).waitFor();
      await page.getByText('This device is offline: they are sent when it is back online.').waitFor();
      await screenshot(page, 'outbox-offline-reloaded');
      expect(await plantsNamed('Tomato')).toBe(0);

      // The session cannot be checked, so the person is the one this device last knew, marked offline: the pages
      // that need a session open, and a new plant is kept like the others.
      await header().getByText('Offline', { exact: true }).waitFor({ timeout: 20_000 });
      await header()
        .getByRole('button', { name: /^Account menu.*Gita Gardener/ })
        .waitFor();
      await (await mainMenu(page)).getByRole('link', { name: 'Register a plant' }).click();
      await page.getByRole('heading', { level: 1, name: 'Register a plant' }).waitFor();
      await page.getByLabel('Common name').fill('Parsley');
      await page.getByLabel('Latitude').fill('52.0907');
      await page.getByLabel('Longitude').fill('5.1214');
      await page.getByRole('button', { name: 'Register the plant' }).click();
      await page.getByText(KEPT).waitFor({ timeout: 20_000 });
      await expectAccessible(page);
      await screenshot(page, 'register-offline-reloaded');
      await header().getByRole('link', { name: '5 items waiting to be sent' }).click();
      await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
      expected.push("Plant 'Parsley' — waiting to be sent");
      await expect.poll(lines).toEqual(expected.map((t) => t.split(' — ')[0]));

      // Rootline is back. The plant's first answer is lost on the way (its outcome unknown to the app): it is sent
      // again with the same Idempotency-Key and answered from the first.
      const sent: { path: string; key: string }[] = [];
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (r.method() === 'POST' && WRITES.test(path)) sent.push({ path, key: r.headers()['idempotency-key'] ?? '' });
      });
      await page.route(
        '**/api/plants/register',
        async (route) => {
          await route.fetch();
          await route.abort();
        },
        { times: 1 },
      );
      await context.setOffline(false);
      await waitingRegion()
        .getByText('Nothing is waiting to be sent.')
        .waitFor({ timeout: SEND_MS * 2 });
      expect(
        await header()
          .getByRole('link', { name: /waiting to be sent/ })
          .count(),
      ).toBe(0);
      expect(sent.map((r) => r.path)).toEqual([
        '/api/upload/image',
        '/api/transport/distribution',
        '/api/environment/records',
        '/api/plants/register',
        '/api/plants/register',
        '/api/plants/register',
      ]);
      const [first, again, parsley] = sent.filter((r) => r.path === '/api/plants/register');
      expect(first?.key).toMatch(/^[0-9a-f-]{36}$/);
      expect(again?.key).toBe(first?.key);
      expect(parsley?.key).not.toBe(first?.key);
      // The session was in fact there: the header shows the person without the offline mark.
      expect(await header().getByText('Offline', { exact: true }).count()).toBe(0);

      // Each is stored exactly once.
      expect(await plantsNamed('Tomato')).toBe(1);
      expect(await plantsNamed('Parsley')).toBe(1);
      expect(await journeyEvents()).toBe(1);
      expect(await readings()).toBe(1);
      expect(await photos()).toBe(1);

      // The sent writes link to what they made.
      const sentRegion = page.getByRole('region', { name: 'Sent' });
      await sentRegion.getByText("Plant 'Tomato' — sent").waitFor();
      await expectAccessible(page);
      await screenshot(page, 'outbox-sent');
      await sentRegion.getByRole('link', { name: "Open it: Plant 'Tomato'" }).click();
      await page.getByRole('heading', { level: 1, name: 'Tomato' }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/plants\/plt_/);
    },
    STEP_MS,
  );

  it(
    'shows a refused write on its item in plain words after reconnecting, sends the one after it, and discards it',
    async () => {
      await page.goto(`/plants/${plantId}?tab=environment`);
      const climate = page.getByRole('region', { name: 'Environment and health' });
      await climate.getByLabel('Temperature (°C)').waitFor();
      await page.getByRole('tab', { name: 'Journey' }).click();
      await page.getByRole('region', { name: 'Record a journey event' }).waitFor();
      await page.getByRole('tab', { name: 'Environment' }).click();

      await context.setOffline(true);
      // Out of range (the form does not hold the temperature to a range; Rootline does).
      await climate.getByLabel('Temperature (°C)').fill('80');
      await climate.getByLabel('Humidity (%)').fill('50');
      await climate.getByRole('button', { name: 'Save the reading' }).click();
      await climate.getByText(KEPT).waitFor({ timeout: 20_000 });
      // A second one, to correct later through Edit.
      await climate.getByLabel('Temperature (°C)').fill('85');
      await climate.getByRole('button', { name: 'Save the reading' }).click();
      await header().getByRole('link', { name: '2 items waiting to be sent' }).waitFor({ timeout: 20_000 });
      await page.getByRole('tab', { name: 'Journey' }).click();
      const eventForm = page.getByRole('region', { name: 'Record a journey event' });
      await eventForm.getByLabel('What happened').selectOption('harvest');
      const to = eventForm.getByRole('group', { name: 'Where to' });
      await to.getByLabel('Latitude').fill('52.0907');
      await to.getByLabel('Longitude').fill('5.1214');
      await eventForm.getByRole('button', { name: 'Record the event' }).click();
      await eventForm.getByText(KEPT).waitFor({ timeout: 20_000 });
      await header().getByRole('link', { name: '3 items waiting to be sent' }).waitFor();

      // Back online: the browser's online event sends them.
      await context.setOffline(false);
      await header().getByRole('link', { name: '2 not accepted' }).click({ timeout: SEND_MS });
      const refused = page.getByRole('region', { name: 'Not accepted' });
      const readingItems = refused
        .getByRole('listitem')
        .filter({ hasText: "Environment reading for 'Basil' — not accepted" });
      await expect.poll(() => readingItems.count()).toBe(2);
      const item = readingItems.first();
      await item.getByText('Temperature: Enter 60 or less.').waitFor();
      // A refused reading offers Edit, on the plant's full environment form.
      expect(await item.getByRole('link', { name: "Edit: Environment reading for 'Basil'" }).getAttribute('href')).toBe(
        `/plants/${plantId}/environment`,
      );
      await waitingRegion().getByText('Nothing is waiting to be sent.').waitFor();
      await page.getByRole('region', { name: 'Sent' }).getByText("Harvest event for 'Basil' — sent").waitFor();
      expect(await journeyEvents()).toBe(2);
      expect(await readings()).toBe(1);
      await expectAccessible(page);
      await screenshot(page, 'outbox-refused');

      await item.getByRole('button', { name: "Discard: Environment reading for 'Basil'" }).click();
      await expect.poll(() => readingItems.count()).toBe(1);
      await header().getByRole('link', { name: '1 not accepted' }).waitFor();

      // Edit opens the environment form with the refused reading's values; the corrected one replaces it.
      await readingItems.getByRole('link', { name: "Edit: Environment reading for 'Basil'" }).click();
      const editor = page.getByRole('form', { name: 'Update the environment' });
      await editor.getByLabel('Temperature (°C)', { exact: true }).waitFor({ timeout: 30_000 });
      expect(await editor.getByLabel('Temperature (°C)', { exact: true }).inputValue()).toBe('85');
      expect(await editor.getByLabel('Relative humidity (%)', { exact: true }).inputValue()).toBe('50');
      await screenshot(page, 'outbox-edit-refused-reading');
      await editor.getByLabel('Temperature (°C)', { exact: true }).fill('22');
      await editor.getByRole('button', { name: 'Save the environment' }).click();
      await expect.poll(readings, { timeout: 30_000 }).toBe(2);
      // The refused item goes once its replacement is answered: the header's count says so before the page changes.
      await expect
        .poll(() =>
          header()
            .getByRole('link', { name: /not accepted/ })
            .count(),
        )
        .toBe(0);
      await page.goto('/outbox');
      await waitingRegion().getByText('Nothing is waiting to be sent.').waitFor();
      expect(await page.getByRole('region', { name: 'Not accepted' }).count()).toBe(0);
      expect(
        await header()
          .getByRole('link', { name: /not accepted/ })
          .count(),
      ).toBe(0);

      // A refused plant offers Edit: its form opens with the fields it had, and the corrected plant replaces it.
      await page.goto('/plants/new');
      await page.getByRole('heading', { level: 1, name: 'Register a plant' }).waitFor();
      await context.setOffline(true);
      await page.getByLabel('Common name').fill('Chili');
      await page.getByLabel('Scientific name').fill('Capsicum annuum');
      await page.getByLabel('Latitude').fill('95');
      await page.getByLabel('Longitude').fill('5.1214');
      await page.getByRole('button', { name: 'Register the plant' }).click();
      await page.getByText(KEPT).waitFor({ timeout: 20_000 });
      await context.setOffline(false);
      await header().getByRole('link', { name: '1 not accepted' }).click({ timeout: SEND_MS });
      const chili = page
        .getByRole('region', { name: 'Not accepted' })
        .getByRole('listitem')
        .filter({ hasText: "Plant 'Chili' — not accepted" });
      await chili.getByText('Latitude: Enter 90 or less.').waitFor();
      await chili.getByRole('button', { name: "Discard: Plant 'Chili'" }).waitFor();
      await chili.getByRole('link', { name: "Edit: Plant 'Chili'" }).click();
      await page.getByRole('heading', { level: 1, name: 'Register a plant' }).waitFor();
      expect(await page.getByLabel('Common name').inputValue()).toBe('Chili');
      expect(await page.getByLabel('Scientific name').inputValue()).toBe('Capsicum annuum');
      expect(await page.getByLabel('Latitude').inputValue()).toBe('95');
      expect(await page.getByLabel('Longitude').inputValue()).toBe('5.1214');
      await screenshot(page, 'outbox-edit-refused');
      await page.getByLabel('Latitude').fill('52.0907');
      await page.getByRole('button', { name: 'Register the plant' }).click();
      await page.getByRole('heading', { level: 1, name: 'Chili' }).waitFor({ timeout: 30_000 });
      expect(await plantsNamed('Chili')).toBe(1);
      await page.goto('/outbox');
      await waitingRegion().getByText('Nothing is waiting to be sent.').waitFor();
      expect(await page.getByRole('region', { name: 'Not accepted' }).count()).toBe(0);
      expect(
        await header()
          .getByRole('link', { name: /not accepted/ })
          .count(),
      ).toBe(0);
    },
    STEP_MS,
  );

  it(
    'keeps an account’s writes from another account, and sends them when their account signs in again (also after a session that ended while offline)',
    async () => {
      await page.goto('/plants/new');
      await page.getByRole('heading', { level: 1, name: 'Register a plant' }).waitFor();
      // Only this write cannot reach Rootline.
      await page.route('**/api/plants/register', (route) => route.abort());
      await page.getByLabel('Common name').fill('Pepper');
      await page.getByLabel('Latitude').fill('52.0907');
      await page.getByLabel('Longitude').fill('5.1214');
      await page.getByRole('button', { name: 'Register the plant' }).click();
      await page.getByText(KEPT).waitFor({ timeout: 20_000 });
      await header().getByRole('link', { name: '1 item waiting to be sent' }).waitFor();

      await page.goto('/account');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await (await mainMenu(page)).getByRole('link', { name: 'Sign in' }).waitFor();
      expect(
        await header()
          .getByRole('link', { name: /waiting to be sent/ })
          .count(),
      ).toBe(0);

      await signIn(page, OTHER, 'My plants');
      await page.unroute('**/api/plants/register');
      expect(
        await header()
          .getByRole('link', { name: /waiting to be sent/ })
          .count(),
      ).toBe(0);
      await page.goto('/outbox');
      await waitingRegion().getByText('Nothing is waiting to be sent.').waitFor();
      expect(await page.getByText("Plant 'Pepper'").count()).toBe(0);
      // Longer than the outbox waits between tries: nothing of the first account is sent meanwhile.
      await page.waitForTimeout(12_000);
      expect(await plantsNamed('Pepper')).toBe(0);

      await page.goto('/account');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await (await mainMenu(page)).getByRole('link', { name: 'Sign in' }).waitFor();
      await signIn(page, GROWER, 'My plants');
      await expect.poll(() => plantsNamed('Pepper'), { timeout: SEND_MS }).toBe(1);
      await page.goto('/outbox');
      await page.getByRole('region', { name: 'Sent' }).getByText("Plant 'Pepper' — sent").waitFor();
      expect(await plantsNamed('Pepper')).toBe(1);

      // Offline after a reload the device still knows the grower; when the network is back the session turns out to
      // have ended: the grower is asked to sign in, and the write kept meanwhile waits for them.
      await page.goto('/plants/new');
      await page.getByRole('heading', { level: 1, name: 'Register a plant' }).waitFor();
      await context.setOffline(true);
      await page.reload();
      await header().getByText('Offline', { exact: true }).waitFor({ timeout: 30_000 });
      await page.getByLabel('Common name').fill('Sage');
      await page.getByLabel('Latitude').fill('52.0907');
      await page.getByLabel('Longitude').fill('5.1214');
      await page.getByRole('button', { name: 'Register the plant' }).click();
      await page.getByText(KEPT).waitFor({ timeout: 20_000 });
      await context.clearCookies();
      await context.setOffline(false);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor({ timeout: SEND_MS });
      expect(await header().getByText('Offline', { exact: true }).count()).toBe(0);
      expect(await plantsNamed('Sage')).toBe(0);
      await signIn(page, GROWER, 'My plants');
      await expect.poll(() => plantsNamed('Sage'), { timeout: SEND_MS }).toBe(1);
    },
    STEP_MS,
  );
});
