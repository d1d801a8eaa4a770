import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, type Db, executeRows, migrateSchema, openDatabase } from '@rootline/db';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchFacts, readingCounts, recipeNames, zoneFacts } from '../src/db/analytics.repo.js';
import { farmAnalytics, type ReadingCounts } from '../src/domain/analytics.js';
import { service } from '../src/service.js';
import { expectStatus, farmWithZone, startFarmPlatform, type TestPlatform } from './support.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The oracle: the readings counted on read, as analytics did before the rollups (a scan of the farm's readings). */
async function scannedCounts(db: Db, farmId: string, from: Date, to: Date): Promise<Map<string, ReadingCounts>> {
  const rows = await executeRows<{ batchId: string; count: number; inTarget: number }>(
    db,
    sql`select batch_id as "batchId", count(*)::int as count, count(*) filter (where in_target)::int as "inTarget"
      from farm.readings where farm_id = ${farmId} and at >= ${from.toISOString()} and at < ${to.toISOString()}
      group by batch_id`,
  );
  return new Map(rows.map((r) => [r.batchId, { count: r.count, inTarget: r.inTarget }]));
}

/** The analytics answer computed on read over [from, to), in the shape the API answers. */
async function computedOnRead(db: Db, farmId: string, from: Date, to: Date) {
  const [zones, batches, readings] = await Promise.all([
    zoneFacts(db, farmId),
    batchFacts(db, farmId, from, to),
    scannedCounts(db, farmId, from, to),
  ]);
  const names = await recipeNames(db, [...new Set(batches.map((b) => b.recipeId))]);
  const answer = {
    farmId,
    from: from.toISOString(),
    to: to.toISOString(),
    ...farmAnalytics({ from, to, zones, batches, readings }, names),
  };
  return JSON.parse(JSON.stringify(answer));
}

/** Rollup rows against a group-by of the readings: one list each, sorted alike. */
async function rollupsAndScan(db: Db) {
  const q = <T>(query: SQL) => executeRows<T>(db, query);
  const [totals, days, scanTotals, scanDays] = await Promise.all([
    q(
      sql`select batch_id, farm_id, readings, in_target, first_at::text, last_at::text from farm.reading_totals order by 1`,
    ),
    q(sql`select batch_id, day::text, readings, in_target from farm.reading_days order by 1, 2`),
    q(sql`select batch_id, min(farm_id) as farm_id, count(*)::int as readings,
        count(*) filter (where in_target)::int as in_target, min(at)::text as first_at, max(at)::text as last_at
      from farm.readings group by 1 order by 1`),
    q(sql`select batch_id, date_trunc('day', at, 'UTC')::text as day, count(*)::int as readings,
        count(*) filter (where in_target)::int as in_target from farm.readings group by 1, 2 order by 1, 2`),
  ]);
  return { totals, days, scanTotals, scanDays };
}

/** A reading at `t`; every seventh is outside the lettuce targets (pH 4). */
const reading = (t: number, i: number) => ({
  at: new Date(t).toISOString(),
  temperatureC: 20 + (i % 5) * 0.2,
  humidityPct: 85,
  co2Ppm: 1000,
  ppfd: 50,
  ecMsCm: 0.5,
  ph: i % 7 === 0 ? 4 : 5.8,
  waterTemperatureC: 21,
  dissolvedOxygenMgL: 8,
});

describe('farm analytics from rollups, over HTTP', () => {
  let p: TestPlatform;
  let farmId: string;
  let zoneId: string;
  const now = Date.now();

  const startBatch = async (daysAgo: number, crop: 'lettuce' | 'basil' = 'lettuce') =>
    (
      await expectStatus(p, 201, 'POST', '/api/vertical-farm/batch/start', {
        body: {
          farmId,
          zoneId,
          recipeId: crop === 'basil' ? 'rcp_basil0genovese00001' : 'rcp_lettuce0butterhead01',
          crop,
          variety: 'Rex',
          plantCount: 40,
          seedSource: { type: 'seed-lot', seedLot: 'RZ-9' },
          startedAt: new Date(now - daysAgo * DAY_MS).toISOString(),
        },
      })
    ).body.data.id as string;
  const put = (batchId: string, readings: unknown[]) =>
    expectStatus(p, 200, 'PUT', `/api/vertical-farm/batch/${batchId}/environment`, { body: { readings } });
  const analytics = (query = '') => expectStatus(p, 200, 'GET', `/api/vertical-farm/${farmId}/analytics${query}`);

  beforeAll(async () => {
    p = await startFarmPlatform();
    ({ farmId, zoneId } = await farmWithZone(p, undefined, { capacity: 10_000 }));
  });
  afterAll(async () => p?.stop());

  it('answers as the computed-on-read analytics for every kind of period', async () => {
    // Three batches over the last 20 days, a reading every 37 minutes each; one harvested, one failed.
    const batches = [await startBatch(20), await startBatch(12, 'basil'), await startBatch(6)];
    for (const [b, batchId] of batches.entries()) {
      const start = now - [20, 12, 6][b]! * DAY_MS + MINUTE_MS;
      const times: number[] = [];
      for (let t = start; t < now - MINUTE_MS; t += 37 * MINUTE_MS) times.push(t);
      for (let i = 0; i < times.length; i += 500) {
        await put(
          batchId,
          times.slice(i, i + 500).map((t, k) => reading(t, i + k)),
        );
      }
    }
    await expectStatus(p, 201, 'POST', `/api/vertical-farm/batch/${batches[0]}/harvest`, {
      body: { yieldKg: 6.5, qualityGrade: 'premium' },
    });
    await expectStatus(p, 200, 'POST', `/api/vertical-farm/batch/${batches[1]}/fail`, { body: { reason: 'Pythium' } });

    const midnight = Math.floor(now / DAY_MS) * DAY_MS;
    const periods: [number, number][] = [
      [now - 10.4 * DAY_MS, now - 2.3 * DAY_MS], // both bounds mid-day, batches straddling each
      [midnight - 9 * DAY_MS, midnight - 3 * DAY_MS], // whole days only
      [now - 5.2 * DAY_MS, now - 5 * DAY_MS], // within a day
      [midnight - 4 * DAY_MS - 3_600_000, midnight - 3 * DAY_MS + 3_600_000], // one whole day and two partial
      [midnight - 2 * DAY_MS - 7_200_000, midnight - 2 * DAY_MS + 7_200_000], // across one midnight, no whole day
      [now - 30 * DAY_MS, now + DAY_MS], // every batch whole
      [now - 400 * DAY_MS, now - 100 * DAY_MS], // before the readings
    ];
    const res = await analytics();
    const a = res.body.data;
    expect(a.totals.readings).toBeGreaterThan(1000);
    expect(a).toEqual(await computedOnRead(p.database.db, farmId, new Date(a.from), new Date(a.to)));
    for (const [from, to] of periods) {
      const q = `?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
      const got = (await analytics(q)).body.data;
      expect(got, q).toEqual(await computedOnRead(p.database.db, farmId, new Date(from), new Date(to)));
    }
  });

  it('concurrent requests storing readings for the same batch lose no count', async () => {
    const batchId = await startBatch(3);
    // Sixteen requests of 100 readings, each sharing 50 with the next: 850 distinct readings over 2.4 days.
    const base = now - 2.9 * DAY_MS;
    const bodies = Array.from({ length: 16 }, (_, k) =>
      Array.from({ length: 100 }, (_, i) => reading(base + (k * 50 + i) * 4 * MINUTE_MS, k * 50 + i)),
    );
    const answers = await Promise.all(bodies.map((body) => put(batchId, body)));
    expect(answers.reduce((s, r) => s + r.body.data.accepted, 0)).toBe(850);
    const { totals, days, scanTotals, scanDays } = await rollupsAndScan(p.database.db);
    expect(totals).toEqual(scanTotals);
    expect(days).toEqual(scanDays);
    const row = totals.find((t) => (t as { batch_id: string }).batch_id === batchId);
    expect(row).toMatchObject({ readings: 850 });
  });

  it('after concurrent ingests into several batches, analytics from rollups equal those computed from the readings', async () => {
    const batches = [await startBatch(4), await startBatch(4, 'basil'), await startBatch(3)];
    const base = now - 2.95 * DAY_MS;
    // 48 requests at once, 16 per batch, each sharing half its readings with the next of its batch and some resent
    // whole; every fifth request has readings out of target (the transaction path with deviations).
    const bodies = Array.from({ length: 48 }, (_, n) => {
      const k = Math.floor(n / 3) % 12;
      return Array.from({ length: 100 }, (_, i) => {
        const r = reading(base + (k * 50 + i) * 5 * MINUTE_MS, k * 50 + i);
        return n % 5 === 0 ? r : { ...r, ph: 5.8 };
      });
    });
    const sent = bodies.map((body, n) => ({ batchId: batches[n % 3]!, body }));
    const answers = await Promise.all(sent.map(({ batchId, body }) => put(batchId, body)));

    // Every reading acknowledged as accepted is stored, once, and counted once in its batch's rollups.
    const stored = await executeRows<{ batchId: string; n: number }>(
      p.database.db,
      sql`select batch_id as "batchId", count(*)::int as n from farm.readings where farm_id = ${farmId} group by 1`,
    );
    for (const batchId of batches) {
      const accepted = answers.reduce((s, r, n) => s + (sent[n]!.batchId === batchId ? r.body.data.accepted : 0), 0);
      expect(accepted).toBeGreaterThan(0);
      expect(stored.find((r) => r.batchId === batchId)?.n).toBe(accepted);
    }
    const { totals, days, scanTotals, scanDays } = await rollupsAndScan(p.database.db);
    expect(totals).toEqual(scanTotals);
    expect(days).toEqual(scanDays);

    const midnight = Math.floor(now / DAY_MS) * DAY_MS;
    const periods: [number, number][] = [
      [now - 30 * DAY_MS, now + DAY_MS],
      [now - 2.5 * DAY_MS, now - 1.2 * DAY_MS],
      [midnight - 2 * DAY_MS - 3_600_000, midnight - DAY_MS + 60_000],
    ];
    const a = (await analytics()).body.data;
    expect(a).toEqual(await computedOnRead(p.database.db, farmId, new Date(a.from), new Date(a.to)));
    for (const [from, to] of periods) {
      const q = `?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
      const got = (await analytics(q)).body.data;
      expect(got, q).toEqual(await computedOnRead(p.database.db, farmId, new Date(from), new Date(to)));
    }
  });
});

describe('rollups backfilled by the migration', () => {
  let infra: TestInfra;
  let database: Database;
  let before: string;

  beforeAll(async () => {
    infra = await startTestInfra();
    database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    // The migrations as they stood before the rollups.
    const folder = service.db!.migrationsFolder;
    before = mkdtempSync(join(tmpdir(), 'farm-migrations-'));
    cpSync(folder, before, { recursive: true });
    const journalPath = join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
    journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < '0005');
    writeFileSync(journalPath, JSON.stringify(journal));
  });
  afterAll(async () => {
    rmSync(before, { recursive: true, force: true });
    await database?.close();
    await infra?.stop();
  });

  it('fills the totals and days of the readings stored before it, and analytics count them', async () => {
    const db = database.db;
    await migrateSchema(database, { schema: 'farm', migrationsFolder: before });
    // Readings of three batches over 30 days, one every 17 minutes; some stored before fingerprints (null).
    await db.execute(sql`
      insert into farm.readings (batch_id, farm_id, at, in_target, fingerprint)
      select 'bat_' || (i % 3), case when i % 3 = 2 then 'frm_b' else 'frm_a' end,
        timestamptz '2026-03-01 05:00:00+00' + i * interval '17 minutes', i % 9 <> 0,
        case when i % 4 = 0 then null else md5(i::text) end
      from generate_series(1, 2540) as i`);
    await migrateSchema(database, { schema: 'farm', migrationsFolder: service.db!.migrationsFolder });

    // No index by farm on the readings any more: analytics read the rollups (ADR 163).
    const indexes = await executeRows<{ indexname: string }>(
      db,
      sql`select indexname from pg_indexes where schemaname = 'farm' and tablename = 'readings' order by 1`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual(['readings_batch_reading_key']);

    const { totals, days, scanTotals, scanDays } = await rollupsAndScan(db);
    expect(totals).toHaveLength(3);
    expect(totals).toEqual(scanTotals);
    expect(days).toEqual(scanDays);
    const periods: [string, string][] = [
      ['2026-03-04T13:20:00Z', '2026-03-21T02:00:00Z'],
      ['2026-02-01T00:00:00Z', '2026-05-01T00:00:00Z'],
      ['2026-03-10T23:00:00Z', '2026-03-11T01:00:00Z'],
    ];
    for (const [from, to] of periods) {
      const [f, t] = [new Date(from), new Date(to)];
      expect(await readingCounts(db, 'frm_a', f, t)).toEqual(await scannedCounts(db, 'frm_a', f, t));
    }
  });
});
