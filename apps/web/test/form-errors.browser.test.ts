import { signInOverHttp } from '@rootline/testing';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  emailedLink,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

// Every form of the app, and the refusal a person can cause in it shown beside its field in plain words: the field
// is aria-invalid and described (aria-describedby) by a message with no request path and no schema wording. The
// browser's own checks (required, min, max, type) are switched off before sending, as an older browser or a pasted
// value would get past them, so what is shown is the API's answer put into words by the app.
//
// The forms (apps/web/src, `grep -rln "<form"`) and the row that covers each:
//   admin/users-panel: search ................................ "users: search"
//   admin/users-panel: a row's role ........................... none: a choice among the roles offered (a refusal, the
//                                                               last ADMIN, concerns the account, shown beside the row)
//   anonymous/anonymous-form ................................... "register anonymously"
//   auth/email-links: forgot password ......................... "forgot password"
//   auth/email-links: reset password .......................... "reset password"
//   auth/sign-in-form .......................................... "sign in"
//   auth/sign-up-form .......................................... "sign up"
//   auth/tokens-panel .......................................... "API token"
//   demand/forecast-panel ...................................... "demand forecast"
//   demand/preferences-form .................................... "demand preferences"
//   demand/recommendations-panel ............................... "what to plant"
//   demand/signal-panel ........................................ "demand in a region"
//   demand/supply-panel: commit ................................ "commit supply"
//   demand/supply-panel: match ................................. "match supply"
//   environment/analysis ....................................... "environment analysis"
//   environment/compare-form ................................... "compare two plants"
//   environment/environment-editor ............................. "plant environment"
//   environment/environment-panel .............................. "plant reading"
//   farms/fail-batch ........................................... none: its button waits for a reason, and the
//                                                               field's maxlength keeps it within the API's limit
//   farms/harvest-form ......................................... "harvest"
//   farms/reading-form ......................................... "farm reading"
//   farms/recipes .............................................. "recipe version"
//   farms/register-farm-form ................................... "register a farm"
//   farms/start-batch-form ..................................... "start a batch"
//   farms/zones ................................................ "add a zone"
//   journeys/record-event-form ................................. "journey event"
//   market/listing-form: new listing ........................... "sell"
//   market/listing-form: edit listing .......................... "edit a listing"
//   market/listing-search ...................................... "market search"
//   market/offers-panel: make an offer ......................... "make an offer"
//   market/offers-panel: counter ............................... "counter an offer"
//   market/offers-panel: rate the seller ....................... "rate the seller"
//   market/wishlist ............................................ "wishlist"
//   notifications/preferences-form ............................. none: switches only, every combination is accepted
//   notifications/unsubscribe .................................. none: a single button (a bad link is said above it)
//   plants/discover: search .................................... "plant search"
//   plants/propagate-form ...................................... none: a choice among the offered propagation types
//   plants/register-plant-form ................................. "register a plant"
//   transparency/audit-log ..................................... "audit log filters"
//   transparency/print-labels .................................. "print labels"
//   transparency/signatures: register a key .................... none: the label is optional and the field's
//                                                               maxlength keeps it within the API's limit
//   transparency/signatures: load a statement .................. "statement to sign"
//   transparency/signatures: sign in this browser .............. none: a choice among the person's own keys
//   transparency/signatures: verify ............................ "verify a signature"
//   transparency/webhooks: new webhook ......................... "new webhook"
//   transparency/webhooks: edit a webhook ...................... "edit a webhook"

const STEP_MS = 120_000;
const stamp = Date.now();
const ALICE = { name: 'Alice Formfiller', email: `alice-${stamp}@example.org`, password: 'many forms every day' };
const BOB = { name: 'Bob Buyer', email: `bob-${stamp}@example.org`, password: 'buying seedlings weekly' };
const UTRECHT = { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' };
const SCHEMA_WORDS = /body\/|querystring\/|params\/|must NOT|must match|must have required|must be (<|>|equal)|usr_/;

type Who = 'alice' | 'bob' | 'visitor';
interface Row {
  form: string;
  as: Who;
  /** The page, once the records the row needs exist. */
  path: () => string | Promise<string>;
  /** Labels that hold their control (a select's name then includes its choice): matched by their start. */
  inexact?: boolean;
  /** What to do on the page before filling (a tab, a button that opens the form). */
  open?: (page: Page) => Promise<void>;
  /** Where the form is on the page, when the page has several with the same labels. */
  within?: (page: Page) => Locator;
  /** Inputs by label, filled in order; a select by label is chosen by its option's label with `select:`. */
  fill: [string, string][];
  submit: string | RegExp;
  field: string;
  said: string | RegExp;
}

/** The text the field's aria-describedby points at. */
async function description(field: Locator): Promise<string> {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const page = field.page();
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
const inTwoWeeks = () => new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

describe('every form shows a refusal beside its field, in plain words', () => {
  let rig: BrowserRig;
  let alice: { token: string; id: string };
  let bob: { token: string; id: string };
  const ids = { plant: '', listing: '', sold: '', farm: '', batch: '', webhook: '' };
  const pages: Partial<Record<Who, Page>> = {};

  beforeAll(async () => {
    rig = await startBrowserRig();
    const account = async (who: typeof ALICE) => {
      await fetch(`${rig.base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(who),
      });
      const token = await signInOverHttp(rig.base, who.email, who.password);
      const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
      return { token, id: session.user.id };
    };
    alice = await account(ALICE);
    bob = await account(BOB);
    // Alice may use every form: farms, planning, the audit log.
    await call(rig, rig.adminToken, 'PUT', `/api/admin/users/${alice.id}/role`, { role: 'ADMIN' });
    alice.token = await signInOverHttp(rig.base, ALICE.email, ALICE.password);

    const plant = await call(rig, alice.token, 'POST', '/api/plants/register', {
      commonName: 'Lemon balm',
      scientificName: 'Melissa officinalis',
      location: UTRECHT,
      owner: { id: alice.id },
    });
    ids.plant = String(plant.id);
    const listing = (quantity: number) =>
      call(rig, alice.token, 'POST', '/api/marketplace/listings', {
        title: `Lemon balm cuttings ${quantity}`,
        description: 'Rooted in water, ready to pot.',
        category: 'cuttings',
        price: 300,
        currency: 'EUR',
        quantity,
        location: UTRECHT,
        privacyLevel: 'city',
      });
    ids.listing = String((await listing(5)).id);
    // An offer Alice can counter, and another she accepted, which Bob can rate.
    await call(rig, bob.token, 'POST', `/api/marketplace/listings/${ids.listing}/offers`, { quantity: 1, price: 250 });
    ids.sold = String((await listing(3)).id);
    const sold = await call(rig, bob.token, 'POST', `/api/marketplace/listings/${ids.sold}/offers`, {
      quantity: 1,
      price: 300,
    });
    await call(rig, alice.token, 'POST', `/api/marketplace/offers/${sold.id}/accept`);

    const farm = await call(rig, alice.token, 'POST', '/api/vertical-farm/register', {
      name: 'Canal Greens',
      location: UTRECHT,
      floorAreaM2: 800,
      levels: 4,
      lightingSystem: 'led',
      climateSystem: 'hvac-dehumidification',
    });
    ids.farm = String(farm.id);
    const zone = await call(rig, alice.token, 'POST', `/api/vertical-farm/${ids.farm}/zones`, {
      name: 'Level 1 NFT',
      level: 1,
      areaM2: 40,
      growingMethod: 'nft',
      capacity: 400,
    });
    const batch = await call(rig, alice.token, 'POST', '/api/vertical-farm/batch/start', {
      farmId: ids.farm,
      zoneId: zone.id,
      recipeId: 'rcp_lettuce0butterhead01',
      crop: 'lettuce',
      variety: 'Rex',
      plantCount: 100,
      seedSource: { type: 'seed-lot', seedLot: 'RZ-1' },
    });
    ids.batch = String(batch.id);
    const hook = await call(rig, alice.token, 'POST', '/api/transparency/webhooks', {
      url: 'https://hooks.example.org/rootline',
      events: ['plant.registered'],
    });
    ids.webhook = String(hook.id);

    for (const [who, person] of [
      ['alice', ALICE],
      ['bob', BOB],
    ] as const) {
      const page = await (await rig.context()).newPage();
      await signIn(page, person);
      pages[who] = page;
    }
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  const ROWS: Row[] = [
    // Signed out.
    {
      form: 'sign in',
      as: 'visitor',
      path: () => '/signin',
      fill: [
        ['Email', 'alice at example'],
        ['Password', 'whatever it was'],
      ],
      submit: 'Sign in',
      field: 'Email',
      said: 'Enter an email address, like name@example.org.',
    },
    {
      form: 'sign up',
      as: 'visitor',
      path: () => '/signup',
      fill: [
        ['Your name', 'Sam Short'],
        ['Email', `sam-${stamp}@example.org`],
        ['Password', 'short'],
      ],
      submit: 'Create account',
      field: 'Password',
      said: /Use at least \d+ characters\./,
    },
    {
      form: 'forgot password',
      as: 'visitor',
      path: () => '/forgot-password',
      fill: [['Email', 'nobody-at-all']],
      submit: 'Send the link',
      field: 'Email',
      said: 'Enter an email address, like name@example.org.',
    },
    {
      form: 'reset password',
      as: 'visitor',
      path: async () => {
        await fetch(`${rig.base}/api/auth/forgot-password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: BOB.email }),
        });
        const link = new URL(await emailedLink(rig.dataDir, BOB.email, '/reset-password'));
        return `${link.pathname}${link.search}`;
      },
      fill: [['New password', 'short']],
      submit: 'Set the password',
      field: 'New password',
      said: /Use at least \d+ characters\./,
    },
    {
      form: 'register anonymously',
      as: 'visitor',
      path: () => '/plants/register-anonymous',
      fill: [
        ['Common name', 'Wild garlic'],
        ['Latitude', '52.1'],
        ['Longitude', '190'],
      ],
      submit: 'Make my key and register',
      field: 'Longitude',
      said: 'Enter 180 or less.',
    },
    {
      form: 'plant search',
      as: 'visitor',
      path: () => '/discover',
      fill: [['Name, place or owner', '!!!']],
      submit: 'Search',
      field: 'Name, place or owner',
      said: 'Use at least one letter or digit.',
    },
    {
      form: 'market search',
      as: 'alice',
      path: () => '/market',
      fill: [['Words in the title or description', '???']],
      submit: 'Search',
      field: 'Words in the title or description',
      said: 'Use at least one letter or digit.',
    },
    // Signed in: plants, journeys, environment.
    {
      form: 'register a plant',
      as: 'alice',
      path: () => '/plants/new',
      fill: [
        ['Common name', 'Lemon balm'],
        ['Latitude', '95'],
        ['Longitude', '5.1'],
      ],
      submit: 'Register the plant',
      field: 'Latitude',
      said: 'Enter 90 or less.',
    },
    {
      form: 'journey event',
      as: 'alice',
      path: () => `/plants/${ids.plant}?tab=journey`,
      open: async (page) => {
        await page.getByRole('checkbox', { name: 'It came from somewhere else' }).uncheck();
      },
      within: (page) => page.getByRole('region', { name: 'Record a journey event' }),
      fill: [
        ['Latitude', '52.2'],
        ['Longitude', '5.3'],
        ['Mass carried in kg (optional)', '-3'],
      ],
      submit: 'Record the event',
      field: 'Mass carried in kg (optional)',
      said: /^Enter (0 or more|more than 0)\.$/,
    },
    {
      form: 'plant reading',
      as: 'alice',
      path: () => `/plants/${ids.plant}?tab=environment`,
      fill: [
        ['Temperature (°C)', '21'],
        ['Humidity (%)', '140'],
      ],
      submit: 'Save the reading',
      field: 'Humidity (%)',
      said: 'Enter 100 or less.',
    },
    {
      form: 'plant environment',
      as: 'alice',
      path: () => `/plants/${ids.plant}/environment`,
      fill: [
        ['Temperature (°C)', '23'],
        ['Measured at (optional, default now)', new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 16)],
      ],
      submit: 'Save the environment',
      field: 'Measured at (optional, default now)',
      said: 'Choose a time that is not in the future.',
    },
    {
      form: 'print labels',
      as: 'alice',
      path: () => `/plants/${ids.plant}?tab=certificate`,
      inexact: true,
      fill: [
        ['Sheet', 'select:Seed packets, 8 a page (A4)'],
        ['Harvest date', '09/2026'],
      ],
      submit: /^Download labels/,
      field: 'Harvest date',
      said: 'Enter a date as YYYY, YYYY-MM or YYYY-MM-DD.',
    },
    {
      form: 'compare two plants',
      as: 'alice',
      path: () => '/environment/compare',
      fill: [
        ['First plant (id)', 'my lemon balm'],
        ['Second plant (id)', 'my other balm'],
      ],
      submit: 'Compare',
      field: 'First plant (id)',
      said: 'Enter an id starting with plt_, as its page shows it.',
    },
    {
      form: 'environment analysis',
      as: 'alice',
      path: () => '/environment/analysis',
      fill: [['Fewest plants per correlation', '2']],
      submit: 'Analyse',
      field: 'Fewest plants per correlation',
      said: 'Enter 4 or more.',
    },
    // The marketplace.
    {
      form: 'sell',
      as: 'alice',
      path: () => '/market/sell',
      fill: [
        ['Title', ' '],
        ['Quantity', '1'],
        ['Price per unit (EUR)', '2'],
        ['Latitude', '52.1'],
        ['Longitude', '5.1'],
      ],
      submit: 'Create the listing',
      field: 'Title',
      said: /Fill this in|character/,
    },
    {
      form: 'edit a listing',
      as: 'alice',
      path: () => `/market/listings/${ids.listing}`,
      open: async (page) => {
        await page.getByRole('button', { name: 'Edit', exact: true }).click();
      },
      within: (page) => page.getByRole('region', { name: 'Edit the listing' }),
      fill: [['Quantity', '0']],
      submit: 'Save changes',
      field: 'Quantity',
      said: /^Enter (1 or more|a whole number)/,
    },
    {
      form: 'make an offer',
      as: 'bob',
      path: () => `/market/listings/${ids.listing}`,
      fill: [
        ['Quantity', '0'],
        ['Your price per unit (EUR)', '2.50'],
      ],
      submit: 'Send the offer',
      field: 'Quantity',
      said: 'Enter 1 or more.',
    },
    {
      form: 'counter an offer',
      as: 'alice',
      path: () => `/market/listings/${ids.listing}`,
      // A price the app cannot read is refused before sending, beside the field.
      fill: [['Counter price per unit (EUR)', 'two euros']],
      submit: /^(Send the counter|Counter again)$/,
      field: 'Counter price per unit (EUR)',
      said: /^(Enter|Give|Use)/,
    },
    {
      form: 'rate the seller',
      as: 'bob',
      path: () => `/market/listings/${ids.sold}`,
      fill: [['Comment (optional)', 'Lovely plants. '.repeat(100)]],
      submit: 'Send the rating',
      field: 'Comment (optional)',
      // The limit is written the way the reader's language writes numbers ("1,000").
      said: /^Use at most [\d,]+ characters\.$/,
    },
    {
      form: 'wishlist',
      as: 'alice',
      path: () => '/market/wishlist',
      fill: [['Words (optional)', 'heirloom '.repeat(30)]],
      submit: 'Add',
      field: 'Words (optional)',
      said: 'Use at most 200 characters.',
    },
    // Demand.
    {
      form: 'demand preferences',
      as: 'alice',
      path: () => '/demand',
      fill: [
        ['Latitude', '52.1'],
        ['Longitude', '5.1'],
        ['How far you would fetch food (km)', '0'],
      ],
      submit: 'Save my preferences',
      field: 'How far you would fetch food (km)',
      said: /^Enter (1|more than 0)/,
    },
    {
      form: 'demand in a region',
      as: 'alice',
      path: () => '/demand/planning',
      within: (page) => page.getByRole('region', { name: 'Demand in a region' }),
      fill: [
        ['Country code', 'NL'],
        ['Weeks ahead', '99'],
      ],
      submit: 'Show demand',
      field: 'Weeks ahead',
      said: /^Enter \d+ or less\.$/,
    },
    {
      form: 'what to plant',
      as: 'alice',
      path: () => '/demand/planning',
      within: (page) => page.getByRole('region', { name: 'What to plant' }),
      fill: [
        ['Latitude', '52.1'],
        ['Longitude', '5.1'],
        ['Area (m²)', '0'],
      ],
      submit: 'Recommend crops',
      field: 'Area (m²)',
      said: /^Enter (more than 0|[\d.]+ or more)\.$/,
    },
    {
      form: 'demand forecast',
      as: 'alice',
      path: () => '/demand/planning',
      within: (page) => page.getByRole('region', { name: 'Demand forecast' }),
      fill: [
        ['Region', 'NL'],
        ['Weeks ahead', '99'],
      ],
      submit: 'Forecast',
      field: 'Weeks ahead',
      said: /^Enter \d+ or less\.$/,
    },
    {
      form: 'commit supply',
      as: 'alice',
      path: () => '/demand/supply',
      within: (page) => page.getByRole('form', { name: 'Commit supply' }),
      fill: [
        ['Quantity', '0'],
        ['From', inAWeek()],
        ['To', inTwoWeeks()],
        ['Latitude', '52.1'],
        ['Longitude', '5.1'],
      ],
      submit: 'Commit the supply',
      field: 'Quantity',
      said: /^Enter (more than 0|[\d.]+ or more)\.$/,
    },
    {
      form: 'match supply',
      as: 'alice',
      path: () => '/demand/supply',
      within: (page) => page.getByRole('region', { name: 'Match my supply' }),
      fill: [['Farthest household (km, rounded up to 5 km)', '5000']],
      submit: 'Find matches',
      field: 'Farthest household (km, rounded up to 5 km)',
      said: /^Enter \d+ or less\.$/,
    },
    // Vertical farms.
    {
      form: 'register a farm',
      as: 'alice',
      path: () => '/vertical-farm',
      fill: [
        ['Farm name', 'Dock Greens'],
        ['Floor area (m²)', '0'],
        ['Levels', '2'],
        ['Latitude', '52.1'],
        ['Longitude', '5.1'],
      ],
      submit: 'Register the farm',
      field: 'Floor area (m²)',
      said: /^Enter (more than 0|[\d.]+ or more)\.$/,
    },
    {
      form: 'add a zone',
      as: 'alice',
      path: () => `/vertical-farm/${ids.farm}`,
      fill: [
        ['Zone name', 'Level 2 DWC'],
        ['Level', '2'],
        ['Area (m²)', '20'],
        ['Plant sites', '0'],
      ],
      submit: 'Add the zone',
      field: 'Plant sites',
      said: 'Enter 1 or more.',
    },
    {
      form: 'start a batch',
      as: 'alice',
      path: () => `/vertical-farm/${ids.farm}`,
      fill: [
        ['Variety', 'Skyphos'],
        ['Number of plants', '0'],
        ['Seed lot', 'RZ-2'],
      ],
      submit: 'Start the batch',
      field: 'Number of plants',
      said: 'Enter 1 or more.',
    },
    {
      form: 'recipe version',
      as: 'alice',
      path: () => '/vertical-farm/recipes',
      fill: [
        ['Parent recipe', 'select:Butterhead lettuce, deep water culture (Cornell CEA) (version 1)'],
        ['New recipe name', 'Butterhead, a year long'],
        ['Days of vegetative', '999'],
      ],
      submit: 'Create the version',
      field: 'Days of vegetative',
      said: 'Enter 365 or less.',
    },
    {
      form: 'farm reading',
      as: 'alice',
      path: () => `/vertical-farm/batch/${ids.batch}`,
      fill: [['pH', '15']],
      submit: 'Save the reading',
      field: 'pH',
      said: /14/,
    },
    {
      form: 'harvest',
      as: 'alice',
      path: () => `/vertical-farm/batch/${ids.batch}`,
      fill: [['Yield (kg)', '-2']],
      submit: 'Record the harvest',
      field: 'Yield (kg)',
      said: /^Enter (0 or more|more than 0)\.$/,
    },
    // Account, administration, transparency.
    {
      form: 'API token',
      as: 'alice',
      path: () => '/account',
      fill: [
        ['Token name', 'backup script'],
        ['Expires on (optional)', '2020-01-01'],
      ],
      submit: 'Create token',
      field: 'Expires on (optional)',
      said: 'Choose a time in the future.',
    },
    {
      form: 'users: search',
      as: 'alice',
      path: () => '/admin/users',
      fill: [['Search by email or name', 'x'.repeat(300)]],
      submit: 'Search',
      field: 'Search by email or name',
      said: /^Use at most \d+ characters\.$/,
    },
    {
      form: 'audit log filters',
      as: 'alice',
      path: () => '/network/audit',
      fill: [['Actor (user id)', 'Alice Formfiller']],
      submit: 'Apply filters',
      field: 'Actor (user id)',
      said: /^(This is not|Enter|Use)/,
    },
    {
      form: 'new webhook',
      as: 'alice',
      path: () => '/network/webhooks',
      within: (page) => page.getByRole('form', { name: 'New webhook' }),
      fill: [['Address (URL)', 'ftp://hooks.example.org/rootline']],
      submit: 'Save the webhook',
      field: 'Address (URL)',
      said: 'Enter a web address starting with https:// (or http://).',
    },
    {
      form: 'edit a webhook',
      as: 'alice',
      path: () => '/network/webhooks',
      open: async (page) => {
        await page.getByRole('button', { name: 'Edit', exact: true }).first().click();
      },
      within: (page) => page.getByRole('button', { name: 'Save changes' }).locator('xpath=ancestor::form'),
      fill: [['Address (URL)', 'gopher://hooks.example.org/rootline']],
      submit: 'Save changes',
      field: 'Address (URL)',
      said: 'Enter a web address starting with https:// (or http://).',
    },
    {
      form: 'statement to sign',
      as: 'alice',
      path: () => '/network/signatures',
      fill: [
        ['What to sign', 'select:A certificate (plant id)'],
        ['Its id', 'my lemon balm'],
      ],
      submit: 'Show the statement',
      field: 'Its id',
      said: /^(Enter an id starting with|This is not in the expected form)/,
    },
    {
      form: 'verify a signature',
      as: 'alice',
      path: () => '/network/signatures',
      fill: [
        ['Statement (JSON)', '{"plant": '],
        ['Signature (base64url)', 'c2lnbmF0dXJl'],
        ['Public key (raw base64url or PEM)', 'a2V5'],
      ],
      submit: 'Verify',
      field: 'Statement (JSON)',
      said: 'The statement is not valid JSON.',
    },
  ];

  for (const row of ROWS) {
    it(
      `${row.form}: ${row.field} says “${row.said}”`,
      async () => {
        const page = row.as === 'visitor' ? await (await rig.context()).newPage() : pages[row.as]!;
        try {
          await check(page, row);
        } finally {
          await screenshot(page, `form-error-${row.form.replace(/\W+/g, '-')}`);
          if (row.as === 'visitor') await page.close();
        }
      },
      STEP_MS,
    );
  }

  /** Opens the row's form, fills it, sends it past the browser's checks and reads what the field says. */
  async function check(page: Page, row: Row): Promise<void> {
    await page.goto(await row.path());
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await row.open?.(page);
    const scope = row.within?.(page) ?? page;
    const exact = !row.inexact;
    for (const [label, value] of row.fill) {
      const input = scope.getByLabel(label, { exact });
      if (value.startsWith('select:')) await input.selectOption({ label: value.slice('select:'.length) });
      else await input.fill(value);
    }
    // The browser's own checks are left out, as an older browser would: the API's answer is what is shown.
    await page.evaluate("document.querySelectorAll('form').forEach((f) => { f.noValidate = true; })");
    await scope.getByRole('button', { name: row.submit, exact: typeof row.submit === 'string' }).click();
    const field = scope.getByLabel(row.field, { exact });
    await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 20_000 }).toBe('true');
    const said = await description(field);
    expect(said).toMatch(
      typeof row.said === 'string' ? new RegExp(row.said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : row.said,
    );
    expect(said).not.toMatch(SCHEMA_WORDS);
    // Nothing else on the page speaks in request paths or schema words either.
    expect(await page.locator('main').innerText()).not.toMatch(SCHEMA_WORDS);
  }

  it('passes axe with the refusals shown (one page of each kind)', async () => {
    const page = pages.alice!;
    await page.goto('/vertical-farm');
    await page.getByLabel('Farm name', { exact: true }).fill('Dock Greens');
    await page.getByLabel('Floor area (m²)', { exact: true }).fill('0');
    await page.getByLabel('Levels', { exact: true }).fill('0');
    await page.getByLabel('Latitude', { exact: true }).fill('52.1');
    await page.getByLabel('Longitude', { exact: true }).fill('5.1');
    await page.evaluate("document.querySelectorAll('form').forEach((f) => { f.noValidate = true; })");
    await page.getByRole('button', { name: 'Register the farm' }).click();
    await expect
      .poll(() => page.getByLabel('Floor area (m²)', { exact: true }).getAttribute('aria-invalid'))
      .toBe('true');
    await expectAccessible(page);
  });
});
