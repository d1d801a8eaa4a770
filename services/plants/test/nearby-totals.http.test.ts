import { NEARBY_EXACT_TOTAL_MAX, PAGE_DEFAULTS } from '@rootline/contracts';
import { executeRows } from '@rootline/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

/** An independent haversine on the same sphere, for the brute-force answers. */
function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const s1 = Math.sin((b.latitude * rad - a.latitude * rad) / 2);
  const s2 = Math.sin((b.longitude * rad - a.longitude * rad) / 2);
  const h = s1 * s1 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * s2 * s2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A number in [0, 1) drawn from `i` by PostgreSQL's integer hash: the same plants on every run. */
const draw = (salt: number) => sql`((hashint4(i * 31 + ${salt}::int)::float8 + 2147483648) / 4294967296)`;

/**
 * `n` plants spread evenly over a latitude/longitude box, straight into the table (not on the ledger), at places
 * drawn from their number (not `random()`), so the counts the tests rely on are the same on every run.
 */
const scatter = (prefix: string, n: number, lat: [number, number], lon: [number, number]) => sql`
  insert into plants.plants (id, common_name, latitude, longitude, owner_id, owner_name, block_index, block_hash,
    tx_id, registered_at)
  select ${prefix} || lpad(i::text, 6, '0'), 'Plant ' || i, ${lat[0]}::float8 + ${lat[1] - lat[0]}::float8 * ${draw(1)},
    ${lon[0]}::float8 + ${lon[1] - lon[0]}::float8 * ${draw(2)}, 'usr_bulk', 'Bulk Grower', 0, repeat('0', 64),
    ${prefix} || 'tx' || i, now()
  from generate_series(1, ${n}::int) i`;

describe('nearby over HTTP on NATS and PostgreSQL: exact pages, totals exact up to the cap', () => {
  let p: TestPlatform;
  let reader: string;
  let all: { id: string; latitude: number; longitude: number }[];

  /** The plants within `radius` km of `center`, nearest first, ties by id: what every page must be cut from. */
  const bruteForce = (center: { latitude: number; longitude: number }, radius: number) =>
    all
      .map((x) => ({ id: x.id, d: km(center, x) }))
      .filter((x) => x.d <= radius)
      .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
  const nearby = (center: { latitude: number; longitude: number }, query: string) =>
    p.http('GET', `/api/plants/nearby?lat=${center.latitude}&lon=${center.longitude}&${query}`, { token: reader });

  beforeAll(async () => {
    p = await startPlantsPlatform();
    reader = await p.token('USER', 'usr_reader');
    // A dense town (3,000 plants over about 30 × 30 km) in a sparse country (400 over about 300 × 300 km).
    await executeRows(p.database.db, scatter('plt_town_', 3000, [45.6, 45.9], [4.6, 5.0]));
    await executeRows(p.database.db, scatter('plt_country_', 400, [44.5, 47.0], [3.0, 7.0]));
    await executeRows(p.database.db, sql`analyze plants.plants`);
    all = await executeRows(p.database.db, sql`select id, latitude, longitude from plants.plants`);
  });
  afterAll(async () => {
    await p?.stop();
  });

  it(`pages exactly by distance and counts exactly up to ${NEARBY_EXACT_TOTAL_MAX} plants`, async () => {
    // Out in the country: fewer than the cap within the radius, and fewer than a page within its inner circle.
    const center = { latitude: 46.7, longitude: 3.3 };
    for (const radius of [20, 60, 120]) {
      const expected = bruteForce(center, radius);
      expect(expected.length).toBeLessThanOrEqual(NEARBY_EXACT_TOTAL_MAX);
      const res = await nearby(center, `radius=${radius}`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((x: { id: string }) => x.id)).toEqual(
        expected.slice(0, PAGE_DEFAULTS.limit).map((x) => x.id),
      );
      expect(res.body.pagination).toEqual({
        page: 1,
        limit: PAGE_DEFAULTS.limit,
        total: expected.length,
        totalPages: Math.ceil(expected.length / PAGE_DEFAULTS.limit),
        totalIsEstimate: false,
      });
    }
  });

  it('flags the total as an estimate past the cap, and still pages exactly by distance', async () => {
    const center = { latitude: 45.75, longitude: 4.8 };
    const expected = bruteForce(center, 50);
    expect(expected.length).toBeGreaterThan(NEARBY_EXACT_TOTAL_MAX);
    // Page 1 (from the inner circle), a page past the inner circle's plants, the last page and one past it.
    for (const page of [1, 3, 60, Math.ceil(expected.length / 50), Math.ceil(expected.length / 50) + 1]) {
      const res = await nearby(center, `limit=50&page=${page}`);
      expect(res.status).toBe(200);
      const want = expected.slice((page - 1) * 50, page * 50);
      expect(
        res.body.data.map((x: { id: string }) => x.id),
        `page ${page}`,
      ).toEqual(want.map((x) => x.id));
      expect(res.body.data.map((x: { distanceKm: number }) => x.distanceKm)).toEqual(
        want.map((x) => expect.closeTo(x.d, 9)),
      );
      const { total, totalPages, totalIsEstimate } = res.body.pagination;
      expect(totalIsEstimate).toBe(true);
      expect(total).toBeGreaterThan(NEARBY_EXACT_TOTAL_MAX);
      expect(totalPages).toBe(Math.ceil(total / 50));
    }
  });

  it('is exact at the cap itself and an estimate one past it', async () => {
    const center = { latitude: 45.75, longitude: 4.8 };
    const byRadius = bruteForce(center, 50);
    // The radii that hold exactly the cap and one more plant.
    const atCap = (byRadius[NEARBY_EXACT_TOTAL_MAX - 1]!.d + byRadius[NEARBY_EXACT_TOTAL_MAX]!.d) / 2;
    const pastCap = (byRadius[NEARBY_EXACT_TOTAL_MAX]!.d + byRadius[NEARBY_EXACT_TOTAL_MAX + 1]!.d) / 2;
    const exact = await nearby(center, `radius=${atCap}`);
    expect(exact.body.pagination).toMatchObject({ total: NEARBY_EXACT_TOTAL_MAX, totalIsEstimate: false });
    const estimated = await nearby(center, `radius=${pastCap}`);
    expect(estimated.body.pagination.totalIsEstimate).toBe(true);
    expect(estimated.body.pagination.total).toBeGreaterThan(NEARBY_EXACT_TOTAL_MAX);
  });
});
