import type { Role } from '@rootline/contracts';
import { cloneInput, listingInput, plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxAbout, startDemandWithPlants, type TestPlatform } from './support.js';

/** Subjects of the events the demand service enqueued about one entity, oldest first. */
async function eventsAbout(p: TestPlatform, id: string): Promise<string[]> {
  return (await outboxAbout(p, id)).map((r) => r.subject);
}

describe('marketplace listings over HTTP', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startDemandWithPlants();
  });
  afterAll(async () => p?.stop());

  const create = (sub: string, body = listingInput(), role: Role = 'GROWER') =>
    p.http('POST', '/api/marketplace/listings', { role, sub, body });

  it('creates an active listing owned by the caller, with its privacy level applied, and emits listing.published', async () => {
    const res = await create('usr_seller', listingInput({ privacyLevel: 'city' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      error: null,
      data: { sellerId: 'usr_seller', status: 'active', price: 400, currency: 'EUR', quantity: 5, lineage: null },
    });
    expect(res.body.data.location.latitude).not.toBe(52.37);
    expect(res.body.data.location.city).toBe('Amsterdam');
    expect(await eventsAbout(p, res.body.data.id)).toEqual(['evt.demand.listing.published']);
    const read = await p.http('GET', `/api/marketplace/listings/${res.body.data.id}`, { role: 'USER', sub: 'usr_x' });
    // The read adds the gallery (none here), which answers of writes leave out.
    expect(read.body.data).toEqual({ ...res.body.data, coverPhoto: null, photos: [] });
  });

  it('shows the lineage of the listed plant, asked of the plants service', async () => {
    const parent = await p.http('POST', '/api/plants/register', {
      role: 'GROWER',
      sub: 'usr_seller',
      body: plantInput({ commonName: 'Moneymaker', owner: { id: 'usr_seller' } }),
    });
    const child = await p.http('POST', '/api/plants/clone', {
      role: 'GROWER',
      sub: 'usr_seller',
      body: {
        ...cloneInput(parent.body.data.id),
        newPlant: { ...cloneInput(parent.body.data.id).newPlant, owner: { id: 'usr_seller' } },
      },
    });
    expect(child.status).toBe(201);
    const res = await create('usr_seller', listingInput({ category: 'cuttings', plantId: child.body.data.id }));
    expect(res.status).toBe(201);
    expect(res.body.data.lineage).toEqual({
      plantId: child.body.data.id,
      commonName: 'Moneymaker',
      generation: 1,
      ancestors: [{ id: parent.body.data.id, commonName: 'Moneymaker', generation: 0, propagationType: null }],
    });
  });

  it('answers 404 for an unknown plant and stores nothing', async () => {
    const res = await create('usr_seller', listingInput({ title: 'Ghost plant', plantId: 'plt_0000000000NOTTHERE' }));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
    const stored = await p.database.db.execute(sql`select id from demand.listings where title = 'Ghost plant'`);
    expect(stored).toHaveLength(0);
  });

  it.each([
    [{ ...listingInput(), category: 'furniture' }, 'body/category'],
    [{ ...listingInput(), price: 2.5 }, 'body/price'],
    [{ ...listingInput(), currency: 'euro' }, 'body/currency'],
    [{ ...listingInput(), quantity: 0 }, 'body/quantity'],
    [{ ...listingInput(), status: 'sold' }, 'body/status'],
    [{ ...listingInput(), title: '' }, 'body/title'],
  ])('refuses an invalid body with 400 VALIDATION_ERROR naming the field (%#)', async (body, field) => {
    const res = await p.http('POST', '/api/marketplace/listings', { role: 'USER', sub: 'usr_v', body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(res.body.error.details)).toContain(field);
  });

  it('refuses an anonymous caller with 401', async () => {
    const res = await p.http('POST', '/api/marketplace/listings', { body: listingInput() });
    expect(res.status).toBe(401);
  });

  it('walks the state machine and refuses forbidden moves with 409 and a clear message', async () => {
    const { body } = await create('usr_seller', listingInput({ status: 'draft' }));
    const id = body.data.id;
    const move = (status: string) =>
      p.http('POST', `/api/marketplace/listings/${id}/status`, { role: 'GROWER', sub: 'usr_seller', body: { status } });
    expect((await move('active')).body.data.status).toBe('active');
    expect((await move('draft')).body.data.status).toBe('draft');
    const sold = await move('sold');
    expect(sold.status).toBe(409);
    expect(sold.body.error).toMatchObject({
      code: 'CONFLICT',
      message: 'A listing becomes sold only when an offer takes its last unit',
    });
    const cancelled = await p.http('DELETE', `/api/marketplace/listings/${id}`, { role: 'GROWER', sub: 'usr_seller' });
    expect(cancelled.body.data.status).toBe('cancelled');
    const again = await move('active');
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('A cancelled listing cannot move to active (cancelled is final)');
    const edit = await p.http('PATCH', `/api/marketplace/listings/${id}`, {
      role: 'GROWER',
      sub: 'usr_seller',
      body: { price: 1 },
    });
    expect(edit.status).toBe(409);
    expect(await eventsAbout(p, id)).toEqual(['evt.demand.listing.published', 'evt.demand.listing.cancelled']);
  });

  it('hides drafts from everyone but their seller and ADMINs', async () => {
    const { body } = await create('usr_drafter', listingInput({ status: 'draft', title: 'Secret draft' }));
    const id = body.data.id;
    expect((await p.http('GET', `/api/marketplace/listings/${id}`, { role: 'USER', sub: 'usr_x' })).status).toBe(404);
    expect((await p.http('GET', `/api/marketplace/listings/${id}`, { role: 'ADMIN', sub: 'usr_a' })).status).toBe(200);
    const own = await p.http('GET', '/api/marketplace/listings?sellerId=usr_drafter', {
      role: 'USER',
      sub: 'usr_drafter',
    });
    expect(own.body.data.map((l: { id: string }) => l.id)).toContain(id);
    const other = await p.http('GET', '/api/marketplace/listings?sellerId=usr_drafter', { role: 'USER', sub: 'usr_x' });
    expect(other.body.data.map((l: { id: string }) => l.id)).not.toContain(id);
  });

  it('lists with filters, sort and pagination', async () => {
    for (const price of [900, 100, 500]) {
      await create('usr_lister', listingInput({ category: 'seeds', price, title: `Seed pack ${price}` }));
    }
    const res = await p.http('GET', '/api/marketplace/listings?sellerId=usr_lister&sort=price-asc&limit=2', {
      role: 'USER',
      sub: 'usr_x',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { price: number }) => l.price)).toEqual([100, 500]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    const ranged = await p.http(
      'GET',
      '/api/marketplace/listings?category=seeds&minPrice=200&maxPrice=950&sort=price-desc',
      { role: 'USER', sub: 'usr_x' },
    );
    expect(ranged.body.data.map((l: { price: number }) => l.price)).toEqual([900, 500]);
    const bad = await p.http('GET', '/api/marketplace/listings?sort=cheapest', { role: 'USER', sub: 'usr_x' });
    expect(bad.status).toBe(400);
  });

  it('answers 404 for an unknown listing', async () => {
    const res = await p.http('GET', '/api/marketplace/listings/lst_0000000000NOTTHERE', { role: 'USER', sub: 'u' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  describe.each<Role>(['USER', 'GROWER', 'FARM_MANAGER'])('ownership as %s', (role) => {
    const sub = `usr_own_${role.toLowerCase()}`;

    it('changes, moves and cancels its own listing but not another seller’s (403)', async () => {
      const mine = (await create(sub, listingInput(), role)).body.data.id;
      const theirs = (await create('usr_someone', listingInput())).body.data.id;
      const patch = (id: string) =>
        p.http('PATCH', `/api/marketplace/listings/${id}`, { role, sub, body: { title: 'Renamed' } });
      expect((await patch(mine)).body.data.title).toBe('Renamed');
      const refused = await patch(theirs);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
      const move = await p.http('POST', `/api/marketplace/listings/${theirs}/status`, {
        role,
        sub,
        body: { status: 'draft' },
      });
      expect(move.status).toBe(403);
      expect((await p.http('DELETE', `/api/marketplace/listings/${theirs}`, { role, sub })).status).toBe(403);
      expect((await p.http('DELETE', `/api/marketplace/listings/${mine}`, { role, sub })).status).toBe(200);
      const still = await p.http('GET', `/api/marketplace/listings/${theirs}`, { role, sub });
      expect(still.body.data).toMatchObject({ status: 'active', title: expect.stringMatching(/^Heirloom/) });
    });
  });

  it('lets an ADMIN change and cancel anyone’s listing', async () => {
    const id = (await create('usr_someone', listingInput())).body.data.id;
    const patched = await p.http('PATCH', `/api/marketplace/listings/${id}`, {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: { quantity: 2 },
    });
    expect(patched.body.data.quantity).toBe(2);
    expect(
      (await p.http('DELETE', `/api/marketplace/listings/${id}`, { role: 'ADMIN', sub: 'usr_admin' })).status,
    ).toBe(200);
  });
});
