import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchHarvested, batchStarted, plantRegistered, transportCompleted } from '@rootline/contracts';
import { type Database, migrateSchema, openDatabase } from '@rootline/db';
import { createTestDatabase, type TestDatabase } from '@rootline/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyManyToAnalytics, applyToAnalytics, readRollups } from '../src/db/analytics.repo.js';
import { buildAnalyticsFromAudit } from '../src/db/analytics-rebuild.js';
import { appendEntry, ensureHead } from '../src/db/audit.repo.js';
import { analyticsDaily, analyticsState, analyticsTransportFacts } from '../src/db/schema.js';
import type { AnalyticsEvent } from '../src/domain/analytics-rollup.js';
import { service } from '../src/service.js';

const AT = '2026-11-20T10:00:00.000Z';
const MAY = { from: '2026-05-01', to: '2026-05-31', groupBy: 'month' as const };

const plant = (id: string, species: string, privacyLevel = 'exact'): AnalyticsEvent => ({
  subject: plantRegistered.subject,
  occurredAt: AT,
  payload: { plantId: id, commonName: species, scientificName: species, privacyLevel },
});
const trip = (id: string, mode: string, kgCo2e: number, corrects: string | null = null): AnalyticsEvent => ({
  subject: transportCompleted.subject,
  occurredAt: AT,
  payload: {
    eventId: id,
    kind: 'distribution',
    plantId: 'plt_a',
    seedLotId: null,
    handlerId: 'usr_ada',
    recipientId: null,
    transportMode: mode,
    distanceKm: 10,
    kgCo2e,
    eventTime: '2026-05-04T09:30:00+02:00',
    corrects,
  },
});

// The same schema and queries run on PostgreSQL (cluster) and PGlite (embedded).
describe.each(['postgres', 'pglite'] as const)('analytics counters on %s', (driver) => {
  let pg: TestDatabase | undefined;
  let dataDir: string | undefined;
  let database: Database;

  beforeAll(async () => {
    if (driver === 'postgres') {
      pg = await createTestDatabase('rl_analytics');
      database = await openDatabase({ url: pg.url, dataDir: '.' });
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'rootline-analytics-'));
      database = await openDatabase({ dataDir });
    }
    await migrateSchema(database, { schema: 'transparency', migrationsFolder: service.db!.migrationsFolder });
    await ensureHead(database.db, new Date(AT));
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await database.db.delete(analyticsDaily);
    await database.db.delete(analyticsTransportFacts);
  });

  const counters = async () =>
    (await database.db.select().from(analyticsDaily))
      .filter((r) => r.count !== 0)
      .map((r) => ({ ...r, distanceKm: Math.round(r.distanceKm * 1e6), kgCo2e: Math.round(r.kgCo2e * 1e6) }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  const byMode = async () =>
    (await readRollups(database.db, { ...MAY, series: ['transport'], keys: ['d2'] }))
      .filter((r) => r.count !== 0)
      .map((r) => [r.keys[0], r.count, r.kgCo2e]);

  const events: AnalyticsEvent[] = [
    plant('plt_1', 'Solanum lycopersicum', 'city'),
    plant('plt_2', 'Solanum lycopersicum', 'city'),
    plant('plt_3', 'Ocimum basilicum'),
    trip('tev_a', 'diesel-van', 2.5),
    trip('tev_b', 'bicycle', 0, 'tev_a'),
    trip('tev_c', 'car', 1.7),
    {
      subject: batchStarted.subject,
      occurredAt: AT,
      payload: { batchId: 'b', farmId: 'f', zoneId: 'z', recipeId: 'r', crop: 'lettuce', plantId: null },
    },
    {
      subject: batchHarvested.subject,
      occurredAt: AT,
      payload: { batchId: 'b', harvestId: 'h', farmId: 'f', crop: 'lettuce', yieldKg: 3.5, qualityGrade: 'premium' },
    },
  ];

  it('ends in the same counters whether events are applied one by one or as one batch', async () => {
    for (const e of events) await database.db.transaction((tx) => applyToAnalytics(tx, e));
    const single = await counters();
    await database.db.delete(analyticsDaily);
    await database.db.delete(analyticsTransportFacts);
    await database.db.transaction((tx) => applyManyToAnalytics(tx, events));
    expect(await counters()).toEqual(single);
    expect(single.find((r) => r.series === 'plants' && r.d1 === 'Solanum lycopersicum')).toMatchObject({
      day: '2026-11-20',
      d2: 'city',
      count: 2,
    });
    expect(single.find((r) => r.series === 'farm-harvests')).toMatchObject({ d1: 'lettuce', count: 1, yieldKg: 3.5 });
    // The van trip was corrected into a bicycle ride, in the same batch or not.
    expect(await byMode()).toEqual([
      ['bicycle', 1, 0],
      ['car', 1, 1.7],
    ]);
  });

  it('takes a corrected event out once, and follows a chain of corrections', async () => {
    await database.db.transaction((tx) => applyManyToAnalytics(tx, [trip('tev_a', 'diesel-van', 2.5)]));
    await database.db.transaction((tx) => applyToAnalytics(tx, trip('tev_b', 'car', 1.7, 'tev_a')));
    expect(await byMode()).toEqual([['car', 1, 1.7]]);
    // A second correction of the same event does not take it out twice; correcting the correction replaces it.
    await database.db.transaction((tx) => applyToAnalytics(tx, trip('tev_c', 'rail', 0.1, 'tev_a')));
    expect(await byMode()).toEqual([
      ['car', 1, 1.7],
      ['rail', 1, 0.1],
    ]);
    await database.db.transaction((tx) => applyToAnalytics(tx, trip('tev_d', 'bicycle', 0, 'tev_b')));
    expect(await byMode()).toEqual([
      ['bicycle', 1, 0],
      ['rail', 1, 0.1],
    ]);
    const user = await readRollups(database.db, { ...MAY, series: ['transport-user'], keys: ['d3'], d1: 'usr_ada' });
    expect(user.filter((r) => r.count !== 0).map((r) => r.keys[0])).toEqual(['bicycle', 'rail']);
  });

  it('keeps the dimension values with most events and sums the others under (other), in the database', async () => {
    const many: AnalyticsEvent[] = [];
    for (let s = 1; s <= 20; s++) for (let i = 0; i < s; i++) many.push(plant(`plt_${s}_${i}`, `Species ${s}`));
    many.push({ subject: plantRegistered.subject, occurredAt: AT, payload: { plantId: 'plt_x', commonName: '' } });
    await database.db.transaction((tx) => applyManyToAnalytics(tx, many));
    const rows = await readRollups(database.db, {
      from: '2026-11-01',
      to: '2026-11-30',
      groupBy: 'month',
      series: ['plants'],
      keys: ['d1'],
      limitKeys: 3,
    });
    expect(rows.map((r) => [r.keys[0], r.count])).toEqual([
      ['', 1],
      ['(other)', (17 * 18) / 2],
      ['Species 18', 18],
      ['Species 19', 19],
      ['Species 20', 20],
    ]);
  });

  it('builds the counters from the audit log once, for events recorded before the read model', async () => {
    let index = 0;
    for (const e of events) {
      await database.db.transaction((tx) =>
        appendEntry(
          tx,
          {
            source: 'event',
            subject: e.subject,
            kind: e.subject,
            eventId: `evt_${index++}`,
            actor: null,
            entity: null,
            occurredAt: e.occurredAt,
            recordedAt: AT,
            reason: null,
            data: e.payload,
          },
          new Date(AT),
        ),
      );
    }
    await database.db.delete(analyticsState);
    expect(await buildAnalyticsFromAudit(database.db, new Date(AT))).toBe(events.length);
    const built = await counters();
    await database.db.delete(analyticsDaily);
    await database.db.delete(analyticsTransportFacts);
    await database.db.transaction((tx) => applyManyToAnalytics(tx, events));
    expect(built).toEqual(await counters());
    // Done once: a restart does not count the log again.
    expect(await buildAnalyticsFromAudit(database.db, new Date(AT))).toBe(0);
    const [state] = await database.db.select().from(analyticsState);
    expect(state?.builtFromAuditSize).toBe(events.length);
  });
});
