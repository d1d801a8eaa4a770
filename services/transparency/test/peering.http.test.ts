import { createHash, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { service as chainMiner } from '@rootline/chain-miner';
import { peerTransactionVerify } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { call, ledgerTxId } from '@rootline/host';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { service as transport } from '@rootline/transport';
import { cosignaturesOf, parseWitnessPolicy, run } from '@rootline/verify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

// Verifier keys (c2sp.org/signed-note, c2sp.org/tlog-cosignature) computed here, sharing no code with the service.
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const raw = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).subarray(-32);
const vkey = (name: string, type: number, k: KeyObject) =>
  `${name}+${sha256(Buffer.from(`${name}\n`), Buffer.from([type]), raw(k))
    .subarray(0, 4)
    .toString('hex')}+${Buffer.concat([Buffer.from([type]), raw(k)]).toString('base64')}`;
const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls until `check` answers a value (not undefined), or fails naming what never happened. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 45_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

/** One Rootline node of the three: its keys, names and address. */
interface Node {
  name: 'a' | 'b' | 'c';
  log: ReturnType<typeof generateKeyPairSync>;
  witness: ReturnType<typeof generateKeyPairSync>;
  origin: string;
  witnessName: string;
  port: number;
  url: string;
  logVkey: string;
  witnessVkey: string;
  p: TestPlatform;
}

describe('three nodes peering: each witnesses and mirrors the other two', () => {
  const nodes = {} as Record<'a' | 'b' | 'c', Node>;
  let plantId: string;
  /** A's propagation of B's plant. */
  let cloneId: string;
  let dir: string;
  /** A fourth peer of A's that never answers: nothing listens at its address. */
  const gone = {
    log: vkey('d.peering.test/api/transparency/log', 1, generateKeyPairSync('ed25519').publicKey),
    witness: vkey('d.peering.test/api/transparency/witness', 4, generateKeyPairSync('ed25519').publicKey),
    port: 0,
  };

  const noteOf = async (n: Node) =>
    (await n.p.app.inject({ method: 'GET', url: '/api/transparency/log/checkpoint' })).body;
  const peersOf = async (n: Node) => {
    const res = await n.p.http('GET', '/api/federation/peers');
    expect(res.status).toBe(200);
    return res.body.data as { name: string; state: string; treeSize: number | null; rootHash: string | null }[];
  };
  const headOf = async (n: Node) => {
    const [, size, root] = (await noteOf(n)).split('\n');
    return { size: Number(size), rootHash: Buffer.from(root!, 'base64').toString('hex') };
  };
  const others = (n: Node) => Object.values(nodes).filter((o) => o !== n);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rootline-peering-'));
    for (const name of ['a', 'b', 'c'] as const) {
      const log = generateKeyPairSync('ed25519');
      const witness = generateKeyPairSync('ed25519');
      const origin = `${name}.peering.test/api/transparency/log`;
      const witnessName = `${name}.peering.test/api/transparency/witness`;
      const port = await freePort();
      nodes[name] = {
        name,
        log,
        witness,
        origin,
        witnessName,
        port,
        url: `http://127.0.0.1:${port}`,
        logVkey: vkey(origin, 1, log.publicKey),
        witnessVkey: vkey(witnessName, 4, witness.publicKey),
        p: undefined as unknown as TestPlatform,
      };
    }
    gone.port = await freePort();
    for (const n of Object.values(nodes)) {
      // Each node lists the two others once: name, address, log key and witness key.
      const listed = others(n).map((o) => `${o.name} ${o.url} ${o.logVkey} ${o.witnessVkey}`);
      if (n.name === 'a') listed.push(`d http://127.0.0.1:${gone.port} ${gone.log} ${gone.witness}`);
      const peers = listed.join(', ');
      // A and B keep plants and journeys (B registers and lends seed, A propagates from B's plant and verifies B's
      // seed-sharing); C is a log and witness only.
      n.p = await startTestPlatform(n.name === 'c' ? [transparency] : [chainMiner, plants, transport, transparency], {
        CHAIN_DIFFICULTY: '8',
        AUDIT_SIGNING_KEY: pem(n.log.privateKey),
        AUDIT_LOG_ORIGIN: n.origin,
        WITNESS_SIGNING_KEY: pem(n.witness.privateKey),
        WITNESS_NAME: n.witnessName,
        PEERS: peers,
        AUDIT_WITNESS_POLL_MS: '100',
        PEER_POLL_MS: '100',
        AUDIT_WITNESS_TIMEOUT_MS: '5000',
        PEER_TIMEOUT_MS: '5000',
      });
      await n.p.app.listen({ host: '127.0.0.1', port: n.port });
      // Something in each log to cosign and mirror.
      const appended = await n.p.http('POST', '/api/transparency/audit', {
        role: 'ADMIN',
        sub: 'usr_admin',
        body: { action: 'account-suspended', reason: `Fraudulent listings on node ${n.name}`, entity: 'usr_bob' },
      });
      expect(appended.status).toBe(201);
    }
  }, 180_000);

  afterAll(async () => {
    for (const n of Object.values(nodes)) await n.p?.stop();
  });

  it('each node serves its checkpoint cosigned by the witnesses of both its peers', async () => {
    for (const n of Object.values(nodes)) {
      const policy = parseWitnessPolicy({ witnesses: others(n).map((o) => o.witnessVkey), threshold: 2 });
      const note = await until(`${n.name} cosigned by both peers`, async () => {
        const served = await noteOf(n);
        return cosignaturesOf(served, policy).length === 2 ? served : undefined;
      });
      expect(note.startsWith(`${n.origin}\n`)).toBe(true);
      // Each peer's witness shows the size it cosigned of this node's log.
      for (const o of others(n)) {
        const info = await o.p.http('GET', '/api/transparency/witness');
        expect(info.body.data.logs).toContainEqual({ origin: n.origin, size: (await headOf(n)).size });
      }
    }
  }, 60_000);

  it('each node mirrors the checkpoints of both its peers, verified, and lists them ok', async () => {
    for (const n of Object.values(nodes)) {
      for (const o of others(n)) {
        const head = await headOf(o);
        const peer = await until(`${n.name} mirrors ${o.name}`, async () =>
          (await peersOf(n)).find((x) => x.name === o.name && x.state === 'ok' && x.treeSize === head.size),
        );
        expect(peer).toMatchObject({
          name: o.name,
          url: o.url,
          origin: o.origin,
          state: 'ok',
          treeSize: head.size,
          rootHash: head.rootHash,
          problem: null,
          forkCheckpoint: null,
        });
        expect((peer as unknown as { checkpoint: string }).checkpoint.startsWith(`${o.origin}\n${head.size}\n`)).toBe(
          true,
        );
      }
    }
    // A peer that does not answer is listed as unreachable, with nothing mirrored, and its bundles are unavailable.
    const d = await until('A lists D unreachable', async () =>
      (await peersOf(nodes.a)).find((x) => x.name === 'd' && x.state === 'unreachable'),
    );
    expect(d).toMatchObject({ treeSize: null, rootHash: null, checkpoint: null, verifiedAt: null });
    expect((d as unknown as { problem: string }).problem).toMatch(/not reached/);
    const unavailable = await nodes.a.p.http('GET', '/api/federation/peers/d/bundles/plt_0000000000000000000000');
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.error.code).toBe('UNAVAILABLE');
  }, 60_000);

  it('node A serves a bundle of node B’s plant, verified against its mirror of B’s log; rootline-verify accepts it', async () => {
    const { a, b } = nodes;
    const grower = await b.p.token('USER', 'usr_grower', 'Ada Grower');
    const made = await b.p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ commonName: 'Heirloom tomato', owner: { id: 'usr_grower', name: 'Ada Grower' } }),
    });
    expect(made.status).toBe(201);
    plantId = made.body.data.id;
    // B records the registration in its log.
    await until('B logs the registration', async () => {
      const res = await b.p.http('GET', `/api/transparency/proofs/plants/${plantId}`);
      return res.status === 200 && res.body.data.auditEntry ? true : undefined;
    });
    const res = await a.p.http('GET', `/api/federation/peers/b/bundles/${plantId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const served = res.body.data;
    expect(served).toMatchObject({ peer: 'b', entryId: plantId, bundle: { plantId, type: 'rootline.proof-bundle' } });
    expect(served.bundle.checkpoint.startsWith(`${b.origin}\n`)).toBe(true);
    expect(served.mirrored.treeSize).toBeGreaterThanOrEqual(served.bundle.auditProof.index + 1);
    // A's mirror of B took the bundle's checkpoint in, if it was newer.
    const mirrored = (await peersOf(a)).find((x) => x.name === 'b');
    expect(mirrored!.treeSize).toBeGreaterThanOrEqual(served.mirrored.treeSize);
    // Kept: the second answer is the first.
    const again = await a.p.http('GET', `/api/federation/peers/b/bundles/${plantId}`);
    expect(again.body.data.fetchedAt).toBe(served.fetchedAt);
    // Anyone holding B's keys checks the bundle A served.
    const keys = join(dir, 'keys.json');
    await writeFile(keys, JSON.stringify((await b.p.http('GET', '/api/transparency/audit/keys')).body));
    const file = join(dir, 'bundle.json');
    await writeFile(file, JSON.stringify(served.bundle));
    const out: string[] = [];
    expect(await run(['bundle', file, '--keys', keys], (l) => out.push(l)), out.join('\n')).toBe(0);

    // An unknown peer, a plant B does not have, a bad id.
    expect((await a.p.http('GET', `/api/federation/peers/nobody/bundles/${plantId}`)).status).toBe(404);
    const missing = await a.p.http('GET', '/api/federation/peers/b/bundles/plt_0000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const bad = await a.p.http('GET', '/api/federation/peers/b/bundles/not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  }, 90_000);

  /** A's transparency service verifying one of B's ledger transactions, as its plants service asks it. */
  const verifyOnA = (peer: string, transactionId: string) =>
    call(nodes.a.p.bus, peerTransactionVerify, { peer, transactionId }, { requestId: 'req_peering_tx' }, 10_000);
  /** The ledger transaction of B's registration of `plantId`. */
  let registrationTx: string;

  it('node A verifies a ledger transaction of node B in full and answers its type, time and payload as B hashed them', async () => {
    const { a, b } = nodes;
    const own = await b.p.http('GET', `/api/transparency/proofs/plants/${plantId}`);
    expect(own.status).toBe(200);
    registrationTx = own.body.data.transaction.id;
    const verified = await verifyOnA('b', registrationTx);
    expect(verified).toMatchObject({
      peer: 'b',
      url: b.url,
      transactionId: registrationTx,
      type: 'plant.register',
      timestamp: own.body.data.transaction.timestamp,
      payload: own.body.data.transaction.payload,
      blockHash: own.body.data.block.hash,
    });
    expect(verified.bundleDigest).toMatch(/^[0-9a-f]{64}$/);
    const mirrored = (await peersOf(a)).find((x) => x.name === 'b');
    expect(verified.checkpoint.treeSize).toBeLessThanOrEqual(mirrored!.treeSize!);
    // Verified once and kept: asked again, the same verification answers.
    expect((await verifyOnA('b', registrationTx)).verifiedAt).toBe(verified.verifiedAt);

    const refused = (peer: string, tx: string, code: string, reason: string) =>
      expect(verifyOnA(peer, tx)).rejects.toMatchObject({ code, details: { reason } });
    await refused('nobody', registrationTx, 'NOT_FOUND', 'unknown-peer');
    await refused('b', 'tx_0000000000000000000000', 'NOT_FOUND', 'not-on-peer');
    await refused('d', registrationTx, 'UNAVAILABLE', 'peer-unreachable');
  }, 60_000);

  it('node A verifies node B’s seed-sharing journey event: its bundle carries the log entry that recorded the event', async () => {
    const { b } = nodes;
    const holder = await b.p.token('USER', 'usr_seed_holder', 'Sam Holder');
    await b.p.token('USER', 'usr_seed_friend', 'Fay Friend');
    const lot = await b.p.http('POST', '/api/seed-lots', {
      token: holder,
      body: { crop: 'Tomato', variety: 'Brandywine', harvestYear: 2025, quantity: { amount: 100, unit: 'seeds' } },
    });
    expect(lot.status, JSON.stringify(lot.body)).toBe(201);
    const loan = await b.p.http('POST', `/api/seed-lots/${lot.body.data.id}/loans`, {
      token: holder,
      body: { borrower: { id: 'usr_seed_friend' }, quantity: { amount: 30 }, dueSeason: '2030-autumn' },
    });
    expect(loan.status, JSON.stringify(loan.body)).toBe(201);
    const eventId = loan.body.data.lendEventId as string;
    expect(eventId).toMatch(/^tev_/);
    const txId = ledgerTxId(eventId);
    // B's own bundle of the transaction names the log entry of the event once the log recorded it.
    const own = await until('B logs the seed-sharing event', async () => {
      const res = await b.p.http('GET', `/api/transparency/proofs/transactions/${txId}`);
      return res.status === 200 && res.body.data.auditEntry ? res.body.data : undefined;
    });
    expect(own.auditEntry).toMatchObject({ kind: 'transport.completed', entity: eventId });
    expect(own.plantId).toBeNull();
    const verified = await verifyOnA('b', txId);
    expect(verified).toMatchObject({ peer: 'b', transactionId: txId, type: 'transport.seed-sharing' });
    expect(JSON.parse(verified.payload)).toMatchObject({
      id: eventId,
      seedLotId: lot.body.data.id,
      handlerId: 'usr_seed_holder',
      recipientId: 'usr_seed_friend',
      quantity: { value: 30, unit: 'seeds' },
    });
    // Anyone holding B's keys checks that bundle too.
    const keys = join(dir, 'keys-b.json');
    await writeFile(keys, JSON.stringify((await b.p.http('GET', '/api/transparency/audit/keys')).body));
    const file = join(dir, 'seed-sharing.json');
    await writeFile(file, JSON.stringify(own));
    const out: string[] = [];
    expect(await run(['bundle', file, '--keys', keys], (l) => out.push(l)), out.join('\n')).toBe(0);
  }, 60_000);

  /** A propagation on A of a plant on another node, by A's grower (a retry when `key` is repeated). */
  const cloneOnA = async (remoteParent: unknown, extra: Record<string, unknown> = {}, key?: string) => {
    const token = await nodes.a.p.token('USER', 'usr_grower_a', 'Ana Grower');
    const res = await nodes.a.p.app.inject({
      method: 'POST',
      url: '/api/plants/clone',
      headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
      payload: {
        remoteParent,
        propagationType: 'cutting',
        newPlant: { location: { latitude: 52.09, longitude: 5.12 }, owner: { id: 'usr_grower_a' } },
        ...extra,
      },
    });
    return { status: res.statusCode, body: res.json() };
  };
  /** The Idempotency-Key of A's first propagation from B. */
  const firstKey = randomUUID();
  const ownedOnA = async () => {
    const token = await nodes.a.p.token('USER', 'usr_grower_a', 'Ana Grower');
    const res = await nodes.a.p.http('GET', '/api/plants/owned/usr_grower_a', { token });
    expect(res.status).toBe(200);
    return res.body.pagination.total as number;
  };

  it('a cutting on A of B’s plant is accepted once its bundle verifies, and A’s lineage shows the parent as verified on B', async () => {
    const { a, b } = nodes;
    const made = await cloneOnA({ peer: 'b', plantId }, {}, firstKey);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    cloneId = made.body.data.id;
    const plant = await a.p.http('GET', `/api/plants/${cloneId}`);
    // Names from B's transaction, one generation below B's plant; no parent on this node.
    expect(plant.body.data).toMatchObject({
      commonName: 'Heirloom tomato',
      generation: 1,
      parentId: null,
      propagationType: 'cutting',
    });
    const mirroredB = (await peersOf(a)).find((x) => x.name === 'b')!;
    const lineage = await a.p.http('GET', `/api/plants/lineage/${cloneId}`);
    expect(lineage.status).toBe(200);
    expect(lineage.body.data.ancestors).toEqual([]);
    expect(lineage.body.data.remoteRelatives).toHaveLength(1);
    const relative = lineage.body.data.remoteRelatives[0];
    expect(relative).toMatchObject({
      childId: cloneId,
      plantId,
      commonName: 'Heirloom tomato',
      generation: 0,
      propagationType: 'cutting',
      node: { peer: 'b', url: b.url },
      verification: { state: 'verified' },
    });
    // The proof it was accepted on: B's bundle as A serves it, its digest, and a checkpoint of A's mirror of B.
    const served = (await a.p.http('GET', `/api/federation/peers/b/bundles/${plantId}`)).body.data;
    expect(relative.verification.checkpoint).toEqual(served.mirrored);
    expect(relative.verification.blockHash).toBe(served.bundle.block.hash);
    expect(relative.verification.bundleDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(relative.verification.checkpoint.treeSize).toBeLessThanOrEqual(mirroredB.treeSize!);
    // The same link is on A's ledger: the plant's transaction names B's plant and the bundle's digest.
    const proof = await until('A proves its clone', async () => {
      const res = await a.p.http('GET', `/api/transparency/proofs/plants/${cloneId}`);
      return res.status === 200 ? res.body.data : undefined;
    });
    expect(proof.transaction.type).toBe('plant.clone');
    expect(JSON.parse(proof.transaction.payload).remoteParent).toMatchObject({
      peer: 'b',
      plantId,
      bundleDigest: relative.verification.bundleDigest,
    });
    // B's own lineage of its plant knows nothing of A's cutting: it lives on A.
    expect((await b.p.http('GET', `/api/plants/lineage/${plantId}`)).body.data.descendants).toEqual([]);
  }, 90_000);

  it('a remote parent on an unknown peer, absent from the peer, on an unreachable peer or badly named is refused, and nothing is written', async () => {
    const before = await ownedOnA();
    const unknown = await cloneOnA({ peer: 'nobody', plantId });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'unknown-peer' } });
    const absent = await cloneOnA({ peer: 'b', plantId: 'plt_0000000000000000000000' });
    expect(absent.status).toBe(404);
    expect(absent.body.error).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'not-on-peer' } });
    const gonePeer = await cloneOnA({ peer: 'd', plantId });
    expect(gonePeer.status).toBe(503);
    expect(gonePeer.body.error).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'peer-unreachable' } });
    // Bad shapes: both parents, neither, a URL instead of a peer name, an unknown field.
    const both = await cloneOnA({ peer: 'b', plantId }, { parentPlantId: plantId });
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('VALIDATION_ERROR');
    expect(both.body.error.details[0].reason).toBe('one-parent');
    const neither = await cloneOnA(undefined);
    expect(neither.status).toBe(400);
    expect(neither.body.error.details[0].reason).toBe('one-parent');
    for (const bad of [
      { peer: nodes.b.url, plantId },
      { peer: 'b', plantId, url: `${nodes.b.url}/api/transparency/proofs/plants/${plantId}` },
      { peer: 'b', plantId: 'not-an-id' },
    ]) {
      const res = await cloneOnA(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect(await ownedOnA()).toBe(before);
  }, 60_000);

  /** A's grower claiming a handoff of a peer (a retry when `key` is repeated). */
  const receiveOnA = async (body: unknown, sub = 'usr_grower_a', key?: string) => {
    const token = await nodes.a.p.token('USER', sub, sub === 'usr_grower_a' ? 'Ana Grower' : 'Otto Other');
    const res = await nodes.a.p.app.inject({
      method: 'POST',
      url: '/api/seed-lots/incoming',
      headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
      payload: body as object,
    });
    return { status: res.statusCode, body: res.json() };
  };
  /** B's lot its holder hands seed from, and a handoff of it that A's grower claims only after B forks. */
  let handedLotId: string;
  let unclaimedHandoff: string;
  const lotsOnA = async (sub = 'usr_grower_a') => {
    const token = await nodes.a.p.token('USER', sub, 'Ana Grower');
    const res = await nodes.a.p.http('GET', `/api/seed-lots?ownerId=${sub}`, { token });
    expect(res.status).toBe(200);
    return res.body.data as { id: string; receivedFrom: unknown }[];
  };

  it('seed of a lot on B handed to a grower on A: one handoff id on both ledgers, and A’s new lot names B’s lot', async () => {
    const { a, b } = nodes;
    const holder = await b.p.token('USER', 'usr_seed_holder', 'Sam Holder');
    const lot = await b.p.http('POST', '/api/seed-lots', {
      token: holder,
      body: { crop: 'Bean', variety: 'Borlotti', harvestYear: 2025, quantity: { amount: 200, unit: 'seeds' } },
    });
    expect(lot.status, JSON.stringify(lot.body)).toBe(201);
    handedLotId = lot.body.data.id;
    const hand = async (body: unknown, key = randomUUID()) =>
      b.p.app
        .inject({
          method: 'POST',
          url: `/api/seed-lots/${handedLotId}/handoffs`,
          headers: { authorization: `Bearer ${holder}`, 'idempotency-key': key },
          payload: body as object,
        })
        .then((r) => ({ status: r.statusCode, body: r.json() }));
    const key = randomUUID();
    const out = await hand({ peer: 'a', quantity: { amount: 50 }, recipient: 'Ana Grower' }, key);
    expect(out.status, JSON.stringify(out.body)).toBe(201);
    const handoff = out.body.data;
    expect(handoff).toMatchObject({
      direction: 'outgoing',
      seedLotId: handedLotId,
      peer: 'a',
      quantity: { amount: 50, unit: 'seeds' },
      recipient: 'Ana Grower',
      source: null,
    });
    expect(handoff.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(handoff.transactionId).toBe(ledgerTxId(handoff.eventId));
    // A retry with the same key is the same handoff; the lot went down once.
    const retried = await hand({ peer: 'a', quantity: { amount: 50 }, recipient: 'Ana Grower' }, key);
    expect(retried.body.data.id).toBe(handoff.id);
    expect((await b.p.http('GET', `/api/seed-lots/${handedLotId}`, { token: holder })).body.data.quantity).toEqual({
      amount: 150,
      unit: 'seeds',
    });
    // Refusals on B: an unknown peer, more than the lot holds; nothing taken.
    const unknown = await hand({ peer: 'nobody', quantity: { amount: 5 }, recipient: 'X' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details.reason).toBe('unknown-peer');
    const tooMuch = await hand({ peer: 'a', quantity: { amount: 151 }, recipient: 'X' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.details).toMatchObject({ reason: 'exceeds-lot', available: 150, unit: 'seeds' });
    // A second handoff, claimed only after B forks.
    const second = await hand({ peer: 'a', quantity: { amount: 10 }, recipient: 'Ana Grower' });
    expect(second.status).toBe(201);
    unclaimedHandoff = second.body.data.id;
    const listed = await b.p.http('GET', `/api/seed-lots/${handedLotId}/handoffs`, { token: holder });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((h: { id: string }) => h.id)).toEqual([unclaimedHandoff, handoff.id]);
    expect(listed.body.pagination.total).toBe(2);
    // B's ledger carries the handoff id, in a transaction whose id follows from it.
    const onB = await until('B logs the handoff', async () => {
      const res = await b.p.http('GET', `/api/transparency/proofs/transactions/${handoff.transactionId}`);
      return res.status === 200 && res.body.data.auditEntry ? res.body.data : undefined;
    });
    expect(JSON.parse(onB.transaction.payload)).toMatchObject({
      handoffId: handoff.id,
      seedLotId: handedLotId,
      handoffLot: { crop: 'Bean', variety: 'Borlotti', harvestYear: 2025 },
    });

    // A's grower receives it with the peer's name and the handoff id alone.
    const before = (await lotsOnA()).length;
    const firstClaim = randomUUID();
    const received = await receiveOnA({ peer: 'b', handoffId: handoff.id }, 'usr_grower_a', firstClaim);
    expect(received.status, JSON.stringify(received.body)).toBe(201);
    const incoming = received.body.data;
    expect(incoming).toMatchObject({
      id: handoff.id,
      direction: 'incoming',
      peer: 'b',
      quantity: { amount: 50, unit: 'seeds' },
      source: {
        peer: 'b',
        url: b.url,
        seedLotId: handedLotId,
        handoffId: handoff.id,
        transactionId: handoff.transactionId,
        blockHash: onB.block.hash,
      },
    });
    expect(incoming.source.bundleDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(incoming.eventId).toMatch(/^tev_/);
    expect(incoming.eventId).not.toBe(handoff.eventId);
    // The new lot is the grower's, of B's crop, and shows where it came from, to anyone.
    const newLot = await a.p.http('GET', `/api/seed-lots/${incoming.seedLotId}`);
    expect(newLot.status).toBe(200);
    expect(newLot.body.data).toMatchObject({
      ownerId: 'usr_grower_a',
      crop: 'Bean',
      variety: 'Borlotti',
      harvestYear: 2025,
      receivedFrom: { peer: 'b', seedLotId: handedLotId, handoffId: handoff.id },
    });
    // A's ledger carries the same handoff id on its own incoming event.
    const onA = await until('A records the incoming event', async () => {
      const res = await a.p.http('GET', `/api/transparency/proofs/transactions/${incoming.transactionId}`);
      return res.status === 200 ? res.body.data : undefined;
    });
    expect(onA.transaction.type).toBe('transport.seed-sharing');
    expect(JSON.parse(onA.transaction.payload)).toMatchObject({
      handoffId: handoff.id,
      seedLotId: incoming.seedLotId,
      handlerId: 'usr_grower_a',
    });
    // Claimed again (a new request, and a retry): the one lot.
    const again = await receiveOnA({ peer: 'b', handoffId: handoff.id });
    expect(again.status).toBe(201);
    expect(again.body.data.seedLotId).toBe(incoming.seedLotId);
    const replay = await receiveOnA({ peer: 'b', handoffId: handoff.id }, 'usr_grower_a', firstClaim);
    expect(replay.body.data.seedLotId).toBe(incoming.seedLotId);
    expect((await lotsOnA()).length).toBe(before + 1);
    // By another account of A: refused.
    const other = await receiveOnA({ peer: 'b', handoffId: handoff.id }, 'usr_other_a');
    expect(other.status).toBe(409);
    expect(other.body.error.details.reason).toBe('handoff-claimed');
  }, 120_000);

  it('a forged or unknown handoff id, an unknown or unreachable peer, or a bad shape is refused, and nothing is written', async () => {
    const before = (await lotsOnA()).length;
    // An id B never handed: no transaction of B follows from it.
    const forged = await receiveOnA({ peer: 'b', handoffId: `urn:uuid:${randomUUID()}` });
    expect(forged.status).toBe(404);
    expect(forged.body.error).toMatchObject({ code: 'NOT_FOUND', details: { reason: 'not-on-peer' } });
    const unknown = await receiveOnA({ peer: 'nobody', handoffId: unclaimedHandoff });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details.reason).toBe('unknown-peer');
    const gonePeer = await receiveOnA({ peer: 'd', handoffId: unclaimedHandoff });
    expect(gonePeer.status).toBe(503);
    expect(gonePeer.body.error.details.reason).toBe('peer-unreachable');
    for (const bad of [
      { peer: 'b', handoffId: 'not-a-urn' },
      { peer: nodes.b.url, handoffId: unclaimedHandoff },
      { peer: 'b', handoffId: unclaimedHandoff, transactionId: registrationTx },
    ]) {
      const res = await receiveOnA(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await lotsOnA()).length).toBe(before);
  }, 60_000);

  it('when B rewrites its history, A and C refuse to cosign it (409) and list B as a fork', async () => {
    const { a, b, c } = nodes;
    // Both witnesses hold B's current size, and both mirrors are at it.
    const head = await headOf(b);
    for (const w of [a, c]) {
      await until(`${w.name} cosigned B at ${head.size}`, async () => {
        const info = await w.p.http('GET', '/api/transparency/witness');
        return (info.body.data.logs as { origin: string; size: number }[]).some(
          (l) => l.origin === b.origin && l.size === head.size,
        )
          ? true
          : undefined;
      });
    }
    // B's stored tree rewritten under the same size: it now signs another root for what its peers saw.
    const rewritten = createHash('sha256').update('another history').digest('hex');
    await b.p.database.db.execute(sql`update transparency.audit_head set root_hash = ${rewritten}`);
    const forked = await noteOf(b);
    expect(forked.split('\n')[2]).toBe(Buffer.from(rewritten, 'hex').toString('base64'));
    for (const w of [a, c]) {
      // The witness protocol's answer: 409 with the size it holds (another root at that size).
      const res = await w.p.app.inject({
        method: 'POST',
        url: '/api/transparency/witness/add-checkpoint',
        headers: { 'content-type': 'text/plain' },
        payload: `old ${head.size}\n\n${forked}`,
      });
      expect(res.statusCode).toBe(409);
      expect(res.headers['content-type']).toBe('text/x.tlog.size');
      expect(res.body).toBe(`${head.size}\n`);
      // The mirror sees the rewritten checkpoint and keeps B as a fork, with the evidence.
      const peer = await until(`${w.name} lists B as a fork`, async () =>
        (await peersOf(w)).find((x) => x.name === 'b' && x.state === 'fork'),
      );
      expect(peer).toMatchObject({ treeSize: head.size, rootHash: head.rootHash });
      const listed = peer as unknown as { forkCheckpoint: string; problem: string };
      expect(listed.forkCheckpoint.startsWith(`${b.origin}\n${head.size}\n`)).toBe(true);
      expect(listed.problem).toMatch(/another root/);
      // And serves no more of B's bundles.
      const refused = await w.p.http('GET', '/api/federation/peers/b/bundles/plt_1111111111111111111111');
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('CONFLICT');
    }
    // C is not affected in A's list.
    expect((await peersOf(a)).find((x) => x.name === 'c')?.state).toBe('ok');
    // The evidence A holds convinces anyone with B's keys: two checkpoints of one size, both signed by B, differ.
    const listed = (await peersOf(a)).find((x) => x.name === 'b') as unknown as {
      checkpoint: string;
      forkCheckpoint: string;
    };
    const keys = join(dir, 'keys.json');
    await writeFile(join(dir, 'mirrored.txt'), listed.checkpoint);
    await writeFile(join(dir, 'forked.txt'), listed.forkCheckpoint);
    const out: string[] = [];
    const status = await run(['compare', join(dir, 'mirrored.txt'), join(dir, 'forked.txt'), '--keys', keys], (l) =>
      out.push(l),
    );
    expect(status, out.join('\n')).toBe(2);
    expect(out.join('\n')).toMatch(/FAIL one root for \d+ entries \(no fork\).*fork: [0-9a-f]{64} and [0-9a-f]{64}/);
  }, 90_000);

  it('after B forked, A’s lineage shows its relative on B as `fork`, and a new propagation from B’s plant is refused', async () => {
    const lineage = await nodes.a.p.http('GET', `/api/plants/lineage/${cloneId}`);
    expect(lineage.status).toBe(200);
    expect(lineage.body.data.remoteRelatives).toMatchObject([
      { childId: cloneId, plantId, node: { peer: 'b' }, verification: { state: 'fork' } },
    ]);
    const before = await ownedOnA();
    // Refused although A verified and kept this very bundle before the fork.
    const refused = await cloneOnA({ peer: 'b', plantId });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'peer-forked' } });
    expect(await ownedOnA()).toBe(before);
    // Nor does A verify B's transactions any more, even one it verified before.
    await expect(verifyOnA('b', registrationTx)).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { reason: 'peer-forked' },
    });
    // A retry of the propagation recorded before the fork is still answered with it.
    const retried = await cloneOnA({ peer: 'b', plantId }, {}, firstKey);
    expect(retried.status).toBe(201);
    expect(retried.body.data.id).toBe(cloneId);
    // Nor a handoff of B not claimed before the fork; nothing is written.
    const lots = (await lotsOnA()).length;
    const claim = await receiveOnA({ peer: 'b', handoffId: unclaimedHandoff });
    expect(claim.status).toBe(409);
    expect(claim.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'peer-forked' } });
    expect((await lotsOnA()).length).toBe(lots);
  }, 30_000);

  it('once B’s operator has repaired its log, an ADMIN of A clears the fork: the evidence goes to the audit log and the mirror starts again', async () => {
    const { a, b } = nodes;
    const clear = (peer: string, role: 'ADMIN' | 'USER', body: unknown = { reason: 'B restored its log; checked' }) =>
      a.p.http('POST', `/api/federation/peers/${peer}/clear-fork`, { role, sub: `usr_${role.toLowerCase()}`, body });
    const forked = (await peersOf(a)).find((x) => x.name === 'b') as unknown as {
      state: string;
      treeSize: number;
      rootHash: string;
      checkpoint: string;
      forkCheckpoint: string;
    };
    expect(forked.state).toBe('fork');
    // Only an ADMIN, only a peer that is a fork; nothing changes otherwise.
    expect((await clear('b', 'USER')).status).toBe(403);
    const notForked = await clear('c', 'ADMIN');
    expect(notForked.status).toBe(409);
    expect(notForked.body.error.details.reason).toBe('not-forked');
    expect((await clear('nobody', 'ADMIN')).body.error.details.reason).toBe('unknown-peer');
    expect((await peersOf(a)).find((x) => x.name === 'b')?.state).toBe('fork');
    // B's operator puts back the root its peers had seen.
    await b.p.database.db.execute(sql`update transparency.audit_head set root_hash = ${forked.rootHash}`);
    const cleared = await clear('b', 'ADMIN');
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.data).toMatchObject({ name: 'b', state: 'pending', treeSize: null, forkCheckpoint: null });
    // The evidence is in A's audit log, with the reason.
    const audit = await a.p.http('GET', '/api/transparency/audit?kind=admin.peer-fork-cleared', {
      role: 'ADMIN',
      sub: 'usr_admin',
    });
    expect(audit.status).toBe(200);
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      entity: 'b',
      reason: 'B restored its log; checked',
      data: { checkpoint: forked.checkpoint, forkCheckpoint: forked.forkCheckpoint, treeSize: forked.treeSize },
    });
    // The mirror starts again from B's current checkpoint, and B's handoffs are received again.
    const head = await headOf(b);
    await until('A mirrors B again', async () =>
      (await peersOf(a)).find((x) => x.name === 'b' && x.state === 'ok' && x.rootHash === head.rootHash),
    );
    const claim = await receiveOnA({ peer: 'b', handoffId: unclaimedHandoff });
    expect(claim.status, JSON.stringify(claim.body)).toBe(201);
    expect(claim.body.data.source).toMatchObject({ peer: 'b', seedLotId: handedLotId });
  }, 60_000);
});
