import { signInOverHttp } from '@rootline/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  startBrowserRig,
} from './support/browser.js';

// The marketplace as its people use it: a seller lists a plant and handles offers, buyers browse, offer and buy, each
// in a browser of their own, and each page follows what the others do without a reload.

/** A test drives several pages against a cluster on a busy machine: it may take well over the default 30 s. */
const STEP_MS = 180_000;

const stamp = Date.now();
const SELLER = { name: 'Sam Seller', email: `sam-${stamp}@example.org`, password: 'seeds for sale, fairly priced' };
const BUYER = { name: 'Bea Buyer', email: `bea-${stamp}@example.org`, password: 'looking for good tomatoes' };
const LATE = { name: 'Lou Late', email: `lou-${stamp}@example.org`, password: 'always one step behind' };

interface Person {
  token: string;
  id: string;
}

async function account(rig: BrowserRig, who: typeof SELLER): Promise<Person> {
  await fetch(`${rig.base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  const token = await signInOverHttp(rig.base, who.email, who.password);
  const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
  return { token, id: session.user.id };
}

async function signIn(context: BrowserContext, who: typeof SELLER): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/signin');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
  return page;
}

/** A mark the page's document keeps until it is reloaded: the same answer twice means nothing was reloaded. */
const loads = (page: Page) => page.evaluate('window.loadMark ??= Math.random()');

const listing = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: 'Grown without peat, picked up from the garden gate.',
  category: 'seedlings',
  price: 300,
  currency: 'EUR',
  quantity: 5,
  location: { latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
  privacyLevel: 'exact',
  ...extra,
});

describe('the marketplace in the browser: list, browse, offer, counter, sell', () => {
  let rig: BrowserRig;
  let seller: Person;
  let buyer: Person;
  let sellerPage: Page;
  let buyerPage: Page;
  let listingUrl: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    seller = await account(rig, SELLER);
    buyer = await account(rig, BUYER);
    await account(rig, LATE);
    // A mother plant and its cutting: the cutting's listing carries a lineage of one ancestor.
    const mother = await call(rig, seller.token, 'POST', '/api/plants/register', {
      commonName: 'Black Krim tomato',
      location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
      owner: { id: seller.id, name: SELLER.name },
    });
    await call(rig, seller.token, 'POST', '/api/plants/clone', {
      parentPlantId: mother.id,
      propagationType: 'cutting',
      newPlant: {
        location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
        owner: { id: seller.id, name: SELLER.name },
      },
    });
    sellerPage = await signIn(await rig.context(), SELLER);
    buyerPage = await signIn(await rig.context(), BUYER);
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it(
    'lists a plant as a draft, and offers exactly the moves its state allows: publish, pause, publish',
    async () => {
      const page = sellerPage;
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Marketplace' }).click();
      await page.getByRole('heading', { level: 1, name: 'Marketplace' }).waitFor();
      await page.getByRole('navigation', { name: 'Marketplace' }).getByRole('link', { name: 'Sell something' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sell something' }).waitFor();
      // Two plants of that name, told apart by their generation: the cutting is the second.
      await page.getByLabel('Plant', { exact: true }).selectOption({ label: 'Black Krim tomato · generation 1' });
      expect(await page.getByLabel('Title').inputValue()).toBe('Black Krim tomato');
      expect(await page.getByLabel('Latitude').inputValue()).toBe('52.09');
      await page.getByLabel('Title').fill('Black Krim tomato cutting');
      await page.getByLabel('Description').fill('A rooted cutting of an heirloom Black Krim.');
      await page.getByLabel('Category').selectOption('cuttings');
      await page.getByLabel('Quantity').fill('1');
      await page.getByLabel('Price per unit (EUR)').fill('4.50');
      await page.getByLabel('Privacy of the location').selectOption('exact');
      await page.getByLabel('Save as a draft (publish it later)').check();
      await expectAccessible(page);
      await screenshot(page, 'market-sell');
      await page.getByRole('button', { name: 'Create the listing' }).click();
      await page.getByRole('heading', { level: 1, name: 'Black Krim tomato cutting' }).waitFor({ timeout: 30_000 });
      listingUrl = new URL(page.url()).pathname;
      expect(listingUrl).toMatch(/^\/market\/listings\/lst_/);
      await page.getByText('A draft: only you can see it.').waitFor();

      const manage = page.getByRole('region', { name: 'Manage this listing' });
      const moves = async () => (await manage.getByRole('button').allTextContents()).sort();
      expect(await moves()).toEqual(['Cancel the listing', 'Edit', 'Publish']);
      // The listing's lineage as stored with it: the mother plant, and the plant's live graph and certificate.
      const lineage = page.getByRole('region', { name: 'Lineage on the listing' });
      expect(await lineage.getByRole('link', { name: 'Black Krim tomato' }).count()).toBe(1);
      // The graph and certificate at the page's foot are mounted when scrolled near: scroll to the footer below them.
      await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
      await expect.poll(() => page.getByRole('region', { name: 'Lineage graph' }).getAttribute('data-nodes')).toBe('2');
      expect(await page.getByRole('region', { name: 'Certificate of authenticity' }).count()).toBe(1);
      await expectAccessible(page);

      // A draft is the seller's alone: to anyone else it does not exist.
      await buyerPage.goto(listingUrl);
      await buyerPage.getByRole('heading', { level: 1, name: 'Listing' }).waitFor();
      expect(await buyerPage.getByRole('alert').textContent()).toMatch(/not found/i);
      await expectAccessible(buyerPage);

      await manage.getByRole('button', { name: 'Publish' }).click();
      await manage.getByText('The listing is now active.').waitFor();
      expect(await moves()).toEqual(['Cancel the listing', 'Edit', 'Pause (back to draft)']);
      await manage.getByRole('button', { name: 'Pause (back to draft)' }).click();
      await manage.getByText('The listing is now draft.').waitFor();
      expect(await moves()).toEqual(['Cancel the listing', 'Edit', 'Publish']);
      await manage.getByRole('button', { name: 'Publish' }).click();
      await manage.getByText('The listing is now active.').waitFor();

      // Editing: a price change shows on the page.
      await manage.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Price per unit (EUR)').fill('5');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('region', { name: 'Details' }).getByText('€5.00').waitFor();
      await screenshot(page, 'market-listing-seller');

      await page.getByRole('navigation', { name: 'Marketplace' }).getByRole('link', { name: 'My listings' }).click();
      await page.getByRole('heading', { level: 1, name: 'My listings' }).waitFor();
      const row = page.getByRole('row', { name: /Black Krim tomato cutting/ });
      await row.getByText('Active').waitFor();
      await expectAccessible(page);
    },
    STEP_MS,
  );

  it(
    'a cancelled listing offers nothing more, and the API would refuse any move',
    async () => {
      const created = await call(rig, seller.token, 'POST', '/api/marketplace/listings', listing('Spare basil pots'));
      await sellerPage.goto(`/market/listings/${created.id}`);
      const manage = sellerPage.getByRole('region', { name: 'Manage this listing' });
      sellerPage.once('dialog', (d) => void d.accept());
      await manage.getByRole('button', { name: 'Cancel the listing' }).click();
      await sellerPage.getByText('Cancelled by the seller. This listing is no longer available.').waitFor();
      expect(await manage.getByRole('button').count()).toBe(0);
      await manage.getByText('This listing is cancelled: nothing more can be done with it.').waitFor();
      const refused = await fetch(`${rig.base}/api/marketplace/listings/${created.id}/status`, {
        method: 'POST',
        headers: { authorization: `Bearer ${seller.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'active' }),
      });
      expect(refused.status).toBe(409);
    },
    STEP_MS,
  );

  it(
    'browses and searches by words, category, price range and distance, as a list and on a map',
    async () => {
      // Twelve lettuces in Rotterdam (two pages of ten), a pricey one, and produce in Berlin.
      for (let i = 1; i <= 12; i++) {
        await call(
          rig,
          seller.token,
          'POST',
          '/api/marketplace/listings',
          listing(`Butterhead lettuce tray ${i}`, {
            price: 200 + i,
            location: { latitude: 51.88 + i * 0.015, longitude: 4.4 + i * 0.02, city: 'Rotterdam', country: 'NL' },
          }),
        );
      }
      await call(rig, seller.token, 'POST', '/api/marketplace/listings', listing('Golden lettuce', { price: 9900 }));
      await call(
        rig,
        seller.token,
        'POST',
        '/api/marketplace/listings',
        listing('Lettuce heads', {
          category: 'produce',
          location: { latitude: 52.52, longitude: 13.4, city: 'Berlin', country: 'DE' },
        }),
      );
      const page = buyerPage;
      await page.goto('/market');
      await page.getByRole('heading', { level: 1, name: 'Marketplace' }).waitFor();
      await page.getByLabel('Words in the title or description').fill('lettuce');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const results = page.getByRole('region', { name: /listings? found/ });
      await results.getByRole('heading', { name: '14 listings found' }).waitFor();
      expect(await results.getByRole('listitem').count()).toBe(10);
      await results.getByRole('button', { name: 'Next page' }).click();
      await results.getByText('Page 2 of 2').waitFor();
      await expect.poll(() => results.getByRole('listitem').count()).toBe(4);
      await expectAccessible(page);

      await page.getByLabel('Category').selectOption('produce');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await results.getByRole('heading', { name: '1 listing found' }).waitFor();
      expect(await results.getByRole('link').allTextContents()).toEqual(['Lettuce heads']);
      // A card names who sells it, as a shop would.
      await results.getByRole('listitem').getByText(`Sold by ${SELLER.name}`).waitFor();
      await screenshot(page, 'market-cards');

      await page.getByLabel('Category').selectOption('');
      await page.getByLabel('Lowest price per unit').fill('50');
      await page.getByLabel('Highest price per unit').fill('100');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      // The previous search also found one: wait for this one's answer.
      await results.getByRole('link', { name: 'Golden lettuce' }).waitFor();
      await results.getByRole('heading', { name: '1 listing found' }).waitFor();
      expect(await results.getByRole('link').allTextContents()).toEqual(['Golden lettuce']);

      // Within 30 km of Rotterdam: only the twelve trays, nearest first with their distance.
      await page.getByLabel('Lowest price per unit').fill('');
      await page.getByLabel('Highest price per unit').fill('');
      await page.getByLabel('Latitude').fill('51.92');
      await page.getByLabel('Longitude').fill('4.47');
      await page.getByLabel('Radius in km').fill('30');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await results.getByRole('heading', { name: '12 listings found' }).waitFor();
      expect(await results.getByText(/km away/).count()).toBe(10);
      await page.getByRole('radio', { name: 'Map' }).check();
      const map = results.getByRole('region', { name: 'Map of the listings found' });
      await expect.poll(() => map.getAttribute('data-markers')).toBe('10');
      await expectAccessible(page);
      await screenshot(page, 'market-browse-map');

      // A listing published elsewhere joins the open results, without a reload.
      await page.locator('header').getByText('Live', { exact: true }).waitFor();
      const before = await loads(page);
      await call(
        rig,
        seller.token,
        'POST',
        '/api/marketplace/listings',
        listing('Butterhead lettuce tray 13', {
          location: { latitude: 51.93, longitude: 4.47, city: 'Rotterdam', country: 'NL' },
        }),
      );
      await results.getByRole('heading', { name: '13 listings found' }).waitFor({ timeout: 30_000 });
      expect(await loads(page)).toBe(before);
    },
    STEP_MS,
  );

  it(
    'a sale through offers: the buyer offers, the seller sees it live and counters, the buyer accepts live',
    async () => {
      // A second buyer, at phone width, whose page gets no live updates: it will act on what it saw last.
      const lateContext = await rig.context({ width: 390, height: 844 });
      await lateContext.routeWebSocket(/\/api\/realtime\/ws/, (ws) => ws.close());
      await lateContext.route('**/api/transparency/events**', (route) => route.abort());
      const latePage = await signIn(lateContext, LATE);

      await sellerPage.goto(listingUrl);
      await sellerPage.getByRole('region', { name: 'Offers' }).getByText('No offers yet.').waitFor();
      await sellerPage.locator('header').getByText('Live', { exact: true }).waitFor();
      const sellerLoads = await loads(sellerPage);

      await buyerPage.goto('/market');
      await buyerPage.getByLabel('Words in the title or description').fill('black krim');
      await buyerPage.getByRole('button', { name: 'Search', exact: true }).click();
      await buyerPage.getByRole('link', { name: 'Black Krim tomato cutting' }).click();
      await buyerPage.getByRole('heading', { level: 1, name: 'Black Krim tomato cutting' }).waitFor();
      await buyerPage.locator('header').getByText('Live', { exact: true }).waitFor();
      const buyerLoads = await loads(buyerPage);
      const buyerOffers = buyerPage.getByRole('region', { name: 'Offers' });
      await buyerOffers.getByLabel('Your price per unit (EUR)').fill('3.50');
      await buyerOffers.getByLabel('Message to the seller (optional)').fill('Could you do 3.50?');
      await expectAccessible(buyerPage);
      await buyerOffers.getByRole('button', { name: 'Send the offer' }).click();
      await buyerOffers.getByText('Offer sent. The seller has been told.').waitFor();
      await buyerOffers.getByText('Awaiting the seller', { exact: true }).waitFor();

      // The buyer follows the offer from "My offers", a tab of the marketplace.
      await buyerPage.getByRole('navigation', { name: 'Marketplace' }).getByRole('link', { name: 'My offers' }).click();
      await buyerPage.getByRole('heading', { level: 1, name: 'My offers' }).waitFor();
      const myOffer = buyerPage.getByRole('row', { name: /Black Krim tomato cutting/ });
      await myOffer.getByText('Awaiting the seller', { exact: true }).waitFor();
      expect(await myOffer.getByText('1 × €3.50').count()).toBe(1);
      await myOffer.getByRole('link', { name: 'Sam Seller' }).waitFor();
      await expectAccessible(buyerPage);

      await latePage.goto(listingUrl);
      const lateOffers = latePage.getByRole('region', { name: 'Offers' });
      await lateOffers.getByLabel('Your price per unit (EUR)').fill('4');
      await lateOffers.getByRole('button', { name: 'Send the offer' }).click();
      await lateOffers.getByText('Offer sent. The seller has been told.').waitFor();

      // The seller's open page shows both offers as they arrive.
      const sellerOffers = sellerPage.getByRole('region', { name: 'Offers' });
      const beaOffer = sellerOffers.getByRole('listitem', { name: 'Offer of 1 at €3.50' });
      const louOffer = sellerOffers.getByRole('listitem', { name: 'Offer of 1 at €4.00' });
      await beaOffer.getByText('Could you do 3.50?').waitFor({ timeout: 30_000 });
      await louOffer.waitFor({ timeout: 30_000 });
      await sellerOffers.getByText('2 offers, 2 open').waitFor();
      // The seller sees who offered by name; the account id waits under Details.
      await beaOffer.getByText('Bea Buyer', { exact: true }).waitFor();
      await louOffer.getByText('Lou Late', { exact: true }).waitFor();
      expect(await beaOffer.getByText(buyer.id).isVisible()).toBe(false);
      await beaOffer.getByText('Details').click();
      expect(await beaOffer.getByText(buyer.id).isVisible()).toBe(true);
      await screenshot(sellerPage, 'market-offers-named');
      await expectAccessible(sellerPage);
      await beaOffer.getByLabel('Counter price per unit (EUR)').fill('4.25');
      await beaOffer.getByRole('button', { name: 'Send the counter' }).click();
      await beaOffer.getByText('Countered: awaiting the buyer').waitFor();
      await louOffer.getByLabel('Counter price per unit (EUR)').fill('4.75');
      await louOffer.getByRole('button', { name: 'Send the counter' }).click();
      await louOffer.getByText('Countered: awaiting the buyer').waitFor();
      await screenshot(sellerPage, 'market-offers-seller');

      // The buyer's open list shows the counter as it comes; the late buyer sees theirs only on reloading.
      await myOffer.getByText('Countered: awaiting the buyer').waitFor({ timeout: 30_000 });
      await myOffer.getByText('countered at €4.25').waitFor();
      await screenshot(buyerPage, 'market-my-offers');
      await myOffer.getByRole('link', { name: 'Black Krim tomato cutting' }).click();
      await buyerPage.getByRole('heading', { level: 1, name: 'Black Krim tomato cutting' }).waitFor();
      const counter = buyerOffers.getByRole('listitem', { name: 'Offer of 1 at €3.50' });
      await counter.getByText('Countered: awaiting the buyer').waitFor();
      await counter.getByText('€4.25').waitFor();
      await latePage.reload();
      await lateOffers.getByRole('button', { name: 'Accept the counter' }).waitFor();

      await counter.getByRole('button', { name: 'Accept the counter' }).click();
      await counter.getByText('You bought 1 at €4.25 each.').waitFor();
      await buyerPage.getByText('Sold: every unit has gone to a buyer.').waitFor();
      await expectAccessible(buyerPage);
      await screenshot(buyerPage, 'market-listing-bought');

      // The seller's page shows the sale without a reload; the last unit is gone.
      await sellerOffers.getByText('Sold 1 at €4.25 each.').waitFor({ timeout: 30_000 });
      await sellerPage.getByText('Sold: every unit has gone to a buyer.').waitFor();
      await louOffer.getByText('Sold to another buyer', { exact: true }).waitFor();
      await sellerOffers.getByText('2 offers, 0 open').waitFor();
      const manage = sellerPage.getByRole('region', { name: 'Manage this listing' });
      await manage.getByText('This listing is sold: nothing more can be done with it.').waitFor();
      expect(await manage.getByRole('button').count()).toBe(0);
      expect(await loads(sellerPage)).toBe(sellerLoads);
      expect(await loads(buyerPage)).toBe(buyerLoads);

      // The late buyer still sees the counter; accepting it now is refused, said in a sentence rather than the API's
      // 409, and the page then shows the listing as it is: sold, the offer sold to another buyer.
      await lateOffers.getByRole('button', { name: 'Accept the counter' }).click();
      const refusal = lateOffers.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toBe(
        'Too late: another buyer bought just before you accepted, and not enough is left for this offer. ' +
          'Nothing was bought, and this offer is closed.',
      );
      await latePage.getByText('Sold: every unit has gone to a buyer.').waitFor();
      await lateOffers.getByText('Sold to another buyer', { exact: true }).waitFor();
      await lateOffers
        .getByText('Sold to another buyer: their offer was accepted first and took the units yours asked for.')
        .waitFor();
      expect(await lateOffers.getByRole('button', { name: 'Accept the counter' }).count()).toBe(0);
      await lateOffers.getByText('This listing takes no offers now.').waitFor();
      await expectAccessible(latePage);
      await screenshot(latePage, 'market-listing-sold-phone');

      // Their list of offers says the same: not a bare "Rejected", but why.
      await latePage.getByRole('navigation', { name: 'Marketplace' }).getByRole('link', { name: 'My offers' }).click();
      await latePage.getByRole('heading', { level: 1, name: 'My offers' }).waitFor();
      const lost = latePage.getByRole('row', { name: /Black Krim tomato cutting/ });
      await lost.getByText('Sold to another buyer', { exact: true }).waitFor();
      expect(await lost.getByText('Sold', { exact: true }).count()).toBe(1);
      await expectAccessible(latePage);
      await screenshot(latePage, 'market-my-offers-sold-out-phone');
      // And the buyer who won reads it accepted.
      await buyerPage.getByRole('navigation', { name: 'Marketplace' }).getByRole('link', { name: 'My offers' }).click();
      await myOffer.getByText('Accepted: sold', { exact: true }).waitFor();
      await buyerPage.goBack();
      await buyerPage.getByRole('heading', { level: 1, name: 'Black Krim tomato cutting' }).waitFor();
    },
    STEP_MS,
  );

  it(
    'rates the seller, whose profile shows the sale; keeps a wishlist and sees recommendations',
    async () => {
      const page = buyerPage;
      await page.getByLabel('Rating (1 poor – 5 excellent)').selectOption('4');
      await page.getByRole('button', { name: 'Send the rating' }).click();
      await page.getByText('Thank you: your rating counts towards the seller’s profile.').waitFor();
      // The listing names its seller, and the name leads to their profile.
      await page.getByRole('link', { name: 'Sam Seller' }).click();
      await page.getByRole('heading', { level: 1, name: 'Seller' }).waitFor();
      const record = page.getByRole('region', { name: 'Sam Seller' });
      await record.getByText('4.00 of 5 (1 rating)').waitFor();
      const facts = await record.locator('dd').allTextContents();
      expect(facts[1]).toBe('1');
      expect(facts[2]).toBe('1');
      expect(facts.some((f) => f.includes(seller.id))).toBe(true);
      const active = page.getByRole('region', { name: 'Active listings' });
      await active.getByRole('link', { name: 'Butterhead lettuce tray 12' }).waitFor();
      await expectAccessible(page);

      await page.getByRole('navigation', { name: 'Marketplace' }).getByRole('link', { name: 'Wishlist' }).click();
      await page.getByRole('heading', { level: 1, name: 'Wishlist and recommendations' }).waitFor();
      await page.getByText('Your wishlist is empty.').waitFor();
      await page.getByLabel('Words (optional)').fill('golden');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.getByText('“golden”').waitFor();
      const recommended = page.getByRole('region', { name: 'Recommended for you' });
      await recommended.getByRole('link', { name: 'Golden lettuce' }).waitFor();
      await recommended.getByText(/matches your wishlist/).waitFor();
      await expectAccessible(page);
      await screenshot(page, 'market-wishlist');
      await page.getByRole('button', { name: 'Remove “golden” from the wishlist' }).click();
      await page.getByText('Your wishlist is empty.').waitFor();
      await recommended.getByText('Nothing matches yet. Add something to your wishlist.').waitFor();
    },
    STEP_MS,
  );
});
