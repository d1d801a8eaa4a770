import type { Role } from '@rootline/contracts';
import { listingInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxAbout, startDemandPlatform, type TestPlatform } from './support.js';

describe('marketplace offers over HTTP', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startDemandPlatform();
  });
  afterAll(async () => p?.stop());

  const listing = async (quantity: number, sub = 'usr_seller') =>
    (await p.http('POST', '/api/marketplace/listings', { role: 'GROWER', sub, body: listingInput({ quantity }) })).body
      .data.id as string;
  const offer = async (listingId: string, buyer: string, quantity: number, price = 350) => {
    const res = await p.http('POST', `/api/marketplace/listings/${listingId}/offers`, {
      role: 'USER',
      sub: buyer,
      body: { quantity, price },
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const act = (offerId: string, action: string, sub: string, body?: unknown, role: Role = 'USER') =>
    p.http('POST', `/api/marketplace/offers/${offerId}/${action}`, { role, sub, ...(body ? { body } : {}) });

  it('accepting sells the quantity, rejects offers it makes impossible and emits the events', async () => {
    const id = await listing(5);
    const big = await offer(id, 'usr_b1', 3);
    const small = await offer(id, 'usr_b2', 2);
    const tooBig = await offer(id, 'usr_b3', 4);
    const accepted = await act(big, 'accept', 'usr_seller');
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: 'accepted', quantity: 3, buyerId: 'usr_b1' });
    const after = await p.http('GET', `/api/marketplace/listings/${id}`, { role: 'USER', sub: 'usr_b1' });
    expect(after.body.data).toMatchObject({ quantity: 2, status: 'active' });
    const offers = await p.http('GET', `/api/marketplace/listings/${id}/offers`, { role: 'GROWER', sub: 'usr_seller' });
    const statuses = Object.fromEntries(
      offers.body.data.map((o: { id: string; status: string; rejectionReason: string | null }) => [
        o.id,
        [o.status, o.rejectionReason],
      ]),
    );
    expect(statuses).toEqual({
      [big]: ['accepted', null],
      [small]: ['pending', null],
      [tooBig]: ['rejected', 'sold-out'],
    });
    expect((await outboxAbout(p, tooBig)).map((e) => [e.subject, e.payload.reason])).toEqual([
      ['evt.demand.offer.made', undefined],
      ['evt.demand.offer.rejected', 'sold-out'],
    ]);
    // The last two units: the listing is sold.
    expect((await act(small, 'accept', 'usr_seller')).status).toBe(200);
    const sold = await p.http('GET', `/api/marketplace/listings/${id}`, { role: 'USER', sub: 'usr_b1' });
    expect(sold.body.data).toMatchObject({ quantity: 0, status: 'sold' });
    expect((await outboxAbout(p, id)).map((e) => e.subject)).toContain('evt.demand.listing.sold');
    const late = await p.http('POST', `/api/marketplace/listings/${id}/offers`, {
      role: 'USER',
      sub: 'usr_b4',
      body: { quantity: 1, price: 100 },
    });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: 'CONFLICT', message: 'The listing is sold: it takes no offers' });
  });

  it('counters, and the buyer accepts at the counter price; turns are enforced', async () => {
    const id = await listing(4);
    const o = await offer(id, 'usr_c1', 1, 300);
    const outOfTurn = await act(o, 'accept', 'usr_c1');
    expect(outOfTurn.status).toBe(403);
    expect(outOfTurn.body.error.message).toMatch(/awaits the seller/);
    expect((await act(o, 'counter', 'usr_c1', { price: 1 })).status).toBe(403);
    const countered = await act(o, 'counter', 'usr_seller', { price: 360 });
    expect(countered.body.data).toMatchObject({ status: 'countered', counterPrice: 360 });
    expect((await act(o, 'accept', 'usr_seller')).status).toBe(403);
    const accepted = await act(o, 'accept', 'usr_c1');
    expect(accepted.body.data.status).toBe('accepted');
    const events = await outboxAbout(p, o);
    expect(events.map((e) => e.subject)).toEqual([
      'evt.demand.offer.made',
      'evt.demand.offer.countered',
      'evt.demand.offer.accepted',
    ]);
    expect(events[2]?.payload).toMatchObject({ price: 360, buyerId: 'usr_c1', sellerId: 'usr_seller' });
    const again = await act(o, 'withdraw', 'usr_c1');
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', message: 'The offer is already accepted' });
  });

  it('rejects and withdraws; strangers get 404 and the seller cannot bid on their own listing', async () => {
    const id = await listing(3);
    const a = await offer(id, 'usr_r1', 1);
    const b = await offer(id, 'usr_r2', 1);
    expect((await act(a, 'reject', 'usr_seller')).body.data.status).toBe('rejected');
    expect((await act(b, 'withdraw', 'usr_seller')).status).toBe(403);
    expect((await act(b, 'withdraw', 'usr_r2')).body.data.status).toBe('withdrawn');
    expect((await act(b, 'accept', 'usr_stranger')).status).toBe(404);
    const own = await p.http('POST', `/api/marketplace/listings/${id}/offers`, {
      role: 'GROWER',
      sub: 'usr_seller',
      body: { quantity: 1, price: 1 },
    });
    expect(own.status).toBe(403);
    const tooMany = await p.http('POST', `/api/marketplace/listings/${id}/offers`, {
      role: 'USER',
      sub: 'usr_r3',
      body: { quantity: 4, price: 1 },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details[0].field).toBe('body/quantity');
    const buyerView = await p.http('GET', `/api/marketplace/listings/${id}/offers`, { role: 'USER', sub: 'usr_r2' });
    expect(buyerView.body.data.map((o: { id: string }) => o.id)).toEqual([b]);
  });

  it('records a retried listing and offer once (Idempotency-Key)', async () => {
    const send = async (role: Role, sub: string, url: string, key: string, body: object) =>
      p.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${await p.token(role, sub)}`, 'idempotency-key': key },
        payload: body,
      });
    const body = listingInput({ title: 'Retried listing' });
    const first = await send('GROWER', 'usr_retry', '/api/marketplace/listings', 'listing-key-0001-abcdef', body);
    const again = await send('GROWER', 'usr_retry', '/api/marketplace/listings', 'listing-key-0001-abcdef', body);
    expect(first.statusCode).toBe(201);
    expect(again.json().data).toEqual(first.json().data);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const listingId = first.json().data.id;
    const offerBody = { quantity: 1, price: 100 };
    const url = `/api/marketplace/listings/${listingId}/offers`;
    const o1 = await send('USER', 'usr_retry_buyer', url, 'offer-key-0001-abcdefgh', offerBody);
    const o2 = await send('USER', 'usr_retry_buyer', url, 'offer-key-0001-abcdefgh', offerBody);
    expect(o2.json().data.id).toBe(o1.json().data.id);
    const counted = (await p.database.db.execute(
      sql`select (select count(*)::int from demand.listings where title = 'Retried listing') as listings,
        (select count(*)::int from demand.offers where listing_id = ${listingId}) as offers`,
    )) as unknown as { listings: number; offers: number }[];
    expect(counted).toEqual([{ listings: 1, offers: 1 }]);
  });

  describe.each<Role>(['USER', 'GROWER', 'FARM_MANAGER'])('offer ownership as %s', (role) => {
    const sub = `usr_party_${role.toLowerCase()}`;

    it('answers offers on its own listing, acts on its own offers, and nobody else’s', async () => {
      // As seller: the caller's listing, a buyer's offer countered and accepted by the right parties.
      const own = (
        await p.http('POST', '/api/marketplace/listings', { role, sub, body: listingInput({ quantity: 3 }) })
      ).body.data.id;
      const incoming = await offer(own, 'usr_some_buyer', 1);
      expect((await act(incoming, 'counter', sub, { price: 390 }, role)).body.data.status).toBe('countered');
      expect((await act(incoming, 'accept', sub, undefined, role)).status).toBe(403);
      expect((await act(incoming, 'accept', 'usr_some_buyer')).body.data.status).toBe('accepted');
      // As buyer: an offer on another seller's listing, which it may withdraw but not accept or counter.
      const theirs = await listing(3, 'usr_other_seller');
      const mine = (
        await p.http('POST', `/api/marketplace/listings/${theirs}/offers`, {
          role,
          sub,
          body: { quantity: 1, price: 10 },
        })
      ).body.data.id;
      expect((await act(mine, 'accept', sub, undefined, role)).status).toBe(403);
      expect((await act(mine, 'counter', sub, { price: 5 }, role)).status).toBe(403);
      // Someone else's offer on someone else's listing is not the caller's business.
      const stranger = await offer(theirs, 'usr_third_party', 1);
      expect((await act(stranger, 'reject', sub, undefined, role)).status).toBe(404);
      expect((await act(stranger, 'withdraw', sub, undefined, role)).status).toBe(404);
      expect((await act(mine, 'withdraw', sub, undefined, role)).body.data.status).toBe('withdrawn');
    });
  });

  it('lets an ADMIN act for either party', async () => {
    const id = await listing(2);
    const o = await offer(id, 'usr_ad_buyer', 1);
    expect((await act(o, 'counter', 'usr_admin', { price: 200 }, 'ADMIN')).body.data.status).toBe('countered');
    expect((await act(o, 'accept', 'usr_admin', undefined, 'ADMIN')).body.data.status).toBe('accepted');
  });

  it('two buyers racing for the last item: exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await listing(1);
      const buyers = ['usr_race_a', 'usr_race_b', 'usr_race_c', 'usr_race_d'];
      const offers = await Promise.all(buyers.map((b) => offer(id, b, 1)));
      // The seller counters each; then every buyer accepts at the same moment.
      for (const o of offers) expect((await act(o, 'counter', 'usr_seller', { price: 380 })).status).toBe(200);
      const answers = await Promise.all(offers.map((o, i) => act(o, 'accept', buyers[i] as string)));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      for (const lost of answers.filter((a) => a.status === 409)) {
        expect(lost.body.error).toMatchObject({
          code: 'CONFLICT',
          message: 'The listing is sold: nothing left to sell',
        });
      }
      const rows = (await p.database.db.execute(
        sql`select status, count(*)::int as n from demand.offers where listing_id = ${id} group by status order by status`,
      )) as unknown as { status: string; n: number }[];
      expect(rows).toEqual([
        { status: 'accepted', n: 1 },
        { status: 'rejected', n: 3 },
      ]);
      // Each loser reads why: another buyer took the last unit.
      for (const [i, lost] of answers.entries()) {
        if (lost.status !== 409) continue;
        const mine = await p.http('GET', '/api/marketplace/offers', { role: 'USER', sub: buyers[i] as string });
        const theirs = mine.body.data.find((o: { id: string }) => o.id === offers[i]);
        expect(theirs).toMatchObject({ status: 'rejected', rejectionReason: 'sold-out' });
      }
      const l = await p.http('GET', `/api/marketplace/listings/${id}`, { role: 'USER', sub: 'usr_x' });
      expect(l.body.data).toMatchObject({ quantity: 0, status: 'sold' });
    }
  });

  it('lists a buyer’s own offers, newest first with their listing, each rejection with its reason', async () => {
    const buyer = 'usr_my_offers';
    const declined = await offer(await listing(2), buyer, 1);
    const counterDeclined = await offer(await listing(2), buyer, 1);
    const unpublished = await listing(2);
    const paused = await offer(unpublished, buyer, 1);
    const cancelled = await listing(2);
    const gone = await offer(cancelled, buyer, 1);
    const contested = await listing(2);
    const soldOut = await offer(contested, buyer, 2);
    const winner = await offer(contested, 'usr_my_offers_rival', 1);
    const open = await offer(await listing(3), buyer, 1);
    await offer(contested, 'usr_my_offers_rival', 1);
    expect((await act(declined, 'reject', 'usr_seller')).body.data.rejectionReason).toBe('declined');
    await act(counterDeclined, 'counter', 'usr_seller', { price: 900 });
    expect((await act(counterDeclined, 'reject', buyer)).body.data.rejectionReason).toBe('counter-declined');
    const seller = { role: 'GROWER' as const, sub: 'usr_seller' };
    await p.http('POST', `/api/marketplace/listings/${unpublished}/status`, { ...seller, body: { status: 'draft' } });
    await p.http('DELETE', `/api/marketplace/listings/${cancelled}`, seller);
    expect((await act(winner, 'accept', 'usr_seller')).status).toBe(200);

    const mine = await p.http('GET', '/api/marketplace/offers', { role: 'USER', sub: buyer });
    expect(mine.status).toBe(200);
    expect(mine.body.pagination).toEqual({ page: 1, limit: 20, total: 6, totalPages: 1 });
    const seen = mine.body.data.map((o: { id: string; buyerId: string; status: string; rejectionReason: string }) => [
      o.id,
      o.buyerId,
      o.status,
      o.rejectionReason,
    ]);
    // Newest first, and nobody else's: the rival's offers on the same listing are not in it.
    expect(seen).toEqual([
      [open, buyer, 'pending', null],
      [soldOut, buyer, 'rejected', 'sold-out'],
      [gone, buyer, 'rejected', 'listing-cancelled'],
      [paused, buyer, 'rejected', 'listing-unpublished'],
      [counterDeclined, buyer, 'rejected', 'counter-declined'],
      [declined, buyer, 'rejected', 'declined'],
    ]);
    expect(mine.body.data[1].listing).toEqual({
      id: contested,
      title: expect.stringMatching(/^Heirloom tomatoes \d+$/),
      price: 400,
      currency: 'EUR',
      quantity: 1,
      status: 'active',
    });
    expect(mine.body.data[2].listing.status).toBe('cancelled');

    const rejected = await p.http('GET', '/api/marketplace/offers?status=rejected&limit=2&page=2', {
      role: 'USER',
      sub: buyer,
    });
    expect(rejected.body.data.map((o: { id: string }) => o.id)).toEqual([paused, counterDeclined]);
    expect(rejected.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });

    // Another buyer's list is their own; naming someone else is refused, except to an ADMIN.
    const rival = await p.http('GET', '/api/marketplace/offers', { role: 'USER', sub: 'usr_my_offers_rival' });
    expect(rival.body.data.every((o: { buyerId: string }) => o.buyerId === 'usr_my_offers_rival')).toBe(true);
    expect(rival.body.data).toHaveLength(2);
    const prying = await p.http('GET', `/api/marketplace/offers?buyerId=${buyer}`, {
      role: 'USER',
      sub: 'usr_my_offers_rival',
    });
    expect(prying.status).toBe(403);
    expect(prying.body.error.details).toMatchObject({ field: 'buyerId', reason: 'not-self' });
    const admin = await p.http('GET', `/api/marketplace/offers?buyerId=${buyer}`, { role: 'ADMIN', sub: 'usr_admin' });
    expect(admin.body.data.map((o: { id: string }) => o.id)).toEqual(seen.map((r: string[]) => r[0]));
    expect((await p.http('GET', '/api/marketplace/offers')).status).toBe(401);
  });

  it('reviews make the seller profile’s rating; only the buyer reviews, once', async () => {
    const id = await listing(2, 'usr_rated');
    const o1 = await offer(id, 'usr_rv1', 1);
    const o2 = await offer(id, 'usr_rv2', 1);
    await act(o1, 'accept', 'usr_rated');
    await act(o2, 'accept', 'usr_rated');
    expect((await act(o1, 'review', 'usr_rated', { rating: 5 })).status).toBe(403);
    expect((await act(o1, 'review', 'usr_rv1', { rating: 5, comment: 'Great' })).status).toBe(201);
    expect((await act(o1, 'review', 'usr_rv1', { rating: 1 })).status).toBe(409);
    expect((await act(o2, 'review', 'usr_rv2', { rating: 4 })).status).toBe(201);
    expect((await act(o2, 'review', 'usr_rv2', { rating: 6 })).status).toBe(400);
    await listing(1, 'usr_rated');
    const profile = await p.http('GET', '/api/marketplace/sellers/usr_rated');
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({
      sellerId: 'usr_rated',
      activeListings: 1,
      completedSales: 2,
      unitsSold: 2,
      rating: { average: 4.5, count: 2 },
      categories: ['produce'],
    });
    expect((await p.http('GET', '/api/marketplace/sellers/usr_never_sold')).status).toBe(404);
  });

  it('keeps wishlists private and recommends matching listings nearby', async () => {
    await p.http('POST', '/api/marketplace/listings', {
      role: 'GROWER',
      sub: 'usr_basil_seller',
      body: listingInput({ title: 'Genovese basil plants', crop: 'basil', category: 'plants', price: 300 }),
    });
    const added = await p.http('POST', '/api/marketplace/wishlist', {
      role: 'USER',
      sub: 'usr_wisher',
      body: { q: 'genovese', maxPrice: 350 },
    });
    expect(added.status).toBe(201);
    expect((await p.http('POST', '/api/marketplace/wishlist', { role: 'USER', sub: 'u', body: {} })).status).toBe(400);
    const list = await p.http('GET', '/api/marketplace/wishlist', { role: 'USER', sub: 'usr_wisher' });
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([added.body.data.id]);
    const recs = await p.http('GET', '/api/marketplace/recommendations?lat=52.37&lon=4.89', {
      role: 'USER',
      sub: 'usr_wisher',
    });
    expect(recs.status).toBe(200);
    expect(recs.body.data[0].listing.title).toBe('Genovese basil plants');
    expect(recs.body.data[0].reasons).toContain('matches your wishlist');
    expect(recs.body.data[0].reasonCodes).toContainEqual({ code: 'wishlist', params: {} });
    const removeOther = await p.http('DELETE', `/api/marketplace/wishlist/${added.body.data.id}`, {
      role: 'ADMIN',
      sub: 'usr_admin',
    });
    expect(removeOther.status).toBe(404);
    const removed = await p.http('DELETE', `/api/marketplace/wishlist/${added.body.data.id}`, {
      role: 'USER',
      sub: 'usr_wisher',
    });
    expect(removed.body.data).toEqual({ id: added.body.data.id, removed: true });
  });

  it('searches active listings by text, category, price and distance', async () => {
    const make = (title: string, latitude: number, price = 500) =>
      p.http('POST', '/api/marketplace/listings', {
        role: 'GROWER',
        sub: 'usr_searcher',
        body: listingInput({
          title,
          category: 'seeds',
          price,
          location: { latitude, longitude: 5.0, city: 'Somewhere', country: 'NL' },
        }),
      });
    await make('Crème Brûlée squash seeds', 52.0);
    await make('Creme brulee squash, organic seeds', 52.3);
    await make('Brûlée squash seeds far away', 54.0);
    await make('Brulee squash seeds, pricey', 52.01, 5000);
    const res = await p.http(
      'GET',
      '/api/marketplace/listings/search?q=BRULEE%20squash&category=seeds&maxPrice=1000&lat=52&lon=5&radius=50',
      { role: 'USER', sub: 'usr_x' },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { title: string }) => l.title)).toEqual([
      'Crème Brûlée squash seeds',
      'Creme brulee squash, organic seeds',
    ]);
    expect(res.body.data[1].distanceKm).toBeCloseTo(33.36, 1);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    const half = await p.http('GET', '/api/marketplace/listings/search?q=squash&lat=52', { role: 'USER', sub: 'x' });
    expect(half.status).toBe(400);
  });
});
