import { randomUUID } from 'node:crypto';
import { service as chainMiner } from '@rootline/chain-miner';
import { openStoredAnswer, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { anonymousPlantInput, plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const owner = { id: 'usr_test', name: 'Test Grower' };

/** A POST through the gateway with an Idempotency-Key. */
async function post(p: TestPlatform, url: string, body: unknown, key: string | undefined, token?: string) {
  const res = await p.app.inject({
    method: 'POST',
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    payload: body as object,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers, text: res.body };
}

async function plantCount(p: TestPlatform, commonName: string): Promise<number> {
  const rows = (await p.database.db.execute(
    sql`select count(*)::int as n from plants.plants where common_name = ${commonName}`,
  )) as unknown as { n: number }[];
  return rows[0]!.n;
}

describe('Idempotency-Key on POSTs that create', () => {
  let p: TestPlatform;
  let token: string;
  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants], { CHAIN_DIFFICULTY: '8' });
    token = await p.token('GROWER', 'usr_test');
  });
  afterAll(async () => p?.stop());

  it('replays the first answer (status and body) to a retry with the same key and body; one plant', async () => {
    const key = randomUUID();
    const body = plantInput({ commonName: 'Replayed', owner });
    const first = await post(p, '/api/plants/register', body, key, token);
    expect(first.status).toBe(201);
    // Same body with its keys in another order: the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await post(p, '/api/plants/register', reordered, key, token);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await plantCount(p, 'Replayed')).toBe(1);
    // Without a key, the same body is a new registration.
    expect((await post(p, '/api/plants/register', body, undefined, token)).status).toBe(201);
    expect(await plantCount(p, 'Replayed')).toBe(2);
  });

  it('refuses the same key with a different body: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = randomUUID();
    expect((await post(p, '/api/plants/register', plantInput({ commonName: 'Kept', owner }), key, token)).status).toBe(
      201,
    );
    const other = await post(p, '/api/plants/register', plantInput({ commonName: 'Other', owner }), key, token);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ success: false, data: null, error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(await plantCount(p, 'Other')).toBe(0);
  });

  it('answers 409 DUPLICATE to a retry while the first request is still in flight, then replays', async () => {
    const key = randomUUID();
    const body = plantInput({ commonName: 'In flight', owner });
    const [a, b] = await Promise.all([
      post(p, '/api/plants/register', body, key, token),
      post(p, '/api/plants/register', body, key, token),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const busy = a.status === 409 ? a : b;
    expect(busy.body.error.code).toBe('DUPLICATE');
    expect(busy.headers['retry-after']).toBe('1');
    const later = await post(p, '/api/plants/register', body, key, token);
    expect(later.status).toBe(201);
    expect(later.body).toEqual((a.status === 201 ? a : b).body);
    expect(await plantCount(p, 'In flight')).toBe(1);
  });

  it('scopes keys to the caller: the same key from another user is a request of its own', async () => {
    const key = randomUUID();
    const mine = await post(p, '/api/plants/register', plantInput({ commonName: 'Scoped', owner }), key, token);
    const other = await p.token('GROWER', 'usr_other', 'Other');
    const theirs = await post(
      p,
      '/api/plants/register',
      plantInput({ commonName: 'Scoped', owner: { id: 'usr_other', name: 'Other' } }),
      key,
      other,
    );
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('keeps an anonymous answer only encrypted, and the key only as a digest; replays it without the private key', async () => {
    const key = randomUUID();
    const body = anonymousPlantInput({ commonName: 'Secret basil' });
    const first = await post(p, '/api/plants/register-anonymous', body, key);
    expect(first.status).toBe(201);
    const privateKey = first.body.data.privateKey as string;
    expect(privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = JSON.stringify(await p.database.db.execute(sql`select * from identity.idempotency_keys`));
    expect(stored).not.toContain(privateKey);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(first.body.data.anonymousId);
    const again = await post(p, '/api/plants/register-anonymous', body, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toMatchObject({
      id: first.body.data.id,
      anonymousId: first.body.data.anonymousId,
      publicKey: first.body.data.publicKey,
      privateKey: null,
    });
    expect(again.text).not.toContain(privateKey);
    expect(await plantCount(p, 'Secret basil')).toBe(1);
  });

  it('never keeps an anonymous registration’s private key, so a second caller repeating the Idempotency-Key gets none', async () => {
    // Alice registers anonymously; Bob, also anonymous, sends her Idempotency-Key and body.
    const key = randomUUID();
    const body = anonymousPlantInput({ commonName: 'Alice’s hidden sage' });
    const alice = await post(p, '/api/plants/register-anonymous', body, key);
    expect(alice.status).toBe(201);
    const privateKey = alice.body.data.privateKey as string;
    // The stored answer, decrypted with the client's key, has no private key.
    const rows = (await p.database.db.execute(
      sql`select scope_hash, response from identity.idempotency_keys where response is not null`,
    )) as unknown as { scope_hash: string; response: string }[];
    const opened = rows.flatMap((r) => {
      try {
        return [openStoredAnswer(r.response, key, r.scope_hash)];
      } catch {
        return [];
      }
    });
    expect(opened).toHaveLength(1);
    expect(opened[0]).toContain(alice.body.data.id);
    expect(opened[0]).not.toContain(privateKey);
    expect(JSON.parse(opened[0] as string).data.privateKey).toBeNull();
    // No table of the platform holds it either.
    const tables = (await p.database.db.execute(
      sql`select table_schema, table_name from information_schema.tables
          where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'`,
    )) as unknown as { table_schema: string; table_name: string }[];
    for (const t of tables) {
      const hit = await p.database.db.execute(
        sql.raw(`select 1 from "${t.table_schema}"."${t.table_name}" x where x::text like '%${privateKey}%' limit 1`),
      );
      expect(hit, `${t.table_schema}.${t.table_name}`).toHaveLength(0);
    }
    const bob = await post(p, '/api/plants/register-anonymous', body, key);
    expect(bob.status).toBe(201);
    expect(bob.body.data.id).toBe(alice.body.data.id);
    expect(bob.body.data.privateKey).toBeNull();
    expect(bob.text).not.toContain(privateKey);
    // Carol, with a key of her own, gets a plant and a private key of her own.
    const carol = await post(p, '/api/plants/register-anonymous', body, randomUUID());
    expect(carol.body.data.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(carol.body.data.privateKey).not.toBe(privateKey);
  });

  it('applies to the other POSTs that create: an API token retried with its key is issued once', async () => {
    const key = randomUUID();
    const body = { name: `retried ${key.slice(0, 8)}`, scopes: ['plants:read'] };
    const first = await post(p, '/api/auth/tokens', body, key, token);
    expect(first.status).toBe(201);
    const again = await post(p, '/api/auth/tokens', body, key, token);
    expect(again.body.data.token).toBe(first.body.data.token);
    const rows = (await p.database.db.execute(
      sql`select count(*)::int as n from identity.api_tokens where name = ${body.name}`,
    )) as unknown as { n: number }[];
    expect(rows[0]!.n).toBe(1);
    const stored = JSON.stringify(await p.database.db.execute(sql`select * from identity.idempotency_keys`));
    expect(stored).not.toContain(first.body.data.token);
  });

  it('refuses a lone surrogate before the request digest is made, even in a field the route does not know', async () => {
    // RFC 8785 has no text for it; validation makes sure a digest never meets one.
    const keys = async () =>
      (
        (await p.database.db.execute(sql`select count(*)::int as n from identity.idempotency_keys`)) as unknown as {
          n: number;
        }[]
      )[0]!.n;
    const before = await keys();
    for (const body of [
      plantInput({ commonName: 'Lone \ud800 surrogate', owner }),
      { ...plantInput({ owner }), note: '\udfff' },
    ]) {
      const res = await post(p, '/api/plants/register', body, randomUUID(), token);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect(await keys()).toBe(before);
  });

  it('refuses a malformed key with 400 VALIDATION_ERROR', async () => {
    const res = await post(p, '/api/plants/register', plantInput({ owner }), 'short', token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'header/idempotency-key' } });
  });

  it('does not keep a 5xx answer: the key is free again for the retry', async () => {
    const key = randomUUID();
    const body = plantInput({ commonName: 'After outage', owner });
    const miner = p.services.get('chain-miner')!;
    await miner.stop();
    const down = await post(p, '/api/plants/register', body, key, token);
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBeDefined();
    const rows = (await p.database.db.execute(
      sql`select count(*)::int as n from identity.idempotency_keys where status is null`,
    )) as unknown as { n: number }[];
    expect(rows[0]!.n).toBe(0);
  });
});

describe('Idempotency-Key expiry', () => {
  let p: TestPlatform;
  let token: string;
  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants], { CHAIN_DIFFICULTY: '8', IDEMPOTENCY_KEY_TTL_SECONDS: '1' });
    token = await p.token('GROWER', 'usr_test');
  });
  afterAll(async () => p?.stop());

  it('prunes keys past their time; an expired key may be used again', async () => {
    const key = randomUUID();
    expect((await post(p, '/api/plants/register', plantInput({ commonName: 'Old', owner }), key, token)).status).toBe(
      201,
    );
    const count = async () =>
      (
        (await p.database.db.execute(sql`select count(*)::int as n from identity.idempotency_keys`)) as unknown as {
          n: number;
        }[]
      )[0]!.n;
    expect(await count()).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    // Any keyed request prunes what expired.
    const other = await post(p, '/api/plants/register', plantInput({ commonName: 'New', owner }), randomUUID(), token);
    expect(other.status).toBe(201);
    expect(await count()).toBe(1);
    const reused = await post(p, '/api/plants/register', plantInput({ commonName: 'Reused', owner }), key, token);
    expect(reused.status).toBe(201);
  });
});
