import { service as chainMiner } from '@rootline/chain-miner';
import {
  actingCaller,
  ledgerTransaction,
  seedOrganization,
  startTestPlatform,
  type TestPlatform,
} from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { cloneInput, plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as environment } from '../src/service.js';

// Plants an organization owns: registered while acting for it, changed by its members, read by its viewers.
describe('plants owned by an organization, over HTTP', () => {
  let p: TestPlatform;
  let orgId: string;
  let plantId: string;
  const tokens: Record<string, string> = {};
  const CO_OP = 'Riverbank Growers Co-op';

  /** A call by one of the accounts, acting for the organization unless `alone`. */
  const as = actingCaller(
    () => p,
    tokens,
    () => orgId,
  );
  const record = (sub: string, alone = false) =>
    as(sub, 'POST', '/api/environment/records', { plantId, climate: { temperatureC: 21 } }, alone);

  beforeAll(async () => {
    // Names read afresh on every answer, so a rename shows at once.
    p = await startTestPlatform([chainMiner, plants, environment], {
      CHAIN_DIFFICULTY: '8',
      ACCOUNT_NAMES_CACHE_MS: '0',
    });
    for (const sub of ['usr_orgp_manager', 'usr_orgp_member', 'usr_orgp_viewer', 'usr_orgp_outsider']) {
      tokens[sub] = await p.token('USER', sub);
    }
    orgId = await seedOrganization(p.database, CO_OP, {
      usr_orgp_manager: 'manager',
      usr_orgp_member: 'member',
      usr_orgp_viewer: 'viewer',
    });
  });
  afterAll(async () => p?.stop());

  it('registered while acting: the organization owns it on the ledger, by its name, and the member acted', async () => {
    const res = await as('usr_orgp_member', 'POST', '/api/plants/register', plantInput({ owner: { id: orgId } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    plantId = res.body.data.id;
    const read = await p.http('GET', `/api/plants/${plantId}`);
    expect(read.body.data.owner).toMatchObject({ id: orgId, name: CO_OP });
    const tx = await ledgerTransaction(p, read.body.data.block.txId);
    expect(JSON.parse(tx.payload).owner).toEqual({ id: orgId, name: CO_OP });
    const [row] = (await p.database.db.execute(
      sql`select owner_id, registered_by from plants.plants where id = ${plantId}`,
    )) as unknown as { owner_id: string; registered_by: string }[];
    expect(row).toEqual({ owner_id: orgId, registered_by: 'usr_orgp_member' });
  });

  it('is propagated for the organization by a member, and not by a viewer or an outsider', async () => {
    const body = cloneInput(plantId);
    const forOrg = { ...body, newPlant: { ...body.newPlant, owner: { id: orgId } } };
    const cloned = await as('usr_orgp_member', 'POST', '/api/plants/clone', forOrg);
    expect(cloned.status, JSON.stringify(cloned.body)).toBe(201);
    expect((await p.http('GET', `/api/plants/${cloned.body.data.id}`)).body.data.owner.id).toBe(orgId);

    const viewer = await as('usr_orgp_viewer', 'POST', '/api/plants/clone', forOrg);
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.details).toMatchObject({ reason: 'org-role', required: 'member' });
    // An outsider naming the organization as owner, without acting for it (which it cannot), is refused.
    const outsider = await as('usr_orgp_outsider', 'POST', '/api/plants/clone', forOrg, true);
    expect(outsider.status).toBe(403);
    expect(outsider.body.error.details).toMatchObject({ reason: 'not-self' });
  });

  it('takes environment records from its members acting for it, not from outsiders or members acting alone', async () => {
    expect((await record('usr_orgp_member')).status).toBe(201);
    expect((await record('usr_orgp_manager')).status).toBe(201);
    const alone = await record('usr_orgp_member', true);
    expect(alone.status).toBe(403);
    expect(alone.body.error.details).toMatchObject({ reason: 'not-owner' });
    const outsider = await record('usr_orgp_outsider', true);
    expect(outsider.status).toBe(403);
    expect((await record('usr_orgp_viewer')).status).toBe(403);
    // Everyone reads the public view, the viewer acting for the organization too.
    const read = await as('usr_orgp_viewer', 'GET', `/api/environment/records/${plantId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toHaveLength(2);
  });

  it('is listed as the organization’s own to its viewers, and its name is found as people’s are', async () => {
    const owned = await as('usr_orgp_viewer', 'GET', `/api/plants/owned/${orgId}`);
    expect(owned.status).toBe(200);
    expect(owned.body.data.map((x: { id: string }) => x.id)).toContain(plantId);
    expect((await as('usr_orgp_outsider', 'GET', `/api/plants/owned/${orgId}`, undefined, true)).status).toBe(403);
    const names = await p.http('GET', `/api/people?ids=${orgId},usr_orgp_member`);
    expect(names.body.data).toEqual([
      { id: orgId, name: CO_OP },
      { id: 'usr_orgp_member', name: 'Test USER' },
    ]);
  });

  it('shows the organization’s current name beside the recorded one after a rename', async () => {
    await p.database.db.execute(sql`update identity.organizations set name = 'Riverbank Co-op' where id = ${orgId}`);
    const read = await p.http('GET', `/api/plants/${plantId}`);
    expect(read.body.data.owner).toMatchObject({ id: orgId, name: CO_OP, accountName: 'Riverbank Co-op' });
  });
});
