import { type Database, migrateSchema, openDatabase } from '@rootline/db';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epcisRows } from '../src/db/epcis.repo.js';
import {
  advanceSchedule,
  claimDueSubscription,
  currentSnapshot,
  insertSubscription,
} from '../src/db/epcis-subscriptions.repo.js';
import { epcisNamedQueries, events } from '../src/db/schema.js';
import { service } from '../src/service.js';

const event = (id: string) =>
  ({
    id,
    kind: 'distribution',
    plantId: 'plt_schedules',
    seedLotId: null,
    quantity: null,
    eventTime: '2026-05-01T09:30:00+02:00',
    eventAt: '2026-05-01T07:30:00.000Z',
    fromLocation: null,
    toLocation: { latitude: 52.37, longitude: 4.9 },
    privacyLevel: 'city',
    transportMode: 'cargo-bike',
    distanceKm: 0,
    massKg: 1,
    kgCo2e: 0,
    exactDistanceKm: 0,
    exactKgCo2e: 0,
    handlerId: 'usr_handler',
    handlerName: 'Ada',
    sensorReadings: [],
    recordedAt: '2026-05-01T07:31:00.000Z',
    blockIndex: 1,
    blockHash: 'a'.repeat(64),
    txId: `tx_${id}`,
  }) satisfies typeof events.$inferInsert;

const ALL = {
  kinds: null,
  from: null,
  to: null,
  plantIds: null,
  bizLocations: null,
  placedKinds: [],
  after: null,
  limit: 100,
};

describe('scheduled EPCIS subscriptions on PostgreSQL: claiming and snapshots', () => {
  let infra: TestInfra;
  let database: Database;

  beforeAll(async () => {
    infra = await startTestInfra();
    database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    await migrateSchema(database, { schema: 'transport', migrationsFolder: service.db!.migrationsFolder });
    await database.db
      .insert(epcisNamedQueries)
      .values({ accountId: 'usr_ada', name: 'all', query: {}, createdAt: '2026-05-01T00:00:00Z' });
    await insertSubscription(database.db, {
      id: 'sub_schedules00001',
      accountId: 'usr_ada',
      queryName: 'all',
      dest: 'https://partner.example.org/x',
      webhookId: 'whk_1',
      stream: false,
      reportIfEmpty: true,
      initialRecordTime: null,
      createdAt: '2026-05-01T00:00:00Z',
      schedule: { second: '0' },
      nextDueAt: '2026-05-01T00:01:00Z',
      snapshot: null,
      lastRecordTime: null,
    });
  });
  afterAll(async () => {
    await database?.close();
    await infra?.stop();
  });

  it('lets one of two concurrent claimers take a due subscription; the other skips it, and it is not due again', async () => {
    const now = '2026-05-01T00:01:00.500Z';
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let claimedFirst: string | undefined;
    let firstHolds!: () => void;
    const holding = new Promise<void>((r) => {
      firstHolds = r;
    });
    const first = database.db.transaction(async (tx) => {
      claimedFirst = (await claimDueSubscription(tx, now))?.id;
      firstHolds();
      await held;
      await advanceSchedule(tx, 'sub_schedules00001', {
        nextDueAt: '2026-05-01T00:02:00Z',
        snapshot: await currentSnapshot(tx),
        lastRecordTime: now,
      });
    });
    await holding;
    // While the first holds its row, a second replica's claim skips it rather than wait or take it again.
    const second = await database.db.transaction(async (tx) => (await claimDueSubscription(tx, now))?.id);
    release();
    await first;
    expect(claimedFirst).toBe('sub_schedules00001');
    expect(second).toBeUndefined();
    // Once moved on, the same due time is not claimed again; the next one is.
    expect(await database.db.transaction(async (tx) => claimDueSubscription(tx, now))).toBeUndefined();
    const next = await database.db.transaction(async (tx) => claimDueSubscription(tx, '2026-05-01T00:02:00Z'));
    expect(next).toMatchObject({ id: 'sub_schedules00001', query: {}, lastRecordTime: expect.any(String) });
  });

  it('splits events by the snapshot: one stored by a transaction running when it was taken comes after, not before', async () => {
    await database.db.insert(events).values(event('tev_sched_before'));
    let commit!: () => void;
    const committing = new Promise<void>((r) => {
      commit = r;
    });
    let inserted!: () => void;
    const insertedYet = new Promise<void>((r) => {
      inserted = r;
    });
    // An event whose transaction is still open (as a ledger write is) when the snapshot is taken.
    const late = database.db.transaction(async (tx) => {
      await tx.insert(events).values(event('tev_sched_late'));
      inserted();
      await committing;
    });
    await insertedYet;
    const snapshot = await currentSnapshot(database.db);
    commit();
    await late;
    await database.db.insert(events).values(event('tev_sched_after'));

    const seen = (await epcisRows(database.db, { ...ALL, seenBy: snapshot })).map((r) => r.id);
    const unseen = (await epcisRows(database.db, { ...ALL, unseenBy: snapshot })).map((r) => r.id);
    expect(seen).toEqual(['tev_sched_before']);
    expect(unseen.sort()).toEqual(['tev_sched_after', 'tev_sched_late']);
  });
});
