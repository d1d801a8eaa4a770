import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import {
  type Actor,
  contextToHeaders,
  listingPublished,
  newId,
  plantRegistered,
  userRoleChanged,
} from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import canonicalize from 'canonicalize';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

// An RFC 6962 verifier written from the RFC (and RFC 9162 §2.1.3.2 / §2.1.4.2), sharing no code with the service.
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leafOf = (entry: unknown) => sha256(Buffer.from([0]), Buffer.from(canonicalize(entry) as string, 'utf8'));
const node = (l: Buffer, r: Buffer) => sha256(Buffer.from([1]), l, r);
const hex = (b: Buffer) => b.toString('hex');
const buf = (h: string) => Buffer.from(h, 'hex');

function treeRoot(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return node(treeRoot(leaves.slice(0, k)), treeRoot(leaves.slice(k)));
}

function verifyInclusion(index: number, size: number, leaf: Buffer, path: string[], root: string): boolean {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path.map(buf)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = node(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = node(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && hex(r) === root;
}

function verifyConsistency(first: number, second: number, firstRoot: string, secondRoot: string, proof: string[]) {
  if (first === second) return proof.length === 0 && firstRoot === secondRoot;
  if (proof.length === 0 || first > second) return false;
  const path = proof.map(buf);
  if ((first & (first - 1)) === 0) path.unshift(buf(firstRoot));
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = node(c, fr);
      sr = node(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = node(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return hex(fr) === firstRoot && hex(sr) === secondRoot && sn === 0;
}

interface Entry {
  index: number;
  prevHash: string | null;
  source: string;
  subject: string;
  kind: string;
  eventId: string | null;
  actor: string | null;
  entity: string | null;
  occurredAt: string;
  reason: string | null;
  data: Record<string, unknown>;
}

const alice: Actor = { id: 'usr_alice', role: 'GROWER' };
const bob: Actor = { id: 'usr_bob', role: 'USER' };
/** Alice acting for her co-op (Rootline-Act-As): the entry names both. */
const aliceForCoop: Actor = {
  ...alice,
  org: { id: 'org_riverside0001', role: 'member', name: 'Riverside Seed Library' },
};

describe('audit log over HTTP', () => {
  let p: TestPlatform;
  let entries: Entry[] = [];
  const { privateKey } = generateKeyPairSync('ed25519');

  const publish = (subject: string, payload: object, actor?: Actor, id = newId('evt', Date.now()), at?: string) =>
    p.bus.publish({
      id,
      subject,
      occurredAt: at ?? new Date().toISOString(),
      payload,
      headers: contextToHeaders({ requestId: newId('req', Date.now()), ...(actor ? { actor } : {}) }),
    });

  async function allEntries(expected: number): Promise<Entry[]> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const res = await p.http('GET', '/api/transparency/audit?limit=100', { role: 'ADMIN', sub: 'usr_admin' });
      const body = res.body as { data: Entry[] };
      if (body.data.length >= expected) return body.data;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the audit log never reached ${expected} entries`);
  }

  beforeAll(async () => {
    p = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    });
    // One at a time: concurrent deliveries may be appended in either order, and the assertions name indexes.
    const steps: [string, object, Actor | undefined, string | undefined][] = [
      [plantRegistered.subject, { plantId: 'plt_tomato1', commonName: 'Tomato' }, alice, '2026-01-01T10:00:00.000Z'],
      [
        plantRegistered.subject,
        { plantId: 'plt_basil01', commonName: 'Basil', ownerId: 'org_riverside0001' },
        aliceForCoop,
        '2026-02-01T10:00:00.000Z',
      ],
      [
        listingPublished.subject,
        {
          listingId: 'lst_0001',
          sellerId: bob.id,
          title: 'Basil cuttings',
          category: 'cutting',
          price: 300,
          currency: 'EUR',
        },
        bob,
        '2026-03-01T10:00:00.000Z',
      ],
      [
        userRoleChanged.subject,
        { userId: bob.id, role: 'GROWER', previousRole: 'USER', changedBy: 'usr_admin' },
        undefined,
        undefined,
      ],
      // A kind no contract in this build declares yet is recorded too.
      ['evt.farm.batch.started', { batchId: 'bat_0001', farmId: 'frm_0001' }, alice, undefined],
    ];
    for (const [n, [subject, payload, actor, at]] of steps.entries()) {
      const id = newId('evt', Date.now());
      await publish(subject, payload, actor, id, at);
      // The same event again (a redelivery, or a re-published outbox row past the duplicate window) is recorded once.
      if (n === 0) await p.bus.publish({ id, subject, occurredAt: at!, payload, headers: {} });
      entries = await allEntries(n + 1);
    }
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('records every event on the stream once, with its kind, actor and entity, hash-linked', () => {
    expect(entries.map((e) => e.kind)).toEqual([
      'plant.registered',
      'plant.registered',
      'listing.published',
      'evt.gateway.user.role-changed',
      'evt.farm.batch.started',
    ]);
    expect(entries.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
    expect(entries[0]).toMatchObject({ source: 'event', actor: 'usr_alice', entity: 'plt_tomato1', prevHash: null });
    expect(entries[3]).toMatchObject({ actor: null, entity: 'usr_bob' });
    // An act for an organization names the person as actor and the organization beside it, in the hashed entry.
    expect(entries[1]).toMatchObject({
      actor: 'usr_alice',
      actingFor: { id: 'org_riverside0001', name: 'Riverside Seed Library' },
    });
    expect(entries[0]).not.toHaveProperty('actingFor');
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.prevHash).toBe(hex(leafOf(entries[i - 1])));
  });

  it('lets an ADMIN append an action with its reason; others are refused', async () => {
    const body = {
      action: 'account-suspended',
      reason: 'Fraudulent listings',
      entity: 'usr_bob',
      details: { ticket: 'SUP-1' },
    };
    const made = await p.http('POST', '/api/transparency/audit', { role: 'ADMIN', sub: 'usr_admin', body });
    expect(made.status).toBe(201);
    expect((made.body as { data: Entry }).data).toMatchObject({
      index: 5,
      source: 'admin',
      kind: 'admin.account-suspended',
      actor: 'usr_admin',
      reason: 'Fraudulent listings',
      data: { ticket: 'SUP-1' },
      prevHash: hex(leafOf(entries[4])),
    });
    expect((await p.http('POST', '/api/transparency/audit', { role: 'GROWER', body })).status).toBe(403);
    const bad = await p.http('POST', '/api/transparency/audit', { role: 'ADMIN', body: { action: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    entries = await allEntries(6);
  });

  it('filters by actor, kind, entity and time, and pages', async () => {
    const get = async (q: string) => {
      const res = await p.http('GET', `/api/transparency/audit?${q}`, { role: 'ADMIN', sub: 'usr_admin' });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      const body = res.body as { data: Entry[]; pagination: { total: number; totalPages: number } };
      return { indexes: body.data.map((e) => e.index), pagination: body.pagination };
    };
    expect((await get('actor=usr_alice')).indexes).toEqual([0, 1, 4]);
    expect((await get('kind=plant.registered')).indexes).toEqual([0, 1]);
    expect((await get('entity=usr_bob')).indexes).toEqual([3, 5]);
    expect((await get('from=2026-02-01T00:00:00Z&to=2026-03-02T00:00:00Z')).indexes).toEqual([1, 2]);
    expect(await get('limit=2&page=2')).toEqual({
      indexes: [2, 3],
      pagination: { page: 2, limit: 2, total: 6, totalPages: 3 },
    });
    const bad = await p.http('GET', '/api/transparency/audit?from=yesterday', { role: 'ADMIN' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  it('shows entries to ADMIN only, and answers 401 without a session', async () => {
    expect((await p.http('GET', '/api/transparency/audit', { role: 'FARM_MANAGER' })).status).toBe(403);
    expect((await p.http('GET', '/api/transparency/audit/0', { role: 'USER' })).status).toBe(403);
    expect((await p.http('GET', '/api/transparency/audit')).status).toBe(401);
    const one = await p.http('GET', '/api/transparency/audit/2', { role: 'ADMIN' });
    expect((one.body as { data: Entry }).data).toEqual(entries[2]);
    const missing = await p.http('GET', '/api/transparency/audit/99', { role: 'ADMIN' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('signs the tree head with the published key, over the root of the entries', async () => {
    const key = (await p.http('GET', '/api/transparency/audit/public-key')).body as {
      data: { publicKey: string; publicKeyPem: string; keyId: string };
    };
    const head = (await p.http('GET', '/api/transparency/audit/tree-head', { role: 'USER' })).body as {
      data: { treeSize: number; rootHash: string; timestampMs: number; signature: string; keyId: string };
    };
    expect(head.data.treeSize).toBe(6);
    expect(head.data.rootHash).toBe(hex(treeRoot(entries.map(leafOf))));
    expect(head.data.keyId).toBe(hex(sha256(Buffer.from(key.data.publicKey, 'base64'))));
    const signed = Buffer.alloc(50);
    signed.writeUInt8(0, 0);
    signed.writeUInt8(1, 1);
    signed.writeBigUInt64BE(BigInt(head.data.timestampMs), 2);
    signed.writeBigUInt64BE(BigInt(head.data.treeSize), 10);
    buf(head.data.rootHash).copy(signed, 18);
    const publicKey = createPublicKey(key.data.publicKeyPem);
    expect(verify(null, signed, publicKey, Buffer.from(head.data.signature, 'base64'))).toBe(true);
    signed.writeBigUInt64BE(5n, 10);
    expect(verify(null, signed, publicKey, Buffer.from(head.data.signature, 'base64'))).toBe(false);
  });

  it('proves every entry is in every tree that holds it', async () => {
    for (let size = 1; size <= entries.length; size++) {
      const root = hex(treeRoot(entries.slice(0, size).map(leafOf)));
      for (let index = 0; index < size; index++) {
        const res = await p.http('GET', `/api/transparency/audit/${index}/proof?treeSize=${size}`, { role: 'USER' });
        const proof = (res.body as { data: { auditPath: string[]; rootHash: string; leafHash: string } }).data;
        expect(proof.rootHash).toBe(root);
        expect(verifyInclusion(index, size, leafOf(entries[index]), proof.auditPath, root)).toBe(true);
        if (size > 1) {
          expect(verifyInclusion(index, size, leafOf({ ...entries[index], reason: 'x' }), proof.auditPath, root)).toBe(
            false,
          );
        }
      }
    }
    const beyond = await p.http('GET', '/api/transparency/audit/6/proof', { role: 'USER' });
    expect(beyond.status).toBe(404);
  });

  it('proves every earlier tree is a prefix of every later one', async () => {
    for (let second = 1; second <= entries.length; second++) {
      for (let first = 1; first <= second; first++) {
        const res = await p.http('GET', `/api/transparency/audit/consistency?first=${first}&second=${second}`, {
          role: 'USER',
        });
        const c = (res.body as { data: { firstRootHash: string; secondRootHash: string; proof: string[] } }).data;
        expect(c.firstRootHash).toBe(hex(treeRoot(entries.slice(0, first).map(leafOf))));
        expect(c.secondRootHash).toBe(hex(treeRoot(entries.slice(0, second).map(leafOf))));
        expect(verifyConsistency(first, second, c.firstRootHash, c.secondRootHash, c.proof)).toBe(true);
        if (first < second) {
          const forged = hex(sha256(Buffer.from('another history')));
          expect(verifyConsistency(first, second, forged, c.secondRootHash, c.proof)).toBe(false);
        }
      }
    }
    const ahead = await p.http('GET', '/api/transparency/audit/consistency?first=7', { role: 'USER' });
    expect(ahead.status).toBe(400);
  });

  it('verifies the whole log, and names the index of an entry altered in the database', async () => {
    const ok = await p.http('GET', '/api/transparency/audit/verify', { role: 'ADMIN' });
    expect((ok.body as { data: unknown }).data).toMatchObject({ valid: true, treeSize: 6, firstInvalidIndex: null });
    await p.database.db.execute(
      sql`update transparency.audit_entries set body = replace(body, 'Basil cuttings', 'Rare orchid') where index = 2`,
    );
    const bad = await p.http('GET', '/api/transparency/audit/verify', { role: 'ADMIN' });
    const data = (bad.body as { data: { valid: boolean; firstInvalidIndex: number; problems: { index: number }[] } })
      .data;
    expect(data.valid).toBe(false);
    expect(data.firstInvalidIndex).toBe(2);
    expect(data.problems[0]).toEqual({ index: 2, problem: 'entry content does not match its stored leaf hash' });
  });
});
