import type { Bus, DeliveredEvent } from '@rootline/bus';
import { chainBlockGet, chainTxSubmitBatch, plantGet, plantRegister, plantRegistered } from '@rootline/contracts';
import { createOutbox, type Database, pendingEvent } from '@rootline/db';
import { call, createLogger, LEDGER_RETRY_AFTER_SECONDS } from '@rootline/host';
import { plantInput } from '@rootline/testing';
import { eq } from 'drizzle-orm';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, plants } from '../src/db/schema.js';
import { createRecorder, type PlantWrite } from '../src/recorder.js';
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
    // A plain subscription sees every request on the subject, beside the chain-miner's queue group.
    const batchSizes: number[] = [];
    const sub = monitor.subscribe(chainTxSubmitBatch.subject, {
      callback: (_err, msg) => {
        batchSizes.push((msg.json() as { transactions: unknown[] }).transactions.length);
      },
    });
    await monitor.flush();
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
    sub.unsubscribe();
  });

  it('stores the rest of a batch when one plant cannot be stored, and rejects only that one', async () => {
    const recorder = createRecorder({
      db: database.db,
      bus: client,
      outbox: createOutbox({ database, table: outbox, publish: async () => {}, log }),
      log,
    });
    const taken = await call(client, plantRegister, plantInput({ commonName: 'Taken' }), ctx);
    // Same turn of the event loop: one batch, whose insert fails on the duplicate id.
    const settled = await Promise.allSettled([
      recorder.record(write('plt_recorder_a'), caller),
      recorder.record(write(taken.id), caller),
      recorder.record(write('plt_recorder_b'), caller),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    for (const id of ['plt_recorder_a', 'plt_recorder_b']) {
      const [row] = await database.db.select().from(plants).where(eq(plants.id, id));
      const receipt = settled[id.endsWith('a') ? 0 : 2] as PromiseFulfilledResult<{ blockHash: string }>;
      expect(row?.blockHash).toBe(receipt.value.blockHash);
    }
    // The existing plant is untouched.
    const [kept] = await database.db.select().from(plants).where(eq(plants.id, taken.id));
    expect(kept?.commonName).toBe('Taken');
  });

  it('keeps each ledger message within its byte budget, and still sends a payload larger than the budget', async () => {
    const sizes: number[] = [];
    const sub = monitor.subscribe(chainTxSubmitBatch.subject, {
      callback: (_err, msg) => {
        sizes.push((msg.json() as { transactions: unknown[] }).transactions.length);
      },
    });
    await monitor.flush();
    const recorder = createRecorder({
      db: database.db,
      bus: client,
      outbox: createOutbox({ database, table: outbox, publish: async () => {}, log }),
      log,
      // About three of the plants below (each ~3 KB as counted) per message.
      maxBatchBytes: 10_000,
    });
    const note = 'x'.repeat(1000);
    const settled = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => recorder.record(write(`plt_bytes_${i}`, { note }), caller)),
      recorder.record(write('plt_bytes_big', { note: 'y'.repeat(5000) }), caller),
    ]);
    expect(settled).toHaveLength(7);
    await monitor.flush();
    expect(sizes).toEqual([3, 3, 1]);
    const stored = await database.db.select({ id: plants.id }).from(plants);
    expect(stored.filter((r) => r.id.startsWith('plt_bytes_'))).toHaveLength(7);
    sub.unsubscribe();
  });

  // Last: it stops the ledger.
  it('answers UNAVAILABLE with a retry time, not CHAIN_ERROR, when the ledger does not answer', async () => {
    await stack.miner.stop();
    const err = await call(client, plantRegister, plantInput({ commonName: 'No ledger' }), ctx).catch((e) => e);
    expect(err).toMatchObject({ code: 'UNAVAILABLE', details: { retryAfterSeconds: LEDGER_RETRY_AFTER_SECONDS } });
    const stored = await database.db.select().from(plants).where(eq(plants.commonName, 'No ledger'));
    expect(stored).toEqual([]);
  });
});
