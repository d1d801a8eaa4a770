import type { Role } from '@rootline/contracts';
import { ledgerTransactions } from '@rootline/gateway/testing';
import { cloneInput, plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

/** The stored owner and acting user of a plant. */
async function ownership(p: TestPlatform, id: string): Promise<{ owner_id: string; registered_by: string | null }> {
  const rows = (await p.database.db.execute(
    sql`select owner_id, registered_by from plants.plants where id = ${id}`,
  )) as unknown as { owner_id: string; registered_by: string | null }[];
  return rows[0]!;
}

// The name is left out: the gateway fills in the account's (ADR 176), or keeps this one for an id no account has.
const ACCOUNTS = ['usr_parent', 'usr_tokened', 'usr_grower', 'usr_user', 'usr_farm_manager'];
const owner = (id: string) => ({ id, ...(ACCOUNTS.includes(id) ? {} : { name: `Owner ${id}` }) });

describe('ownership of new plants over HTTP', () => {
  let p: TestPlatform;
  let parentId: string;
  beforeAll(async () => {
    p = await startPlantsPlatform();
    const parent = await p.http('POST', '/api/plants/register', {
      role: 'GROWER',
      sub: 'usr_parent',
      body: plantInput({ owner: owner('usr_parent') }),
    });
    expect(parent.status).toBe(201);
    parentId = parent.body.data.id;
  });
  afterAll(async () => p?.stop());

  /** A propagation of the shared parent whose new plant names the given owner. */
  const cloneFor = (ownerId: string) => {
    const body = cloneInput(parentId);
    return { ...body, newPlant: { ...body.newPlant, owner: owner(ownerId) } };
  };

  describe.each<Role>(['USER', 'GROWER', 'FARM_MANAGER'])('as %s', (role) => {
    const sub = `usr_${role.toLowerCase()}`;

    it('registers and clones a plant it owns, recorded as its own act', async () => {
      const reg = await p.http('POST', '/api/plants/register', { role, sub, body: plantInput({ owner: owner(sub) }) });
      expect(reg.status).toBe(201);
      expect(await ownership(p, reg.body.data.id)).toEqual({ owner_id: sub, registered_by: sub });
      const body = cloneFor(sub);
      const cloned = await p.http('POST', '/api/plants/clone', { role, sub, body });
      expect(cloned.status).toBe(201);
      expect(await ownership(p, cloned.body.data.id)).toEqual({ owner_id: sub, registered_by: sub });
    });

    it('is refused with FORBIDDEN when the body names another owner, and nothing is recorded', async () => {
      const before = await ledgerTransactions(p);
      const reg = await p.http('POST', '/api/plants/register', {
        role,
        sub,
        body: plantInput({ commonName: `Not mine ${role}`, owner: owner('usr_someone_else') }),
      });
      expect(reg.status).toBe(403);
      expect(reg.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN', details: { field: 'owner.id' } } });
      const body = cloneFor('usr_someone_else');
      const cloned = await p.http('POST', '/api/plants/clone', { role, sub, body });
      expect(cloned.status).toBe(403);
      expect(cloned.body.error.code).toBe('FORBIDDEN');
      expect(await ledgerTransactions(p)).toBe(before);
      const stored = await p.database.db.execute(sql`select id from plants.plants where owner_id = 'usr_someone_else'`);
      expect(stored).toHaveLength(0);
    });
  });

  it('lets an ADMIN register and clone for someone else, recording the admin as registeredBy', async () => {
    const reg = await p.http('POST', '/api/plants/register', {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: plantInput({ owner: owner('usr_member') }),
    });
    expect(reg.status).toBe(201);
    expect(await ownership(p, reg.body.data.id)).toEqual({ owner_id: 'usr_member', registered_by: 'usr_admin' });
    const body = cloneFor('usr_member');
    const cloned = await p.http('POST', '/api/plants/clone', { role: 'ADMIN', sub: 'usr_admin', body });
    expect(cloned.status).toBe(201);
    expect(await ownership(p, cloned.body.data.id)).toEqual({ owner_id: 'usr_member', registered_by: 'usr_admin' });
  });

  it('applies the same rule to an API token: its owner, never another', async () => {
    const session = await p.token('GROWER', 'usr_tokened');
    const issued = await p.http('POST', '/api/auth/tokens', {
      token: session,
      body: { name: 'registrar', scopes: ['plants:write'] },
    });
    expect(issued.status).toBe(201);
    const token = issued.body.data.token as string;
    const mine = await p.http('POST', '/api/plants/register', {
      token,
      body: plantInput({ owner: owner('usr_tokened') }),
    });
    expect(mine.status).toBe(201);
    expect(await ownership(p, mine.body.data.id)).toEqual({ owner_id: 'usr_tokened', registered_by: 'usr_tokened' });
    const other = await p.http('POST', '/api/plants/register', { token, body: plantInput({ owner: owner('usr_x') }) });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('FORBIDDEN');
  });

  it('reports the ledger writes of plants in the metrics: none pending, none given up', async () => {
    const text = (await p.app.inject({ url: '/api/metrics' })).body;
    expect(text).toContain('ledger_intents{service="plants",state="pending"} 0');
    expect(text).toContain('ledger_intents{service="plants",state="failed"} 0');
    expect(text).toMatch(/outbox_backlog\{service="plants"\} \d+/);
  });

  // Last: it stops the ledger.
  it('answers 503 UNAVAILABLE with Retry-After, not CHAIN_ERROR, while the chain-miner is down', async () => {
    await p.services.get('chain-miner')!.stop();
    const res = await p.http('POST', '/api/plants/register', {
      role: 'GROWER',
      sub: 'usr_grower',
      body: plantInput({ owner: owner('usr_grower') }),
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'UNAVAILABLE' } });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
