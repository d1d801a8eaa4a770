import { NEARBY_EXACT_TOTAL_MAX } from '@rootline/contracts';
import { type Database, executeRows, migrateSchema, openDatabase } from '@rootline/db';
import { haversineKm, type Point } from '@rootline/domain';
import { createTestDatabase, type TestDatabase } from '@rootline/testing';
import { type SQL, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNearby, nearbyQuery } from '../src/db/nearby.repo.js';
import { nearbyArea } from '../src/domain/nearby.js';
import { nearbyStatementText } from '../src/nearby-statement.js';
import { service } from '../src/service.js';

const ROWS = 8000;
/** Plants near the antimeridian and the north pole. */
const EDGE_ROWS = 1200;

const rowsOf = <T>(database: Database, query: SQL) => executeRows<T>(database.db, query);

/** Plants scattered over the Netherlands and around it, straight into the table (the ledger is not needed here). */
async function seed(database: Database): Promise<void> {
  await migrateSchema(database, { schema: 'plants', migrationsFolder: service.db!.migrationsFolder });
  await database.db.execute(sql`
    insert into plants.plants (id, common_name, latitude, longitude, owner_id, owner_name, block_index, block_hash, tx_id, registered_at)
    select 'plt_' || lpad(g::text, 26, '0'), 'Plant ' || g, 50.5 + 3 * random(), 3 + 4 * random(), 'usr_' || (g % 50), 'Owner',
           0, repeat('0', 64), 'tx_' || g, now()
    from generate_series(1, ${ROWS}) g`);
  // Plants on both sides of the antimeridian and around the north pole, where a box has two longitude ranges or all.
  await database.db.execute(sql`
    insert into plants.plants (id, common_name, latitude, longitude, owner_id, owner_name, block_index, block_hash, tx_id, registered_at)
    select 'plt_e' || lpad(g::text, 25, '0'), 'Edge ' || g,
           case when g % 2 = 0 then -1 + 2 * random() else 88.8 + 1.2 * random() end,
           case when g % 2 = 1 then -180 + 360 * random() when g % 4 = 0 then 179.2 + 0.8 * random()
                else -180 + 0.8 * random() end,
           'usr_e', 'Owner', 0, repeat('0', 64), 'tx_e' || g, now()
    from generate_series(1, ${EDGE_ROWS}) g`);
  // A few hidden plants: no location, so no band.
  await database.db.execute(sql`
    insert into plants.plants (id, common_name, privacy_level, owner_id, owner_name, block_index, block_hash, tx_id, registered_at)
    select 'plt_h' || lpad(g::text, 25, '0'), 'Hidden ' || g, 'hidden', 'usr_h', 'Owner', 0, repeat('0', 64), 'tx_h' || g, now()
    from generate_series(1, 20) g`);
  await database.db.execute(sql`analyze plants.plants`);
}

/** What the nearby answer must be: every located plant measured, filtered, sorted, paged. */
function bruteForce(all: { id: string; latitude: number; longitude: number }[], center: Point, radius: number) {
  return all
    .map((p) => ({ id: p.id, distanceKm: haversineKm(center, p) }))
    .filter((p) => p.distanceKm <= radius)
    .sort((a, b) => a.distanceKm - b.distanceKm || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const CENTERS: [Point, number][] = [
  // Inner and outer boxes of one and two, two and two, two and one (every longitude), one and one (every longitude)
  // longitude ranges.
  [{ latitude: 0, longitude: 179.5 }, 80],
  [{ latitude: 0, longitude: 179.95 }, 50],
  [{ latitude: 89.4, longitude: 179.99 }, 80],
  [{ latitude: 89.9, longitude: 0 }, 50],
  [{ latitude: 52.09, longitude: 5.12 }, 50],
  [{ latitude: 52.37, longitude: 4.89 }, 10],
  [{ latitude: 51.0, longitude: 3.2 }, 120],
  [{ latitude: 53.4, longitude: 6.9 }, 25],
];

// PGlite runs the same migrations and query: the embedded-mode HTTP test checks it against a brute-force scan too.
describe('nearby on PostgreSQL', () => {
  let database: Database;
  let pg: TestDatabase | undefined;
  let all: { id: string; latitude: number; longitude: number }[];

  beforeAll(async () => {
    pg = await createTestDatabase();
    database = await openDatabase({ url: pg.url, dataDir: '.' });
    await seed(database);
    all = await rowsOf(database, sql`select id, latitude, longitude from plants.plants where latitude is not null`);
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
  });

  it('reads the geo index, not the whole table', async () => {
    const center = { latitude: 52.09, longitude: 5.12 };
    const q = nearbyQuery(nearbyArea(center, 50), 0, 20, NEARBY_EXACT_TOTAL_MAX + 1);
    const plan = JSON.stringify(await rowsOf(database, sql`explain (format json) ${q}`));
    expect(plan).toContain('plants_geo_idx');
    expect(plan).not.toMatch(/Seq Scan[^}]*"Relation Name":\s*"plants"/);
  });

  it('answers exactly what a brute-force haversine scan answers, page by page', async () => {
    for (const [center, radius] of CENTERS) {
      const expected = bruteForce(all, center, radius);
      expect(expected.length).toBeGreaterThan(0);
      for (const [offset, limit] of [
        [0, 20],
        [20, 20],
        [0, 100],
      ] as const) {
        const got = await findNearby(database.db, nearbyArea(center, radius), offset, limit, ROWS + EDGE_ROWS + 1);
        expect(got.counted).toBe(expected.length);
        expect(got.inner).toBe(expected.filter((p) => p.distanceKm <= radius / 3).length);
        expect(got.items.map((p) => p.id)).toEqual(expected.slice(offset, offset + limit).map((p) => p.id));
        for (const [i, item] of got.items.entries()) {
          expect(item.distanceKm).toBeCloseTo(expected[offset + i]!.distanceKm, 9);
        }
      }
    }
  });

  it('gives a client without drizzle the same statement as text and values, answering what the service answers', async () => {
    const client = postgres(pg!.url, { max: 1, onnotice: () => {} });
    try {
      for (const [center, radius] of CENTERS) {
        const area = nearbyArea(center, radius);
        const { text, values } = nearbyStatementText(area, 0, 20, NEARBY_EXACT_TOTAL_MAX + 1);
        const rows = await client.unsafe(text, values as postgres.ParameterOrJSON<never>[], { prepare: true });
        const service = await findNearby(database.db, area, 0, 20, NEARBY_EXACT_TOTAL_MAX + 1);
        expect(rows.flatMap((r) => (r.id === null ? [] : [r.id]))).toEqual(service.items.map((p) => p.id));
        expect(Number(rows[0]!.counted)).toBe(service.counted);
      }
    } finally {
      await client.end();
    }
  });

  it('never lists hidden plants and counts past the last page', async () => {
    const center = { latitude: 52, longitude: 5 };
    const got = await findNearby(database.db, nearbyArea(center, 500), 1_000_000, 20, ROWS + 1);
    expect(got.items).toEqual([]);
    expect(got.counted).toBe(ROWS);
  });

  it('stops counting at the cap it is given, and pages the same whether or not the inner circle suffices', async () => {
    const center = { latitude: 52.09, longitude: 5.12 };
    const expected = bruteForce(all, center, 50);
    expect(expected.length).toBeGreaterThan(NEARBY_EXACT_TOTAL_MAX);
    const got = await findNearby(database.db, nearbyArea(center, 50), 0, 20, NEARBY_EXACT_TOTAL_MAX + 1);
    expect(got.counted).toBe(NEARBY_EXACT_TOTAL_MAX + 1);
    // Page 1 comes from the inner circle here, a far page from the whole circle: both equal the brute force.
    expect(got.inner).toBeGreaterThanOrEqual(20);
    expect(got.items.map((p) => p.id)).toEqual(expected.slice(0, 20).map((p) => p.id));
    const far = await findNearby(database.db, nearbyArea(center, 50), 400, 20, NEARBY_EXACT_TOTAL_MAX + 1);
    expect(got.inner).toBeLessThan(420);
    expect(far.items.map((p) => p.id)).toEqual(expected.slice(400, 420).map((p) => p.id));
  });
});
