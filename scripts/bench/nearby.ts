import { newId, PAGE_DEFAULTS } from '@rootline/contracts';
import { api } from '@rootline/testing';
import postgres from 'postgres';
import { ms, quantile, sequential, signIn, startBenchCluster } from './lib/http-bench.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { seeded } from './lib/random.js';
import { type SeedPlant, seedPlants } from './lib/seed-plants.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Plants seeded; `BENCH_NEARBY_PLANTS` lowers it for a smoke run. */
const DEFAULT_PLANTS = 1_000_000;
/** Query points; every one is checked against a brute-force scan before the load. */
const QUERY_POINTS = 100;
const RADIUS_KM = 50;
const TARGET_P50_MS = 5;
const SEED = 42;

// The data: settlements placed at random over Europe, each a Gaussian cluster of plants, plus some spread evenly.
const EUROPE = { minLat: 36, maxLat: 70, minLon: -10, maxLon: 35 };
const SETTLEMENTS = 3000;
const SPREAD_EVENLY = 0.2;
const SPECIES = [
  ['Tomato', 'Solanum lycopersicum'],
  ['Basil', 'Ocimum basilicum'],
  ['Mint', 'Mentha spicata'],
  ['Apple', 'Malus domestica'],
  ['Fig', 'Ficus carica'],
  ['Olive', 'Olea europaea'],
  ['Rosemary', 'Salvia rosmarinus'],
  ['Potato', 'Solanum tuberosum'],
] as const;

/**
 * The same sphere and formula as the plants service's `haversineKm`, written here again rather than imported, so the
 * brute-force scan shares no code with the service and is an independent reference.
 */
const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;
function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const p1 = lat1 * RAD;
  const p2 = lat2 * RAD;
  const sLat = Math.sin((p2 - p1) / 2);
  const sLon = Math.sin((lon2 * RAD - lon1 * RAD) / 2);
  const h = sLat * sLat + Math.cos(p1) * Math.cos(p2) * sLon * sLon;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface Dataset {
  ids: string[];
  lat: Float64Array;
  lon: Float64Array;
}

/** Generates the plants' positions (deterministic for a count). */
export function generate(count: number): Dataset {
  const random = seeded(SEED);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const span = (lo: number, hi: number) => lo + (hi - lo) * random();
  const towns = Array.from({ length: SETTLEMENTS }, () => ({
    lat: span(EUROPE.minLat + 1, EUROPE.maxLat - 2),
    lon: span(EUROPE.minLon + 1, EUROPE.maxLon - 6),
    weight: Math.exp(0.7 * gauss()),
    sigmaKm: span(20, 60),
  }));
  const total = towns.reduce((a, t) => a + t.weight, 0);
  const cumulative: number[] = [];
  let acc = 0;
  for (const t of towns) {
    acc += t.weight / total;
    cumulative.push(acc);
  }
  const ds: Dataset = { ids: [], lat: new Float64Array(count), lon: new Float64Array(count) };
  const start = Date.now() - count;
  for (let i = 0; i < count; i++) {
    ds.ids.push(newId('plt', start + i));
    if (random() < SPREAD_EVENLY) {
      ds.lat[i] = span(EUROPE.minLat, EUROPE.maxLat);
      ds.lon[i] = span(EUROPE.minLon, EUROPE.maxLon);
      continue;
    }
    const r = random();
    let lo = 0;
    let hi = towns.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    const t = towns[lo]!;
    ds.lat[i] = Math.max(-90, Math.min(90, t.lat + (gauss() * t.sigmaKm) / 111.195));
    ds.lon[i] = t.lon + (gauss() * t.sigmaKm) / (111.195 * Math.cos(t.lat * RAD));
  }
  return ds;
}

/** The dataset's plants as they are seeded. */
export function* plantRows(ds: Dataset): Generator<SeedPlant> {
  for (let i = 0; i < ds.ids.length; i++) {
    const [commonName, scientificName] = SPECIES[i % SPECIES.length]!;
    const owner = `Grower ${i % 20_000}`;
    yield {
      id: ds.ids[i]!,
      commonName,
      scientificName,
      latitude: ds.lat[i]!,
      longitude: ds.lon[i]!,
      city: null,
      country: 'EU',
      privacyLevel: 'exact',
      ownerId: `usr_bench_${i % 20_000}`,
      ownerName: owner,
      searchSpecies: `${commonName} ${scientificName}`.toLowerCase(),
      searchLocation: 'eu',
      searchOwner: owner.toLowerCase(),
    };
  }
}

interface Expected {
  ids: string[];
  distances: number[];
  total: number;
}

/** Brute force: every plant measured, those within the radius sorted by distance then id, the first page kept. */
function bruteForce(ds: Dataset, lat: number, lon: number, radius: number, limit: number): Expected {
  const hits: { i: number; d: number }[] = [];
  for (let i = 0; i < ds.ids.length; i++) {
    const d = haversineKm(lat, lon, ds.lat[i]!, ds.lon[i]!);
    if (d <= radius) hits.push({ i, d });
  }
  hits.sort((a, b) => a.d - b.d || (ds.ids[a.i]! < ds.ids[b.i]! ? -1 : 1));
  const page = hits.slice(0, limit);
  return { ids: page.map((h) => ds.ids[h.i]!), distances: page.map((h) => h.d), total: hits.length };
}

/** Query points at the places of random plants: where the plants are, so the harder (denser) case. */
export function queryPoints(ds: Dataset): { lat: number; lon: number }[] {
  const random = seeded(SEED + 1);
  return Array.from({ length: QUERY_POINTS }, () => {
    const i = Math.floor(random() * ds.ids.length);
    return { lat: Number(ds.lat[i]!.toFixed(5)), lon: Number(ds.lon[i]!.toFixed(5)) };
  });
}

export const pathOf = (q: { lat: number; lon: number }) => `/api/plants/nearby?lat=${q.lat}&lon=${q.lon}`;

/** Checks every query point's first page and total against the brute force; throws on the first difference. */
async function verify(
  ctx: BenchContext,
  url: string,
  headers: Record<string, string>,
  ds: Dataset,
  points: { lat: number; lon: number }[],
): Promise<number[]> {
  const totals: number[] = [];
  for (const q of points) {
    const expected = bruteForce(ds, q.lat, q.lon, RADIUS_KM, PAGE_DEFAULTS.limit);
    const res = await api(url, pathOf(q), { headers });
    if (res.status !== 200) throw new Error(`${pathOf(q)} answered ${res.status} ${JSON.stringify(res.body)}`);
    const got: { id: string; distanceKm: number }[] = res.body.data;
    const ids = got.map((g) => g.id);
    const sameIds = ids.length === expected.ids.length && ids.every((id, i) => id === expected.ids[i]);
    const sameDistances = got.every((g, i) => Math.abs(g.distanceKm - expected.distances[i]!) <= 1e-9);
    if (!sameIds || !sameDistances || res.body.pagination.total !== expected.total) {
      throw new Error(
        `${pathOf(q)} differs from the brute-force scan: got ${JSON.stringify(ids)} (total ` +
          `${res.body.pagination.total}), expected ${JSON.stringify(expected.ids)} (total ${expected.total})`,
      );
    }
    totals.push(expected.total);
  }
  ctx.log(`  all ${points.length} query points equal the brute-force scan`);
  return totals;
}

/**
 * The plan of the candidate scan of one query point as PostgreSQL runs it (the bands and ranges the service reads
 * for its bounding box), to show which index serves it and how many rows it touches.
 */
async function explain(databaseUrl: string, q: { lat: number; lon: number }): Promise<string> {
  const dLat = RADIUS_KM / EARTH_RADIUS_KM / RAD;
  const dLon = Math.asin(Math.sin(RADIUS_KM / EARTH_RADIUS_KM) / Math.cos(q.lat * RAD)) / RAD;
  const bands: number[] = [];
  for (let b = Math.floor((q.lat - dLat) * 10); b <= Math.floor((q.lat + dLat) * 10); b++) bands.push(b);
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql.unsafe(
      `explain (analyze, buffers, costs off, summary on)
       select id, latitude, longitude from plants.plants
       where geo_band in (${bands.join(', ')}) and longitude between ${q.lon - dLon} and ${q.lon + dLon}
         and latitude between ${q.lat - dLat} and ${q.lat + dLat}`,
    );
    return rows.map((r) => String(r['QUERY PLAN'])).join('\n');
  } finally {
    await sql.end();
  }
}

/**
 * GET /api/plants/nearby over a million plants clustered in Europe: results checked against a brute-force
 * haversine scan, then latency for one client at a time and under concurrent load, through the whole platform.
 */
export const nearby: Benchmark = {
  name: 'nearby',
  title: 'GET /api/plants/nearby over 1,000,000 plants clustered in Europe',
  timeLimitSeconds: (s) => 1800 + 2 * (s.warmupSeconds + s.durationSeconds),
  async run(ctx): Promise<BenchReport> {
    const { scope, settings } = ctx;
    const count = Number(process.env.BENCH_NEARBY_PLANTS ?? DEFAULT_PLANTS);
    if (!Number.isInteger(count) || count < 1000) throw new Error('BENCH_NEARBY_PLANTS must be a whole number ≥ 1000');
    const { db, cluster } = await startBenchCluster(ctx);

    ctx.log(`generating ${fmt(count)} plants`);
    const ds = generate(count);
    ctx.log('seeding them with COPY, then VACUUM ANALYZE');
    const seedStart = Date.now();
    await seedPlants(db.url, plantRows(ds));
    const seedSeconds = (Date.now() - seedStart) / 1000;
    ctx.log(`  seeded in ${fmt(seedSeconds, 1)} s`);

    const headers = { authorization: `Bearer ${await signIn(cluster.url, 'bench-nearby@example.org')}` };
    const points = queryPoints(ds);
    ctx.log(`checking ${points.length} query points against a brute-force scan of ${fmt(count)} plants`);
    const totals = (await verify(ctx, cluster.url, headers, ds, points)).sort((a, b) => a - b);
    const plan = await explain(db.url, points[0]!);
    const paths = points.map(pathOf);

    ctx.log(
      `one client, one request at a time: ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured`,
    );
    await sequential(cluster.url, paths, headers, { seconds: settings.warmupSeconds });
    const alone = await sequential(cluster.url, paths, headers, { seconds: settings.durationSeconds });
    // The floor of the same path: one plant by id, one request at a time, through the same gateway and service.
    const byId = points.map((_, i) => `/api/plants/${ds.ids[Math.floor((i * ds.ids.length) / points.length)]}`);
    const reference = await sequential(cluster.url, byId, headers, { seconds: Math.min(settings.durationSeconds, 10) });
    ctx.log(`${settings.connections} connections (autocannon in its own process)`);
    const loaded: LoadResult = await runLoad(scope, {
      url: cluster.url,
      paths,
      headers,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
    });

    const verdict = alone.p50 <= TARGET_P50_MS ? 'meets' : 'misses';
    const results: Table = {
      head: ['client', 'requests', 'requests/s', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'non-2xx'],
      rows: [
        [
          '1 at a time',
          fmt(alone.requests),
          fmt(alone.requests / settings.durationSeconds),
          ms(alone.p50),
          ms(alone.p90),
          ms(alone.p99),
          ms(alone.mean),
          fmt(alone.non2xx),
        ],
        [
          'reference: GET /api/plants/{id}, 1 at a time',
          fmt(reference.requests),
          fmt(reference.requests / Math.min(settings.durationSeconds, 10)),
          ms(reference.p50),
          ms(reference.p90),
          ms(reference.p99),
          ms(reference.mean),
          fmt(reference.non2xx),
        ],
        [
          `${settings.connections} connections`,
          fmt(loaded.requests),
          fmt(loaded.requestsPerSecond),
          ms(loaded.latency.p50),
          ms(loaded.latency.p90),
          ms(loaded.latency.p99),
          ms(loaded.latency.mean),
          fmt(loaded.non2xx + loaded.errors),
        ],
      ],
    };
    const within = `${fmt(totals[0] ?? 0)} / ${fmt(quantile(totals, 0.25))} / ${fmt(quantile(totals, 0.5))} / ${fmt(
      quantile(totals, 0.75),
    )} / ${fmt(totals[totals.length - 1] ?? 0)}`;
    const targetLine = `p50 for one client: **${ms(alone.p50)} ms**, which ${verdict} the target of ${TARGET_P50_MS} ms.`;
    const markdown = [
      `Data: **${fmt(count)} plants** (\`BENCH_NEARBY_PLANTS\`, default ${fmt(DEFAULT_PLANTS)}) around ${fmt(SETTLEMENTS)} ` +
        `settlements placed at random over Europe (${EUROPE.minLat}–${EUROPE.maxLat}°N, ${-EUROPE.minLon}°W–` +
        `${EUROPE.maxLon}°E), each a Gaussian cluster of 20–60 km with log-normal sizes, plus ` +
        `${SPREAD_EVENLY * 100} % spread evenly (seed ${SEED}). They were written straight into the plants table ` +
        `with COPY (not through the API and not on the ledger) in ${fmt(seedSeconds, 1)} s, then VACUUM ANALYZE.`,
      '',
      `Queries: ${QUERY_POINTS} points at the places of random plants, so where plants are dense; radius ` +
        `${RADIUS_KM} km (the default), the default limit of ${PAGE_DEFAULTS.limit}. Plants within ${RADIUS_KM} km ` +
        `of a query point (min / p25 / median / p75 / max): ${within}.`,
      '',
      `Correctness: before the load, the first page and the total of every query point were compared with a ` +
        `brute-force haversine scan of all ${fmt(count)} plants in the benchmark process: all ${QUERY_POINTS} equal ` +
        '(same ids in the same order, distances within 1e-9 km, same total).',
      '',
      `Load: through the gateway and NATS to the plants service (cluster mode, every service running, ` +
        `\`LOG_LEVEL=warn\`, limiters set never to refuse), the query points in turn, after a ${settings.warmupSeconds} s ` +
        `warm-up, for ${settings.durationSeconds} s: first one client sending one request at a time (timed with ` +
        '`performance.now()` in the benchmark process), then autocannon in a process of its own. The reference row ' +
        'reads one plant by id, one request at a time, through the same path: the floor of any request.',
      '',
      markdownTable(results),
      '',
      targetLine,
      '',
      'Plan of the candidate scan (the index ranges of the 50 km bounding box) for the first query point:',
      '',
      '```',
      plan,
      '```',
    ].join('\n');
    const text = [
      `plants within ${RADIUS_KM} km (min/p25/median/p75/max): ${within}`,
      `all ${QUERY_POINTS} query points equal the brute-force scan`,
      '',
      textTable(results),
      '',
      targetLine.replaceAll('**', ''),
    ].join('\n');
    return { text, markdown };
  },
};
