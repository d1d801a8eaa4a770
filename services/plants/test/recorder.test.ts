import { generateKeyPairSync } from 'node:crypto';
import type { Bus, DeliveredEvent } from '@rootline/bus';
import {
  chainBlockGet,
  chainTxProof,
  chainTxSubmit,
  chainTxSubmitBatch,
  isAppError,
  newId,
  plantGet,
  plantRegister,
  plantRegisterAnonymous,
  plantRegistered,
  statusSubject,
} from '@rootline/contracts';
import { createOutbox, type Database, pendingEvent } from '@rootline/db';
import {
  call,
  createLedgerRecorder,
  createLogger,
  LEDGER_RETRY_AFTER_SECONDS,
  type LedgerRecorderOptions,
  ledgerRecorderOf,
  ledgerTxId,
} from '@rootline/host';
import { anonymousPlantInput, plantInput } from '@rootline/testing';
import { eq, sql } from 'drizzle-orm';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlantRecord, type PlantWrite, plantsLedger } from '../src/db/ledger.js';
import { ledgerIntents, outbox, plants } from '../src/db/schema.js';
import { type PlantsWithLedger, startPlantsWithLedger } from './support.js';

describe('plant recorder (group commit) on NATS and PostgreSQL', () => {
  let stack: PlantsWithLedger;
  let database: Database;
  let client: Bus;
  let monitor: NatsConnection;
  const log = createLogger('test', 'silent');
  const ctx = { requestId: 'req_recorder_test', actor: { id: 'usr_test', role: 'GROWER' as const } };
  const caller = { ...ctx, log };

  /** A plant as the recorder takes it, written straight to it (not through the service's handler). */
  const write = (id: string, payload: Record<string, unknown> = {}): PlantWrite => ({
    txId: ledgerTxId(id),
    txType: 'plant.register',
    payload: { plantId: id, ...payload },
    record: {
      row: {
        id,
        commonName: `Row ${id}`,
        scientificName: null,
        latitude: 1,
        longitude: 2,
        city: null,
        country: null,
        privacyLevel: 'exact',
        ownerId: 'usr_1',
        ownerName: 'Tester',
        walletAddress: null,
        generation: 0,
        parentId: null,
        propagationType: null,
        registeredAt: new Date().toISOString(),
        registeredBy: 'usr_1',
      },
    },
    events: [pendingEvent(plantRegistered, { plantId: id, commonName: `Row ${id}` }, ctx)],
  });

  /** A recorder of its own over the plants' store and intents; `options` adds to or overrides its settings. */
  const recorderWith = (options: Partial<LedgerRecorderOptions<PlantRecord>> = {}) =>
    createLedgerRecorder<PlantRecord>({
      store: plantsLedger.store,
      db: database.db,
      bus: client,
      outbox: createOutbox({ database, table: outbox, publish: async () => {}, log }),
      log,
      intents: ledgerIntents,
      ...options,
    });
  /** A recorder of its own whose recovery sweep takes every intent at once. */
  const sweeper = (maxAttempts = 5) => recorderWith({ recoverAfterMs: 0, maxAttempts });
  /** Records the number of transactions in each ledger message, until `stop`. */
  const ledgerMessageSizes = async () => {
    const sizes: number[] = [];
    // A plain subscription sees every request on the subject, beside the chain-miner's queue group.
    const sub = monitor.subscribe(chainTxSubmitBatch.subject, {
      callback: (_err, msg) => {
        sizes.push((msg.json() as { transactions: unknown[] }).transactions.length);
      },
    });
    await monitor.flush();
    return { sizes, stop: () => sub.unsubscribe() };
  };
  const intentOf = async (id: string) =>
    (
      await database.db
        .select()
        .from(ledgerIntents)
        .where(eq(ledgerIntents.txId, ledgerTxId(id)))
    )[0];
  /** The record's ledger transaction, as the chain answers for it: one when it is in a block, none otherwise. */
  const onLedger = async (id: string): Promise<{ id: string }[]> => {
    const txId = ledgerTxId(id);
    try {
      await call(client, chainTxProof, { txId }, ctx);
      return [{ id: txId }];
    } catch (err) {
      if (isAppError(err) && err.code === 'NOT_FOUND') return [];
      throw err;
    }
  };

  beforeAll(async () => {
    stack = await startPlantsWithLedger();
    ({ database, client } = stack);
    monitor = await connect({ servers: stack.infra.nats.url, name: 'test-monitor' });
  });

  afterAll(async () => {
    await monitor?.close();
    await stack?.stop();
  });

  it('records concurrent registrations with shared ledger messages, each plant stored with its own block and event', async () => {
    const { sizes: batchSizes, stop } = await ledgerMessageSizes();
    const events: DeliveredEvent[] = [];
    const consumer = await client.consume({
      durable: 'recorder-test',
      subject: plantRegistered.subject,
      handler: async (e) => {
        events.push(e);
      },
    });

    const n = 40;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(client, plantRegister, plantInput({ commonName: `Batch ${i}` }), { ...ctx, requestId: `req_b${i}` }),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(n);
    // Every transaction went to the ledger once, and at least one message carried several.
    expect(batchSizes.reduce((a, b) => a + b, 0)).toBe(n);
    expect(batchSizes.length).toBeLessThan(n);
    expect(Math.max(...batchSizes)).toBeGreaterThan(1);

    for (const [i, r] of results.entries()) {
      const plant = await call(client, plantGet, { plantId: r.id }, ctx);
      expect(plant.commonName).toBe(`Batch ${i}`);
      expect(plant.block.hash).toBe(r.blockHash);
      const block = await call(client, chainBlockGet, { hash: r.blockHash }, ctx);
      const tx = block.transactions.find((t) => t.id === plant.block.txId);
      expect(JSON.parse(tx!.payload)).toMatchObject({ plantId: r.id, commonName: `Batch ${i}` });
    }
    // One event per plant, each carrying the request id of its own caller, not the batch's.
    await expect.poll(() => events.length, { timeout: 5000 }).toBe(n);
    const requestOf = new Map(
      events.map((e) => [(e.payload as { plantId: string }).plantId, e.headers['x-request-id']]),
    );
    for (const [i, r] of results.entries()) expect(requestOf.get(r.id)).toBe(`req_b${i}`);
    await consumer.stop();
    stop();
  });

  it('under load, gathers writes of different turns for the interval into one ledger message; a lone write goes at once', async () => {
    const { sizes, stop } = await ledgerMessageSizes();
    const recorder = recorderWith({ intervalMs: 1500 });
    const stamp = Date.now();
    const id = (i: number) => `plt_interval${String(i).padStart(6, '0')}${stamp}`;
    const lone = id(0);
    const started = performance.now();
    await recorder.record(write(lone), caller);
    const loneMs = performance.now() - started;
    // Five writes, each in a turn of its own, within the interval of the lone write's flush.
    const gathered: Promise<unknown>[] = [];
    for (let i = 1; i <= 5; i += 1) {
      gathered.push(recorder.record(write(id(i)), caller));
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(gathered);
    await monitor.flush();
    stop();
    expect(sizes).toEqual([1, 5]);
    // The lone write did not wait for the interval (its block and store take far less than 1.5 s here).
    expect(loneMs).toBeLessThan(1500);
    for (let i = 0; i <= 5; i += 1) expect(await onLedger(id(i))).toHaveLength(1);
  });

  it('stores the rest of a batch when one plant cannot be stored, and rejects only that one', async () => {
    const recorder = ledgerRecorderOf(plantsLedger, {
      db: database.db,
      bus: client,
      outbox: createOutbox({ database, table: outbox, publish: async () => {}, log }),
      log,
    });
    const [idA, idBad, idB] = [newId('plt', Date.now()), newId('plt', Date.now()), newId('plt', Date.now())];
    // A row the table refuses (no common name).
    const bad = write(idBad);
    bad.record.row = { ...bad.record.row, commonName: null as unknown as string };
    // Same turn of the event loop: one batch, whose insert fails on the refused row.
    const settled = await Promise.allSettled([
      recorder.record(write(idA), caller),
      recorder.record(bad, caller),
      recorder.record(write(idB), caller),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    for (const [i, id] of [idA, idB].entries()) {
      const [row] = await database.db.select().from(plants).where(eq(plants.id, id));
      const receipt = settled[i * 2] as PromiseFulfilledResult<{ blockHash: string }>;
      expect(row?.blockHash).toBe(receipt.value.blockHash);
    }
    expect(await database.db.select().from(plants).where(eq(plants.id, idBad))).toHaveLength(0);
    // The refused write's intent counts the failed store; it is not retried here.
    expect(await intentOf(idBad)).toMatchObject({ attempts: 1 });
    await database.db.delete(ledgerIntents).where(eq(ledgerIntents.txId, ledgerTxId(idBad)));
  });

  it('answers a write whose record is stored already (a retry that raced its first attempt) with its receipt', async () => {
    const recorder = ledgerRecorderOf(plantsLedger, {
      db: database.db,
      bus: client,
      outbox: createOutbox({ database, table: outbox, publish: async () => {}, log }),
      log,
    });
    const taken = await call(client, plantRegister, plantInput({ commonName: 'Taken' }), ctx);
    // The same transaction again, past the stored-result check: its intent is written anew, the ledger answers
    // the first receipt, and the unique key refuses the second row.
    const receipt = await recorder.record(write(taken.id), caller);
    expect(receipt.blockHash).toBe(taken.blockHash);
    const [kept] = await database.db.select().from(plants).where(eq(plants.id, taken.id));
    expect(kept?.commonName).toBe('Taken');
    expect(await intentOf(taken.id)).toBeUndefined();
  });

  it('claims a write with its intent inside a transaction: seen only once committed, the first content kept, then recorded', async () => {
    const recorder = recorderWith();
    const id = newId('pla', Date.now());
    // Rolled back with its transaction: no claim, nothing to finish.
    await database.db
      .transaction(async (tx) => {
        expect((await recorder.intend(tx, write(id))).fresh).toBe(true);
        expect(await recorder.hasIntent(ledgerTxId(id), tx)).toBe(true);
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await recorder.hasIntent(ledgerTxId(id))).toBe(false);
    const claimed = await database.db.transaction(async (tx) => recorder.intend(tx, write(id, { claim: 'first' })));
    expect(claimed.fresh).toBe(true);
    expect(await recorder.hasIntent(ledgerTxId(id))).toBe(true);
    // A second claim of the transaction id gets the first one's content, as a retry does.
    const again = await database.db.transaction(async (tx) => recorder.intend(tx, write(id, { claim: 'second' })));
    expect(again.fresh).toBe(false);
    expect(again.write.payload).toMatchObject({ claim: 'first' });
    const receipt = await recorder.recordIntended(claimed.write, caller);
    expect(receipt.txId).toBe(ledgerTxId(id));
    expect(await database.db.select().from(plants).where(eq(plants.id, id))).toHaveLength(1);
    expect(await intentOf(id)).toBeUndefined();
    expect(await onLedger(id)).toHaveLength(1);
  });

  it('keeps each ledger message within its byte budget, and still sends a payload larger than the budget', async () => {
    const { sizes, stop } = await ledgerMessageSizes();
    const recorder = ledgerRecorderOf(plantsLedger, {
      db: database.db,
      bus: client,
      outbox: createOutbox({ database, table: outbox, publish: async () => {}, log }),
      log,
      // About three of the plants below (each ~3 KB as counted) per message.
      maxBatchBytes: 10_000,
    });
    const note = 'x'.repeat(1000);
    const ids = Array.from({ length: 7 }, () => newId('plt', Date.now()));
    const settled = await Promise.all([
      ...ids.slice(0, 6).map((id) => recorder.record(write(id, { note }), caller)),
      recorder.record(write(ids[6]!, { note: 'y'.repeat(5000) }), caller),
    ]);
    expect(settled).toHaveLength(7);
    await monitor.flush();
    // Batches run concurrently: their messages may arrive in any order.
    expect(sizes.sort()).toEqual([1, 3, 3]);
    const stored = await database.db.select({ id: plants.id }).from(plants);
    expect(stored.filter((r) => ids.includes(r.id))).toHaveLength(7);
    stop();
  });

  it('finishes a plant mined but never stored (the process died in between) from its intent', async () => {
    const id = newId('plt', Date.now());
    const w = write(id);
    // What a process that died after mining leaves: the intent, and the transaction in a block.
    await database.db.insert(ledgerIntents).values({
      txId: w.txId!,
      txType: w.txType,
      payload: w.payload,
      record: w.record,
      events: [{ subject: plantRegistered.subject, payload: { plantId: id, commonName: `Row ${id}` }, ctx }],
      createdAt: new Date().toISOString(),
    });
    const receipt = await call(client, chainTxSubmit, { type: w.txType, payload: w.payload, id: w.txId! }, ctx);
    expect(await database.db.select().from(plants).where(eq(plants.id, id))).toEqual([]);

    expect(await sweeper().recover()).toBeGreaterThanOrEqual(1);
    const [row] = await database.db.select().from(plants).where(eq(plants.id, id));
    expect(row).toMatchObject({ txId: w.txId, blockHash: receipt.blockHash, blockIndex: receipt.blockIndex });
    expect(await onLedger(id)).toHaveLength(1);
    expect(await intentOf(id)).toBeUndefined();
    const [event] = (await database.db.execute(
      sql`select count(*)::int as n from plants.outbox where payload->>'plantId' = ${id}`,
    )) as unknown as { n: number }[];
    expect(event?.n).toBe(1);
  });

  it('keeps the intent of a plant whose store fails, and the sweep stores it once the fault is gone', async () => {
    const recorder = sweeper();
    const id = newId('plt', Date.now());
    await database.db.execute(sql`alter table plants.plants rename to plants_away`);
    try {
      await expect(recorder.record(write(id), caller)).rejects.toThrow();
    } finally {
      await database.db.execute(sql`alter table plants.plants_away rename to plants`);
    }
    expect(await onLedger(id)).toHaveLength(1);
    expect(await intentOf(id)).toMatchObject({ attempts: 1, failedAt: null });
    expect(await recorder.intentCounts()).toMatchObject({ pending: expect.any(Number), failed: 0 });

    expect(await recorder.recover()).toBeGreaterThanOrEqual(1);
    expect(await database.db.select().from(plants).where(eq(plants.id, id))).toHaveLength(1);
    expect(await onLedger(id)).toHaveLength(1);
    expect(await intentOf(id)).toBeUndefined();
  });

  it('marks a write failed after its stores failed maxAttempts times, counts it, and stops retrying it', async () => {
    const recorder = sweeper(2);
    const failedBefore = (await recorder.intentCounts()).failed;
    const id = newId('plt', Date.now());
    await database.db.execute(sql`alter table plants.plants rename to plants_away`);
    try {
      await expect(recorder.record(write(id), caller)).rejects.toThrow();
      expect(await recorder.recover()).toBe(0);
    } finally {
      await database.db.execute(sql`alter table plants.plants_away rename to plants`);
    }
    expect(await intentOf(id)).toMatchObject({ attempts: 2, failedAt: expect.any(String) });
    expect((await recorder.intentCounts()).failed).toBe(failedBefore + 1);
    expect(await recorder.recover()).toBe(0);
    expect(await database.db.select().from(plants).where(eq(plants.id, id))).toEqual([]);
    const status = await call(client, statusSubject('plants'), {}, ctx);
    expect(status.ledgerIntents?.failed).toBe(failedBefore + 1);
    await database.db.delete(ledgerIntents).where(eq(ledgerIntents.txId, ledgerTxId(id)));
  });

  it('records a retried registration (same idempotency reference) once, answering the first result', async () => {
    const keyed = { ...ctx, idempotencyRef: `ref-${newId('k', Date.now())}` };
    const input = plantInput({ commonName: 'Retried' });
    const [a, b] = await Promise.all([
      call(client, plantRegister, input, keyed),
      call(client, plantRegister, input, keyed),
    ]);
    const c = await call(client, plantRegister, input, keyed);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(await database.db.select().from(plants).where(eq(plants.id, a.id))).toHaveLength(1);
    expect(await onLedger(a.id)).toHaveLength(1);
  });

  it('refuses to answer a retried anonymous registration again: its private key was returned once', async () => {
    const keyed = { requestId: 'req_anon', idempotencyRef: `ref-${newId('k', Date.now())}` };
    const first = await call(client, plantRegisterAnonymous, anonymousPlantInput(), keyed);
    const again = await call(client, plantRegisterAnonymous, anonymousPlantInput(), keyed).catch((e) => e);
    expect(again).toMatchObject({ code: 'DUPLICATE', details: { id: first.id } });
    expect(await onLedger(first.id)).toHaveLength(1);
  });

  it('answers a retried anonymous registration with its own public key from the store (lost answer regression)', async () => {
    const keyed = { requestId: 'req_anon_own', idempotencyRef: `ref-${newId('k', Date.now())}` };
    const publicKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
    const input = anonymousPlantInput({ publicKey });
    const first = await call(client, plantRegisterAnonymous, input, keyed);
    const again = await call(client, plantRegisterAnonymous, input, keyed);
    expect(again).toEqual({
      ...first,
      anonymousContact: { handle: null, encrypted: first.anonymousContact.encrypted },
    });
    expect(again.privateKey).toBeNull();
    expect(await onLedger(first.id)).toHaveLength(1);
  });

  it('answers a retried anonymous registration with its private key sealed to the client, the same seal each time', async () => {
    const keyed = { requestId: 'req_anon_sealed', idempotencyRef: `ref-${newId('k', Date.now())}` };
    const keyEncryptionPublicKey = generateKeyPairSync('x25519').publicKey.export({ format: 'jwk' }).x!;
    const input = anonymousPlantInput({ keyEncryptionPublicKey });
    const [first, racing] = await Promise.all([
      call(client, plantRegisterAnonymous, input, keyed),
      call(client, plantRegisterAnonymous, input, keyed),
    ]);
    const again = await call(client, plantRegisterAnonymous, input, keyed);
    expect(first.privateKey).toBeNull();
    expect(first.encryptedPrivateKey).toMatchObject({ algorithm: 'x25519-hkdf-sha256-aes-256-gcm' });
    for (const later of [racing, again]) {
      expect(later).toMatchObject({
        id: first.id,
        anonymousId: first.anonymousId,
        publicKey: first.publicKey,
        privateKey: null,
        encryptedPrivateKey: first.encryptedPrivateKey,
      });
    }
    expect(await onLedger(first.id)).toHaveLength(1);
    const owners = await database.db.execute(
      sql`select count(*)::int as n from plants.anonymous_owners where anonymous_id = ${first.anonymousId}`,
    );
    expect(owners).toEqual([{ n: 1 }]);
  });

  it('refuses a key to seal to beside a public key of the client’s own', async () => {
    const err = await call(
      client,
      plantRegisterAnonymous,
      anonymousPlantInput({
        publicKey: generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!,
        keyEncryptionPublicKey: generateKeyPairSync('x25519').publicKey.export({ format: 'jwk' }).x!,
      }),
      ctx,
    ).catch((e) => e);
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  // Last: it stops the ledger.
  it('answers UNAVAILABLE with a retry time, not CHAIN_ERROR, when the ledger does not answer', async () => {
    await stack.miner.stop();
    // Longer than the service's own wait for the ledger, so its answer arrives whichever way the ledger fails.
    const err = await call(client, plantRegister, plantInput({ commonName: 'No ledger' }), ctx, 15_000).catch((e) => e);
    expect(err).toMatchObject({ code: 'UNAVAILABLE', details: { retryAfterSeconds: LEDGER_RETRY_AFTER_SECONDS } });
    const stored = await database.db.select().from(plants).where(eq(plants.commonName, 'No ledger'));
    expect(stored).toEqual([]);
  });
});
