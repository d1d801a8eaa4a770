import { actingCaller, seedOrganization } from '@rootline/gateway/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { farmInput, startFarmPlatform, type TestPlatform, zoneInput } from './support.js';

const LETTUCE = 'rcp_lettuce0butterhead01';

// A farm an organization owns is run by its owners and managers and worked by its members, none of whom holds the
// account role FARM_MANAGER: their organization roles decide (ADR 237).
describe('farms owned by an organization, over HTTP', () => {
  let p: TestPlatform;
  let orgId: string;
  let farmId: string;
  let zoneId: string;
  let batchId: string;
  const tokens: Record<string, string> = {};

  /** A call by one of the accounts, acting for the organization unless `alone`. */
  const as = actingCaller(
    () => p,
    tokens,
    () => orgId,
  );
  const batchBody = () => ({
    farmId,
    zoneId,
    recipeId: LETTUCE,
    crop: 'lettuce',
    variety: 'Rex',
    plantCount: 40,
    seedSource: { type: 'seed-lot', seedLot: 'RZ-2026-0412', supplier: 'Rijk Zwaan' },
  });
  const reading = () => ({
    readings: [{ at: new Date().toISOString(), temperatureC: 22, humidityPct: 60, co2Ppm: 1000, ppfd: 300 }],
  });

  beforeAll(async () => {
    p = await startFarmPlatform();
    for (const sub of ['usr_orgf_owner', 'usr_orgf_manager', 'usr_orgf_member', 'usr_orgf_viewer', 'usr_orgf_out']) {
      tokens[sub] = await p.token('USER', sub);
    }
    orgId = await seedOrganization(p.database, 'Harbour Greens Co-op', {
      usr_orgf_owner: 'owner',
      usr_orgf_manager: 'manager',
      usr_orgf_member: 'member',
      usr_orgf_viewer: 'viewer',
    });
  });
  afterAll(async () => p?.stop());

  it('is registered and given zones by a manager acting for the organization, which owns it', async () => {
    const member = await as('usr_orgf_member', 'POST', '/api/vertical-farm/register', farmInput());
    expect(member.status).toBe(403);
    expect(member.body.error.details).toMatchObject({ reason: 'org-role', required: 'manager', role: 'member' });

    const res = await as('usr_orgf_manager', 'POST', '/api/vertical-farm/register', farmInput('Co-op Greens'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    farmId = res.body.data.id;
    expect(res.body.data.ownerId).toBe(orgId);
    const [row] = (await p.database.db.execute(
      sql`select owner_id, created_by from farm.farms where id = ${farmId}`,
    )) as unknown as { owner_id: string; created_by: string }[];
    expect(row).toEqual({ owner_id: orgId, created_by: 'usr_orgf_manager' });

    const zone = await as('usr_orgf_owner', 'POST', `/api/vertical-farm/farms/${farmId}/zones`, zoneInput());
    expect(zone.status, JSON.stringify(zone.body)).toBe(201);
    zoneId = zone.body.data.id;
    expect((await as('usr_orgf_member', 'POST', `/api/vertical-farm/farms/${farmId}/zones`, zoneInput())).status).toBe(
      403,
    );
    const listed = await as('usr_orgf_viewer', 'GET', '/api/vertical-farm/farms');
    expect(listed.body.data.map((f: { id: string }) => f.id)).toEqual([farmId]);
  });

  it('takes batches and readings from its members, not from viewers, outsiders or members acting alone', async () => {
    const started = await as('usr_orgf_member', 'POST', '/api/vertical-farm/batch/start', batchBody());
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    batchId = started.body.data.id;
    const put = await as('usr_orgf_member', 'PUT', `/api/vertical-farm/batch/${batchId}/environment`, reading());
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const viewer = await as('usr_orgf_viewer', 'POST', '/api/vertical-farm/batch/start', batchBody());
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.details).toMatchObject({ reason: 'org-role' });
    // Alone, a USER lacks farm:write; an outsider cannot act for the organization at all.
    const alone = await as('usr_orgf_member', 'POST', '/api/vertical-farm/batch/start', batchBody(), true);
    expect(alone.status).toBe(403);
    expect(alone.body.error.details).toMatchObject({ permission: 'farm:write' });
    const outsider = await as('usr_orgf_out', 'POST', '/api/vertical-farm/batch/start', batchBody());
    expect(outsider.status).toBe(403);
    expect(outsider.body.error.details).toMatchObject({ reason: 'not-a-member' });
  });

  it('shows its operational data to every member role acting for it, and to nobody else', async () => {
    const read = await as('usr_orgf_viewer', 'GET', `/api/vertical-farm/batch/${batchId}/readings`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect((await as('usr_orgf_viewer', 'GET', `/api/vertical-farm/farms/${farmId}/batches`)).status).toBe(200);
    const outsider = await as('usr_orgf_out', 'GET', `/api/vertical-farm/farms/${farmId}/batches`, undefined, true);
    expect(outsider.status).toBe(403);
    expect(outsider.body.error.details).toMatchObject({ reason: 'not-owner' });
  });

  it('lets only a manager fail a batch', async () => {
    const body = { reason: 'Root rot' };
    const member = await as('usr_orgf_member', 'POST', `/api/vertical-farm/batch/${batchId}/fail`, body);
    expect(member.status).toBe(403);
    expect(member.body.error.details).toMatchObject({ reason: 'org-role', required: 'manager' });
    const manager = await as('usr_orgf_manager', 'POST', `/api/vertical-farm/batch/${batchId}/fail`, body);
    expect(manager.status, JSON.stringify(manager.body)).toBe(200);
  });
});
