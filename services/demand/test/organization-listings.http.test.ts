import { seedOrganization } from '@rootline/gateway/testing';
import { listingInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemandPlatform, type TestPlatform } from './support.js';

// A listing made while acting for an organization is the organization's: its members keep it up to date, a manager
// cancels it, a viewer only reads (ADR 237). Its supply commitments likewise.
describe('marketplace listings and supply of an organization, over HTTP', () => {
  let p: TestPlatform;
  let orgId: string;
  let listingId: string;
  const tokens: Record<string, string> = {};
  const as = (sub: string, method: string, url: string, body?: unknown) =>
    p.http(method, url, {
      token: tokens[sub] as string,
      ...(body === undefined ? {} : { body }),
      headers: { 'rootline-act-as': orgId },
    });

  beforeAll(async () => {
    p = await startDemandPlatform();
    for (const sub of ['usr_orgl_manager', 'usr_orgl_member', 'usr_orgl_viewer']) {
      tokens[sub] = await p.token('USER', sub);
    }
    orgId = await seedOrganization(p.database, 'Seed Swap Co-op', {
      usr_orgl_manager: 'manager',
      usr_orgl_member: 'member',
      usr_orgl_viewer: 'viewer',
    });
  });
  afterAll(async () => p?.stop());

  it('is sold by the organization when a member lists it acting for it', async () => {
    const res = await as('usr_orgl_member', 'POST', '/api/marketplace/listings', listingInput({ status: 'draft' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    listingId = res.body.data.id;
    expect(res.body.data.sellerId).toBe(orgId);
    // A draft is seen by its seller only: here, whoever acts for the organization.
    expect((await as('usr_orgl_viewer', 'GET', `/api/marketplace/listings/${listingId}`)).status).toBe(200);
  });

  it('is changed by members, not viewers, and cancelled by a manager only', async () => {
    const url = `/api/marketplace/listings/${listingId}`;
    expect((await as('usr_orgl_member', 'PATCH', url, { price: 450 })).body.data.price).toBe(450);
    const viewer = await as('usr_orgl_viewer', 'PATCH', url, { price: 1 });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.details).toMatchObject({ reason: 'org-role', required: 'member' });
    const member = await as('usr_orgl_member', 'DELETE', url);
    expect(member.status).toBe(403);
    expect(member.body.error.details).toMatchObject({ reason: 'org-role', required: 'manager', role: 'member' });
    const manager = await as('usr_orgl_manager', 'DELETE', url);
    expect(manager.status, JSON.stringify(manager.body)).toBe(200);
    expect(manager.body.data.status).toBe('cancelled');
  });

  it('commits supply for the organization, listed to whoever acts for it', async () => {
    const made = await as('usr_orgl_member', 'POST', '/api/demand/supply', {
      crop: 'tomato',
      quantity: 14,
      unit: 'kg',
      window: { from: '2027-01-04', to: '2027-01-17' },
      price: 300,
      currency: 'EUR',
      location: { latitude: 52.35, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const listed = await as('usr_orgl_viewer', 'GET', '/api/demand/supply');
    expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([made.body.data.id]);
    expect((await as('usr_orgl_viewer', 'GET', `/api/demand/supply/${made.body.data.id}/matches`)).status).toBe(200);
  });
});
