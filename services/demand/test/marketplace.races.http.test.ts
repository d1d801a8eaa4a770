import { listingInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxAbout, startDemandPlatform, type TestPlatform } from './support.js';

/** Rounds of each race: two conflicting moves sent at the same moment. */
const ROUNDS = 20;

describe('marketplace moves under races, over HTTP', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startDemandPlatform();
  });
  afterAll(async () => p?.stop());

  const listing = async (quantity: number) => {
    const res = await p.http('POST', '/api/marketplace/listings', {
      role: 'GROWER',
      sub: 'usr_race_seller',
      body: listingInput({ quantity }),
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const offer = async (listingId: string, quantity: number) => {
    const res = await p.http('POST', `/api/marketplace/listings/${listingId}/offers`, {
      role: 'USER',
      sub: 'usr_race_buyer',
      body: { quantity, price: 300 },
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const seller = { role: 'GROWER' as const, sub: 'usr_race_seller' };
  const buyer = { role: 'USER' as const, sub: 'usr_race_buyer' };
  const subjects = async (id: string) => (await outboxAbout(p, id)).map((e) => e.subject);

  it('an offer accepted and withdrawn at once: one 200, the other 409 naming the state, stored as acknowledged', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const listingId = await listing(5);
      const offerId = await offer(listingId, 2);
      const [accept, withdraw] = await Promise.all([
        p.http('POST', `/api/marketplace/offers/${offerId}/accept`, seller),
        p.http('POST', `/api/marketplace/offers/${offerId}/withdraw`, buyer),
      ]);
      const won = [accept, withdraw].filter((a) => a.status === 200);
      expect(won, `round ${round}: ${accept.status} ${withdraw.status}`).toHaveLength(1);
      const lost = accept.status === 200 ? withdraw : accept;
      expect(lost.status).toBe(409);
      expect(lost.body.error).toMatchObject({ code: 'CONFLICT', details: { offerStatus: won[0]!.body.data.status } });
      const stored = await p.http('GET', `/api/marketplace/listings/${listingId}/offers`, seller);
      const events = await subjects(offerId);
      const listed = await p.http('GET', `/api/marketplace/listings/${listingId}`, buyer);
      if (accept.status === 200) {
        expect(stored.body.data[0]).toMatchObject({ id: offerId, status: 'accepted' });
        expect(events).toEqual(['evt.demand.offer.made', 'evt.demand.offer.accepted']);
        expect(listed.body.data.quantity).toBe(3);
      } else {
        expect(stored.body.data[0]).toMatchObject({ id: offerId, status: 'withdrawn' });
        expect(events).toEqual(['evt.demand.offer.made', 'evt.demand.offer.withdrawn']);
        expect(listed.body.data.quantity).toBe(5);
      }
    }
  });

  it('the last unit sold and the listing cancelled at once: one 200, the other 409, stored as acknowledged', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const listingId = await listing(1);
      const offerId = await offer(listingId, 1);
      const [accept, cancel] = await Promise.all([
        p.http('POST', `/api/marketplace/offers/${offerId}/accept`, seller),
        p.http('DELETE', `/api/marketplace/listings/${listingId}`, seller),
      ]);
      const won = [accept, cancel].filter((a) => a.status === 200);
      expect(won, `round ${round}: ${accept.status} ${cancel.status}`).toHaveLength(1);
      const lost = accept.status === 200 ? cancel : accept;
      expect(lost.status).toBe(409);
      expect(lost.body.error.code).toBe('CONFLICT');
      const listed = await p.http('GET', `/api/marketplace/listings/${listingId}`, buyer);
      const events = await subjects(listingId);
      if (accept.status === 200) {
        expect(lost.body.error.details).toMatchObject({ from: 'sold', to: 'cancelled' });
        expect(listed.body.data).toMatchObject({ status: 'sold', quantity: 0 });
        expect(events).toContain('evt.demand.listing.sold');
        expect(events).not.toContain('evt.demand.listing.cancelled');
      } else {
        expect(lost.body.error.details).toMatchObject({ listingStatus: 'cancelled' });
        expect(cancel.body.data.status).toBe('cancelled');
        expect(listed.body.data).toMatchObject({ status: 'cancelled', quantity: 1 });
        expect(events).toContain('evt.demand.listing.cancelled');
        expect(events).not.toContain('evt.demand.listing.sold');
      }
    }
  });

  it('a listing moved to draft and cancelled at once: one 200, the other 409 naming the state', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const listingId = await listing(3);
      const [draft, cancel] = await Promise.all([
        p.http('POST', `/api/marketplace/listings/${listingId}/status`, { ...seller, body: { status: 'draft' } }),
        p.http('DELETE', `/api/marketplace/listings/${listingId}`, seller),
      ]);
      const statuses = [draft.status, cancel.status].sort();
      // draft then cancel is a legal sequence (a draft may be cancelled); cancel then draft is not.
      if (statuses[1] === 409) {
        expect(draft.status).toBe(409);
        expect(draft.body.error.details).toMatchObject({ from: 'cancelled', to: 'draft' });
      } else expect(statuses).toEqual([200, 200]);
      const listed = await p.http('GET', `/api/marketplace/listings/${listingId}`, seller);
      expect(listed.body.data.status).toBe('cancelled');
      expect((await subjects(listingId)).filter((s) => s === 'evt.demand.listing.cancelled')).toHaveLength(1);
    }
  });
});
