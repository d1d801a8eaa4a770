import { loadavg } from 'node:os';
import { createNatsBus } from '@rootline/bus';
import { type ListingSearchQuery, listingSearch, newId } from '@rootline/contracts';
import { openDatabase } from '@rootline/db';
import { service as demand } from '@rootline/demand';
import { call, createLogger, startService } from '@rootline/host';
import postgres from 'postgres';
import { quantile } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { seeded } from './lib/random.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Listings seeded; `BENCH_LISTINGS` changes it. */
const DEFAULT_LISTINGS = 100_000;
/** Requests per query shape, sent one at a time. */
const REQUESTS = 300;
/** Queries of each shape checked against a brute-force scan of the generated data. */
const CHECKED = 20;
const RADIUS_KM = 50;
const TARGET_P50_MS = 10;
const SEED = 11;
const ACTIVE_SHARE = 0.85;

const EUROPE = { minLat: 36, maxLat: 66, minLon: -9, maxLon: 30 };
const TOWNS = 400;
// Words of titles, most common first (drawn with Zipf weights): the head gives unselective terms.
const CROPS = ['tomato', 'basil', 'lettuce', 'strawberry', 'pepper', 'kale', 'mint', 'fig', 'potato', 'squash'];
const KINDS = ['seedlings', 'seeds', 'plants', 'cuttings', 'harvest', 'bundle', 'tray', 'starter pack'];
const VARIETIES = ['Moneymaker', 'Genovese', 'Little Gem', 'Mara des Bois', 'Padrón', 'Cavolo Nero', 'Brown Turkey'];
const RARE = 'Crème Brûlée'; // in 0.1 % of titles: a selective term
const CATEGORIES = ['seeds', 'seedlings', 'cuttings', 'plants', 'produce'];

/** Lower case without accents, runs of other characters as one space: the service's rule, written again here. */
function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const RAD = Math.PI / 180;
function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const sLat = Math.sin(((lat2 - lat1) * RAD) / 2);
  const sLon = Math.sin(((lon2 - lon1) * RAD) / 2);
  const h = sLat * sLat + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * sLon * sLon;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

interface Row {
  id: string;
  title: string;
  text: string;
  category: string;
  price: number;
  lat: number;
  lon: number;
  active: boolean;
}

function generate(count: number): { rows: Row[]; towns: { lat: number; lon: number }[] } {
  const random = seeded(SEED);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const zipf = <T>(list: readonly T[]) => {
    const weights = list.map((_, i) => 1 / (i + 1));
    let r = random() * weights.reduce((a, b) => a + b, 0);
    for (const [i, w] of weights.entries()) {
      r -= w;
      if (r <= 0) return list[i] as T;
    }
    return list[0] as T;
  };
  const towns = Array.from({ length: TOWNS }, () => ({
    lat: EUROPE.minLat + (EUROPE.maxLat - EUROPE.minLat) * random(),
    lon: EUROPE.minLon + (EUROPE.maxLon - EUROPE.minLon) * random(),
  }));
  const rows: Row[] = [];
  const t0 = Date.now() - count * 1000;
  for (let i = 0; i < count; i++) {
    const town = towns[Math.floor(random() * TOWNS)] as { lat: number; lon: number };
    const variety = random() < 0.001 ? RARE : zipf(VARIETIES);
    const title = `${variety} ${zipf(CROPS)} ${zipf(KINDS)}`;
    const description = `Grown without pesticides, ${Math.floor(random() * 50) + 1} available, pick-up or post.`;
    rows.push({
      id: newId('lst', t0 + i * 1000),
      title,
      text: normalise(`${title} ${description}`),
      category: CATEGORIES[Math.floor(random() * CATEGORIES.length)] as string,
      price: 50 + Math.floor(random() * 5000),
      lat: town.lat + (gauss() * 25) / 111.2,
      lon: town.lon + (gauss() * 25) / (111.2 * Math.cos(town.lat * RAD)),
      active: random() < ACTIVE_SHARE,
    });
  }
  return { rows, towns };
}

async function seed(url: string, rows: Row[]): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    for (let i = 0; i < rows.length; i += 2000) {
      const batch = rows.slice(i, i + 2000).map((r, j) => {
        const at = new Date(Date.UTC(2026, 0, 1) + (i + j) * 60_000).toISOString();
        return {
          id: r.id,
          seller_id: `usr_seller${(i + j) % 5000}`,
          title: r.title,
          description: '',
          category: r.category,
          price: r.price,
          currency: 'EUR',
          quantity: 5,
          latitude: r.lat,
          longitude: r.lon,
          privacy_level: 'exact',
          image_file_ids: sql.json([]),
          status: r.active ? 'active' : 'sold',
          created_at: at,
          updated_at: at,
          search_text: r.text,
        };
      });
      await sql`insert into demand.listings ${sql(batch)}`;
    }
    await sql`vacuum analyze demand.listings`;
  } finally {
    await sql.end();
  }
}

interface Shape {
  name: string;
  query: (town: { lat: number; lon: number }) => ListingSearchQuery;
  matches: (r: Row, town: { lat: number; lon: number }) => boolean;
}

const near = (r: Row, t: { lat: number; lon: number }) => haversineKm(t.lat, t.lon, r.lat, r.lon) <= RADIUS_KM;
const words = (q: string) => normalise(q).split(' ');
const has = (r: Row, q: string) => words(q).every((w) => r.text.includes(w));
const at = (t: { lat: number; lon: number }) => ({ lat: t.lat, lon: t.lon, radius: RADIUS_KM });

const SHAPES: Shape[] = [
  {
    name: `text + ${RADIUS_KM} km: "creme brulee" (rare)`,
    query: (t) => ({ q: 'creme brulee', ...at(t) }) as ListingSearchQuery,
    matches: (r, t) => r.active && has(r, 'creme brulee') && near(r, t),
  },
  {
    name: `text + ${RADIUS_KM} km: "genovese basil"`,
    query: (t) => ({ q: 'genovese basil', ...at(t) }) as ListingSearchQuery,
    matches: (r, t) => r.active && has(r, 'genovese basil') && near(r, t),
  },
  {
    name: `text + ${RADIUS_KM} km: "tomato" (common)`,
    query: (t) => ({ q: 'tomato', ...at(t) }) as ListingSearchQuery,
    matches: (r, t) => r.active && has(r, 'tomato') && near(r, t),
  },
  {
    name: `text + category + price + ${RADIUS_KM} km: "seedlings", seeds, ≤ 20 EUR`,
    query: (t) => ({ q: 'seedlings', category: 'seeds', maxPrice: 2000, ...at(t) }) as ListingSearchQuery,
    matches: (r, t) => r.active && has(r, 'seedlings') && r.category === 'seeds' && r.price <= 2000 && near(r, t),
  },
  {
    name: `${RADIUS_KM} km only`,
    query: (t) => at(t) as ListingSearchQuery,
    matches: (r, t) => r.active && near(r, t),
  },
];

export const listingSearchBench: Benchmark = {
  name: 'listing-search',
  title: 'Listing search: text plus distance',
  timeLimitSeconds: () => 1200,
  async run(ctx: BenchContext): Promise<BenchReport> {
    const count = Number(process.env.BENCH_LISTINGS ?? DEFAULT_LISTINGS);
    const infra = await startBenchInfra(ctx);
    const log = createLogger('bench', 'silent');
    const database = await openDatabase({ url: infra.db.url, dataDir: '.' });
    ctx.scope.defer(() => database.close());
    const serviceBus = await createNatsBus({ url: infra.nats.url, name: 'demand' });
    ctx.scope.defer(() => serviceBus.close());
    const running = await startService(demand, { bus: serviceBus, database, log, env: {} });
    ctx.scope.defer(() => running.stop());
    const client = await createNatsBus({ url: infra.nats.url, name: 'bench-client' });
    ctx.scope.defer(() => client.close());

    ctx.log(`generating and writing ${fmt(count)} listings`);
    const { rows, towns } = generate(count);
    await seed(infra.db.url, rows);

    const random = seeded(SEED + 1);
    const pick = () => towns[Math.floor(random() * towns.length)] as { lat: number; lon: number };
    const table: Table = { head: ['query', 'matches (mean)', 'p50 ms', 'p90 ms', 'p99 ms', 'load avg'], rows: [] };
    let checked = 0;
    for (const shape of SHAPES) {
      // Correctness first: the total of each checked query equals a scan of the generated rows.
      for (let i = 0; i < CHECKED; i++) {
        const town = pick();
        const got = await call(client, listingSearch, { ...shape.query(town), page: 1, limit: 20 }, { requestId: 'b' });
        const want = rows.filter((r) => shape.matches(r, town)).length;
        if (got.pagination.total !== want) {
          throw new Error(`${shape.name} at ${town.lat},${town.lon}: ${got.pagination.total} found, scan says ${want}`);
        }
        checked += 1;
      }
      ctx.log(`measuring ${shape.name}`);
      const times: number[] = [];
      let totals = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const q = { ...shape.query(pick()), page: 1, limit: 20 };
        const t0 = performance.now();
        const got = await call(client, listingSearch, q, { requestId: 'b' });
        times.push(performance.now() - t0);
        totals += got.pagination.total;
      }
      times.sort((a, b) => a - b);
      table.rows.push([
        shape.name,
        fmt(totals / REQUESTS, 1),
        fmt(quantile(times, 0.5), 2),
        fmt(quantile(times, 0.9), 2),
        fmt(quantile(times, 0.99), 2),
        fmt(loadavg()[0] ?? 0, 2),
      ]);
    }
    const markdown = [
      `Data: **${fmt(count)} listings** (\`BENCH_LISTINGS\`), ${ACTIVE_SHARE * 100} % active, around ${TOWNS} towns ` +
        `placed at random over Europe (Gaussian spread of 25 km), titles from Zipf-weighted word lists (seed ${SEED}), ` +
        'written straight into `demand.listings`, then `VACUUM ANALYZE`.',
      '',
      `Each figure: ${REQUESTS} searches sent one at a time over NATS to the demand service (validation, handler, ` +
        `one PostgreSQL statement, reply), first page of 20, centres drawn from the towns; ${checked} answers were ` +
        `first checked against a scan of the generated rows (totals equal). Target: p50 ≤ ${TARGET_P50_MS} ms. The ` +
        'load average (1 min) beside each figure is the machine’s, shared with other work.',
      '',
      markdownTable(table),
    ].join('\n');
    return { text: textTable(table), markdown };
  },
};
