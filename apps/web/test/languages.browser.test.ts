import { readFileSync } from 'node:fs';
import { signInOverHttp, TEST_ADMIN } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  startBrowserRig,
} from './support/browser.js';

const STEP_MS = 240_000;
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'correct horse battery staple';

/** The browser's language (`navigator.languages`) that asks for each of the app's languages. */
const BROWSER_LOCALE = { en: 'en-US', nl: 'nl-NL', de: 'de-DE', fr: 'fr-FR', es: 'es-ES' } as const;
type Language = keyof typeof BROWSER_LOCALE;

type Catalog = { [key: string]: string | Catalog };
/** A text of a catalog, by its key (`app:home.title`): the tests read the same texts the app shows. */
function text(lng: Language, key: string): string {
  const [ns, path] = key.split(':') as [string, string];
  const catalog = JSON.parse(readFileSync(new URL(`../src/locales/${lng}/${ns}.json`, import.meta.url), 'utf8'));
  const value = path.split('.').reduce<Catalog | string>((o, k) => (o as Catalog)[k]!, catalog);
  if (typeof value !== 'string') throw new Error(`${key} is not a text`);
  return value;
}

async function expectHeading(page: Page, level: number, name: string): Promise<void> {
  await page.getByRole('heading', { level, name, exact: true }).waitFor({ timeout: 30_000 });
}

/** Signs in through the form, whose labels are in the page's language. */
async function signInIn(page: Page, lng: Language, who: { email: string; password: string }): Promise<void> {
  await page.goto('/signin');
  await expectHeading(page, 1, text(lng, 'auth:signIn.title'));
  await page.getByLabel(text(lng, 'auth:signIn.email'), { exact: true }).fill(who.email);
  await page.getByLabel(text(lng, 'auth:signIn.password'), { exact: true }).fill(who.password);
  await page.getByRole('button', { name: text(lng, 'auth:signIn.submit'), exact: true }).click();
  await page
    .getByRole('heading', { level: 1 })
    .filter({ hasNotText: text(lng, 'auth:signIn.title') })
    .waitFor();
}

describe('the app in English, Dutch, German, French and Spanish', () => {
  let rig: BrowserRig;
  let plantId: string;
  let listingId: string;
  const people = new Map<Language, { email: string; password: string }>();

  beforeAll(async () => {
    rig = await startBrowserRig();
    const session = await call(rig, rig.adminToken, 'GET', '/api/auth/session');
    const user = session.user as { id: string; name: string };
    const admin = { id: user.id, name: user.name };
    const plant = await call(rig, rig.adminToken, 'POST', '/api/plants/register', {
      commonName: 'Polyglot pear',
      scientificName: 'Pyrus communis',
      location: { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' },
      owner: admin,
      privacyLevel: 'city',
    });
    plantId = String(plant.id);
    // A step of its journey and a listing of it: the marketplace and the plant's panels have something to say.
    await call(rig, rig.adminToken, 'POST', '/api/transport/distribution', {
      plantId,
      eventTime: new Date().toISOString(),
      from: { latitude: 52.0907, longitude: 5.1214 },
      to: { latitude: 52.16, longitude: 4.49, city: 'Leiden', country: 'NL' },
      transportMode: 'bicycle',
    });
    await call(rig, rig.adminToken, 'POST', '/api/environment/records', {
      plantId,
      soil: { type: 'potting-mix', ph: 6.5 },
      climate: { temperatureC: 21.5 },
    });
    const listing = await call(rig, rig.adminToken, 'POST', '/api/marketplace/listings', {
      title: 'Polyglot pear graftwood',
      description: 'Scions cut in winter.',
      category: 'cuttings',
      price: 450,
      currency: 'EUR',
      quantity: 4,
      location: { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' },
      privacyLevel: 'city',
      plantId,
    });
    listingId = String(listing.id);
    for (const lng of Object.keys(BROWSER_LOCALE) as Language[]) {
      const who = { email: `reader-${lng}-${Date.now()}@example.org`, password: PASSWORD };
      const res = await fetch(`${rig.base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...who, name: `Reader ${lng}` }),
      });
      expect(res.status).toBe(201);
      people.set(lng, who);
    }
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  for (const lng of Object.keys(BROWSER_LOCALE) as Language[]) {
    it(
      `shows the main pages in the browser's language (${lng}), with html[lang] set`,
      async () => {
        const context = await rig.context(undefined, { locale: BROWSER_LOCALE[lng] });
        const page = await context.newPage();
        await page.goto('/');
        await expectHeading(page, 1, text(lng, 'app:home.title'));
        expect(await page.locator('html').getAttribute('lang')).toBe(lng);
        await expect
          .poll(() => page.getByRole('combobox', { name: text(lng, 'app:nav.language') }).inputValue())
          .toBe(lng);

        await page.goto('/discover');
        await expectHeading(page, 1, text(lng, 'app:discover.title'));
        await expectHeading(page, 2, text(lng, 'plants:discover.nearby'));

        await page.goto(`/plants/${plantId}`);
        await expectHeading(page, 1, 'Polyglot pear');
        await page.getByRole('tab', { name: text(lng, 'plants:page.tabs.facts'), exact: true }).waitFor();
        await expectHeading(page, 2, text(lng, 'plants:facts.title'));

        await signInIn(page, lng, people.get(lng)!);
        await page.goto('/plants/mine');
        await expectHeading(page, 1, text(lng, 'plants:mine.title'));

        await page.goto('/plants/new');
        await page.getByRole('group', { name: text(lng, 'common:location.legend') }).waitFor({ timeout: 30_000 });
        await page.getByLabel(text(lng, 'common:privacy.label'), { exact: true }).waitFor();

        // A plant's certificate, QR code and labels, and the outbox.
        await page.goto(`/plants/${plantId}?tab=certificate`);
        await expectHeading(page, 2, text(lng, 'transparency:certificate.title'));
        await expectHeading(page, 2, text(lng, 'transparency:qr.title'));
        await expectHeading(page, 2, text(lng, 'transparency:labels.title'));
        await page.getByRole('combobox', { name: text(lng, 'transparency:labels.layout') }).waitFor();
        await screenshot(page, `languages-certificate-${lng}`);
        await page.goto('/outbox');
        await expectHeading(page, 1, text(lng, 'outbox:title'));
        await page.getByText(text(lng, 'outbox:nothingWaiting'), { exact: true }).waitFor();

        await page.goto('/demand');
        await expectHeading(page, 1, text(lng, 'demand:tabs.preferences'));
        await page.getByRole('heading', { level: 2, name: text(lng, 'demand:preferences.title') }).waitFor();

        await page.goto('/network');
        await expectHeading(page, 1, text(lng, 'transparency:network.title'));
        await page.getByRole('navigation', { name: text(lng, 'transparency:sections.label') }).waitFor();
        expect(await page.locator('html').getAttribute('lang')).toBe(lng);
        await context.close();
      },
      STEP_MS,
    );
  }

  for (const lng of ['de', 'es'] as const) {
    it(
      `shows the marketplace, a listing and a plant's photos, lineage, journey and environment in ${lng}`,
      async () => {
        // Spanish on a phone, German on a laptop: the longer words fit both.
        const context = await rig.context(lng === 'es' ? PHONE : undefined, { locale: BROWSER_LOCALE[lng] });
        const page = await context.newPage();
        await signInIn(page, lng, people.get(lng)!);

        await page.goto('/market');
        await expectHeading(page, 1, text(lng, 'market:browse.title'));
        await expectHeading(page, 2, text(lng, 'market:browse.filters'));
        await page.getByRole('navigation', { name: text(lng, 'market:nav.label') }).waitFor();
        await page.getByRole('link', { name: 'Polyglot pear graftwood' }).waitFor();
        await screenshot(page, `languages-${lng}-market`);
        // A count in the language's words and plural form, not "1 listings".
        await page
          .getByRole('heading', {
            level: 2,
            name: new RegExp(text(lng, 'market:browse.found_one').replace('{{count, number}}', '\\d+')),
          })
          .waitFor();

        await page.goto(`/market/listings/${listingId}`);
        await expectHeading(page, 1, 'Polyglot pear graftwood');
        await expectHeading(page, 2, text(lng, 'market:listing.details'));
        await expectHeading(page, 2, text(lng, 'market:offers.title'));
        await expectHeading(page, 3, text(lng, 'market:offers.make'));
        await expectHeading(page, 2, text(lng, 'market:listing.lineage'));

        await page.goto(`/plants/${plantId}`);
        await expectHeading(page, 1, 'Polyglot pear');
        const photos = page.getByRole('region', { name: text(lng, 'media:title') });
        await photos.getByText(text(lng, 'media:none')).waitFor();
        await page.getByRole('tab', { name: text(lng, 'plants:page.tabs.lineage'), exact: true }).click();
        await expectHeading(page, 2, text(lng, 'lineage:title'));
        await page.getByRole('region', { name: text(lng, 'lineage:graph') }).waitFor();
        await page.getByRole('tab', { name: text(lng, 'plants:page.tabs.journey'), exact: true }).click();
        const journey = page.getByRole('region', { name: text(lng, 'journeys:journey.title') });
        const step = journey.getByRole('list', { name: text(lng, 'journeys:journey.timeline') }).getByRole('listitem');
        await step.waitFor();
        // The kind and the way it travelled in words, not the API's codes.
        expect(await step.textContent()).toContain(text(lng, 'journeys:kinds.distribution'));
        expect(await step.textContent()).toContain(text(lng, 'journeys:by.bicycle'));
        await screenshot(page, `languages-${lng}-journey`);
        await page.getByRole('tab', { name: text(lng, 'plants:page.tabs.environment'), exact: true }).click();
        await expectHeading(page, 2, text(lng, 'environment:panel.title'));
        // The advice the API names by its code, in the language's words (nothing but soil and temperature measured).
        const panel = page.getByRole('region', { name: text(lng, 'environment:panel.title') });
        await panel.getByText(text(lng, 'environment:advice.climate.humidityPercent.unmeasured')).waitFor();
        await screenshot(page, `languages-${lng}-environment-panel`);

        await page.goto(`/plants/${plantId}/environment`);
        await expectHeading(page, 1, text(lng, 'environment:page.title').replace('{{plant}}', 'Polyglot pear'));
        const current = page.getByRole('region', { name: text(lng, 'environment:page.current') });
        // Categories, fields and choices in words of the language, numbers written its way (21,5).
        await expectHeading(page, 3, text(lng, 'environment:categories.soil.title'));
        await current.getByText(text(lng, 'environment:fields.soil.type'), { exact: true }).waitFor();
        await current.getByText(text(lng, 'environment:options.soil.type.potting-mix'), { exact: true }).waitFor();
        await current.getByText('21,5 °C', { exact: true }).waitFor();
        await expectHeading(page, 2, text(lng, 'environment:similar.title'));
        await expectAccessible(page);
        await screenshot(page, `languages-${lng}-environment`);
        await context.close();
      },
      STEP_MS,
    );
  }

  it(
    'says refusals and the codes an audit sentence quotes in German',
    async () => {
      const reader = people.get('de')!;
      const context = await rig.context(undefined, { locale: BROWSER_LOCALE.de });
      const page = await context.newPage();

      // A wrong password: the API's English message is worded by its reason (ADR 260).
      await page.goto('/signin');
      await expectHeading(page, 1, text('de', 'auth:signIn.title'));
      await page.getByLabel(text('de', 'auth:signIn.email'), { exact: true }).fill(reader.email);
      await page.getByLabel(text('de', 'auth:signIn.password'), { exact: true }).fill('not the right one at all');
      await page.getByRole('button', { name: text('de', 'auth:signIn.submit'), exact: true }).click();
      await page
        .getByRole('alert')
        .getByText(text('de', 'common:refusals.reasons.bad-credentials'), { exact: true })
        .waitFor();

      // A common password at sign-up: said beside the field, in German.
      await page.goto('/signup');
      await expectHeading(page, 1, text('de', 'auth:signUp.title'));
      await page.getByLabel(text('de', 'auth:signUp.name'), { exact: true }).fill('Gerda');
      await page.getByLabel(text('de', 'auth:signUp.email'), { exact: true }).fill(`gerda-${Date.now()}@example.org`);
      await page.getByLabel(text('de', 'auth:signUp.password'), { exact: true }).fill('password123');
      await page.getByRole('button', { name: text('de', 'auth:signUp.submit'), exact: true }).click();
      const password = page.getByLabel(text('de', 'auth:signUp.password'), { exact: true });
      await expect.poll(() => password.getAttribute('aria-invalid'), { timeout: 30_000 }).toBe('true');
      await page.getByText(text('de', 'common:refusals.reasons.password-common'), { exact: true }).waitFor();
      await screenshot(page, 'languages-de-refusals');

      // An administrator makes the reader a grower: the audit log says the roles in German, not USER and GROWER.
      const token = await signInOverHttp(rig.base, reader.email, reader.password);
      const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
      await call(rig, rig.adminToken, 'PUT', `/api/admin/users/${session.user.id}/role`, { role: 'GROWER' });
      await signInIn(page, 'de', TEST_ADMIN);
      await page.goto('/network/audit');
      await expectHeading(page, 1, text('de', 'transparency:audit.title'));
      const roles = `${text('de', 'transparency:sentences.roles.GROWER')} gemacht (vorher ${text('de', 'transparency:sentences.roles.USER')})`;
      await page.getByText(roles).first().waitFor({ timeout: 60_000 });
      expect(await page.getByText(/GROWER|USER/).count()).toBe(0);
      await expectAccessible(page);
      await screenshot(page, 'languages-de-audit');
      await context.close();
    },
    STEP_MS,
  );

  it(
    'keeps the language chosen on the account: Dutch chosen, signed out, signed in again in another browser',
    async () => {
      const who = { email: `kees-${Date.now()}@example.org`, password: PASSWORD };
      await fetch(`${rig.base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...who, name: 'Kees' }),
      });
      const first = await rig.context();
      const page = await first.newPage();
      await signInIn(page, 'en', who);
      await page.goto('/account');
      await expectHeading(page, 1, text('en', 'auth:account.title'));
      await page.getByLabel(text('en', 'auth:account.language'), { exact: true }).selectOption('nl');
      await expectHeading(page, 1, text('nl', 'auth:account.title'));
      expect(await page.locator('html').getAttribute('lang')).toBe('nl');
      await page.getByRole('button', { name: text('nl', 'auth:account.signOut'), exact: true }).click();
      // Signed out, the menu offers to sign in again, still in Dutch; so does the start page.
      await page
        .getByRole('navigation', { name: text('nl', 'app:nav.label') })
        .getByRole('link', { name: text('nl', 'app:nav.signIn'), exact: true })
        .waitFor();
      await page.goto('/');
      await expectHeading(page, 1, text('nl', 'app:home.title'));
      await first.close();

      // A new browser, in English, knows nothing of the choice until the account signs in.
      const second = await rig.context(undefined, { locale: 'en-US' });
      const again = await second.newPage();
      await signInIn(again, 'en', who);
      await again.goto('/plants/mine');
      await expectHeading(again, 1, text('nl', 'plants:mine.title'));
      expect(await again.locator('html').getAttribute('lang')).toBe('nl');
      const session = (await again.evaluate(async () => (await fetch('/api/auth/session')).json())) as {
        data: { user: { locale: string | null } };
      };
      expect(session.data.user.locale).toBe('nl');
      await second.close();
    },
    STEP_MS,
  );

  it(
    'remembers a visitor’s choice in this browser while signed out',
    async () => {
      const context = await rig.context(undefined, { locale: 'en-US' });
      const page = await context.newPage();
      await page.goto('/discover');
      await expectHeading(page, 1, text('en', 'app:discover.title'));
      await page.getByRole('combobox', { name: text('en', 'app:nav.language') }).selectOption('de');
      await expectHeading(page, 1, text('de', 'app:discover.title'));
      await page.reload();
      await expectHeading(page, 1, text('de', 'app:discover.title'));
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      await context.close();
    },
    STEP_MS,
  );
});
