import { loadavg } from 'node:os';
import { api } from '@rootline/testing';
import postgres from 'postgres';
import { ms, sequential, startPlatformCluster } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { runLoad } from './lib/load.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

const READINGS_PER_REQUEST = 100;
const TARGET_READINGS_PER_SECOND = 20_000;
/** Batches the load writes to, and distinct request bodies sent in turn. */
const BATCHES = 32;
const BODIES = 64;
/** Readings seeded for the analytics query; `BENCH_FARM_READINGS` lowers it for a smoke run. */
const DEFAULT_ANALYTICS_READINGS = 1_000_000;
const ANALYTICS_BATCHES = 200;
const ADMIN = { email: 'bench-farm-admin@example.org', password: 'a long passphrase only the farm benchmark knows' };

const load1 = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

async function must(url: string, path: string, token: string, body: unknown, method = 'POST') {
  const res = await api(url, path, { method, token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A farm with one large zone and `count` lettuce batches, through the API as the ADMIN. */
async function farmWithBatches(url: string, token: string, name: string, count: number) {
  const farm = await must(url, '/api/vertical-farm/register', token, {
    name,
    location: { latitude: 51.92, longitude: 4.48 },
    floorAreaM2: 2000,
    levels: 10,
    lightingSystem: 'led',
    climateSystem: 'hvac',
  });
  const zone = await must(url, `/api/vertical-farm/${farm.id}/zones`, token, {
    name: 'Bench zone',
    level: 1,
    areaM2: 500,
    growingMethod: 'nft',
    capacity: 10_000_000,
  });
  const batches: string[] = [];
  for (let i = 0; i < count; i++) {
    const batch = await must(url, '/api/vertical-farm/batch/start', token, {
      farmId: farm.id,
      zoneId: zone.id,
      recipeId: 'rcp_lettuce0butterhead01',
      crop: 'lettuce',
      variety: 'Rex',
      plantCount: 100,
      seedSource: { type: 'seed-lot', seedLot: `bench-${i}` },
      // Started before the readings' five days, which a batch takes only from its start.
      startedAt: new Date(Date.now() - 6 * 86_400_000).toISOString(),
    });
    batches.push(batch.id);
  }
  return { farmId: farm.id as string, batches };
}

/**
 * A body of 100 readings a minute apart, all in the past (the bodies together span under 5 days), within the lettuce
 * germination targets (the common, cheap path).
 */
function readingsBody(k: number): string {
  const base = Date.now() - 5 * 86_400_000 + k * READINGS_PER_REQUEST * 60_000;
  const readings = Array.from({ length: READINGS_PER_REQUEST }, (_, i) => ({
    at: new Date(base + i * 60_000).toISOString(),
    temperatureC: 20 + (i % 5) * 0.1,
    humidityPct: 85,
    co2Ppm: 1000,
    ppfd: 50,
    ecMsCm: 0.5,
    ph: 5.8,
    waterTemperatureC: 21,
    dissolvedOxygenMgL: 8,
  }));
  return JSON.stringify({ readings });
}

/**
 * Seeds `count` readings over the last 360 days (inside the default period) for the farm's batches, server-side, then
 * VACUUM ANALYZE. The statement adds them to the batches' rollups as the service's own INSERT of readings does
 * (services/farm/src/db/readings.repo.ts, ADR 159): readings and rollups in one statement.
 */
async function seedReadings(databaseUrl: string, farmId: string, batches: string[], count: number): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const started = Date.now();
    await sql`
      with stored as (
        insert into farm.readings (batch_id, farm_id, at, temperature_c, humidity_pct, co2_ppm, ppfd, ec_ms_cm, ph,
          water_temperature_c, dissolved_oxygen_mg_l, in_target)
        select (string_to_array(${batches.join(',')}::text, ','))[1 + i % ${batches.length}::int], ${farmId},
          now() - (i * (360 * 86400.0 / ${count})) * interval '1 second',
          18 + (i % 70) / 10.0, 60 + i % 30, 900 + i % 300, case when i % 3 = 0 then 0 else 280 end, 1.2, 5.8, 21, 8,
          i % 10 <> 0
        from generate_series(1, ${count}) as i
        returning batch_id, farm_id, at, in_target
      ), totals as (
        insert into farm.reading_totals as t (batch_id, farm_id, readings, in_target, first_at, last_at)
        select batch_id, min(farm_id), count(*), count(*) filter (where in_target), min(at), max(at)
        from stored group by batch_id
        on conflict (batch_id) do update set readings = t.readings + excluded.readings,
          in_target = t.in_target + excluded.in_target,
          first_at = least(t.first_at, excluded.first_at), last_at = greatest(t.last_at, excluded.last_at)
      )
      insert into farm.reading_days as d (batch_id, day, readings, in_target)
      select batch_id, date_trunc('day', at, 'UTC') as day, count(*), count(*) filter (where in_target)
      from stored group by batch_id, day
      on conflict (batch_id, day) do update set readings = d.readings + excluded.readings,
        in_target = d.in_target + excluded.in_target`;
    await sql`vacuum analyze farm.readings, farm.reading_totals, farm.reading_days`;
    return (Date.now() - started) / 1000;
  } finally {
    await sql.end();
  }
}

async function countReadings(databaseUrl: string, farmId: string): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from farm.readings where farm_id = ${farmId}`;
    return row?.n ?? 0;
  } finally {
    await sql.end();
  }
}

/**
 * Environment readings through the API in batches of 100 (PUT /api/vertical-farm/batch/{id}/environment), and the
 * latency of GET /api/vertical-farm/{farmId}/analytics over a farm with a million readings.
 */
export const farmReadings: Benchmark = {
  name: 'farm-readings',
  title: 'Vertical farm: readings ingested per second (batches of 100) and analytics over 1,000,000 readings',
  timeLimitSeconds: (s) => 900 + 2 * (s.warmupSeconds + s.durationSeconds),
  async run(ctx: BenchContext): Promise<BenchReport> {
    const { settings } = ctx;
    const analyticsCount = Number(process.env.BENCH_FARM_READINGS ?? DEFAULT_ANALYTICS_READINGS);
    const infra = await startBenchInfra(ctx);
    ctx.log('starting the cluster (one process per service, and the gateway)');
    const { cluster } = await startPlatformCluster(
      ctx,
      { natsUrl: infra.nats.url, databaseUrl: infra.db.url },
      { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
      // Ten processes compiling at once on a shared, loaded machine can take minutes to be ready.
      300_000,
    );
    const signedIn = await api(cluster.url, '/api/auth/signin', { body: ADMIN });
    const token: string = signedIn.body.data.token;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    ctx.log(`ingest: a farm with ${BATCHES} batches, ${BODIES} bodies of ${READINGS_PER_REQUEST} readings`);
    const ingest = await farmWithBatches(cluster.url, token, 'Ingest farm', BATCHES);
    const requests = Array.from({ length: BODIES }, (_, k) => ({
      method: 'PUT',
      path: `/api/vertical-farm/batch/${ingest.batches[k % BATCHES]}/environment`,
      body: readingsBody(k),
    }));
    const loadBefore = load1();
    const loaded = await runLoad(ctx.scope, {
      url: cluster.url,
      paths: [],
      requests,
      headers,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
    });
    const loadAfter = load1();
    const ok = loaded.requests - loaded.non2xx - loaded.errors;
    const readingsPerSecond = (ok * READINGS_PER_REQUEST) / loaded.durationSeconds;
    const stored = await countReadings(infra.db.url, ingest.farmId);

    ctx.log(`analytics: a farm with ${ANALYTICS_BATCHES} batches and ${fmt(analyticsCount)} readings over a year`);
    const big = await farmWithBatches(cluster.url, token, 'Analytics farm', ANALYTICS_BATCHES);
    const seedSeconds = await seedReadings(infra.db.url, big.farmId, big.batches, analyticsCount);
    const path = `/api/vertical-farm/${big.farmId}/analytics`;
    const first = await api(cluster.url, path, { token });
    // One reading in ten is seeded outside its targets: the rollups must count every seeded reading.
    const inTarget = analyticsCount - Math.floor(analyticsCount / 10);
    const compliance = Math.round((inTarget / analyticsCount) * 10_000) / 10_000;
    const totals = first.body.data?.totals;
    if (first.status !== 200 || totals.readings !== analyticsCount || totals.compliance !== compliance) {
      throw new Error(`analytics answered ${first.status} ${JSON.stringify(first.body).slice(0, 300)}`);
    }
    const analyticsLoad = load1();
    await sequential(cluster.url, [path], headers, { requests: 3 });
    const alone = await sequential(cluster.url, [path], headers, { seconds: settings.durationSeconds, requests: 50 });

    const verdict = readingsPerSecond >= TARGET_READINGS_PER_SECOND ? 'meets' : 'misses';
    const ingestTable: Table = {
      head: ['connections', 'requests/s', 'readings/s', 'p50 ms', 'p99 ms', 'statuses', 'load avg before / after'],
      rows: [
        [
          fmt(settings.connections),
          fmt(ok / loaded.durationSeconds),
          fmt(readingsPerSecond),
          ms(loaded.latency.p50),
          ms(loaded.latency.p99),
          `${Object.entries(loaded.statusCodes)
            .map(([code, n]) => `${code}: ${fmt(n)}`)
            .join(', ')}${loaded.errors ? `, errors: ${fmt(loaded.errors)}` : ''}`,
          `${loadBefore} / ${loadAfter}`,
        ],
      ],
    };
    const analyticsTable: Table = {
      head: ['readings', 'requests', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'load avg'],
      rows: [
        [
          fmt(analyticsCount),
          fmt(alone.requests),
          ms(alone.p50),
          ms(alone.p90),
          ms(alone.p99),
          ms(alone.mean),
          String(analyticsLoad),
        ],
      ],
    };
    const target = `Ingest: **${fmt(readingsPerSecond)} readings/s**, which ${verdict} the target of ${fmt(TARGET_READINGS_PER_SECOND)}.`;
    const markdown = [
      `Ingest: PUT /api/vertical-farm/batch/{id}/environment with ${READINGS_PER_REQUEST} readings per request, ` +
        `${BODIES} bodies over ${BATCHES} batches sent in turn by autocannon (its own process), every reading within ` +
        `the phase's targets (the common path: one INSERT of the request's rows and their batch's rollups, no transaction), after a ` +
        `${settings.warmupSeconds} s warm-up, for ${settings.durationSeconds} s, through the gateway (ADMIN session, ` +
        `limiters set never to refuse) and NATS to the farm service, cluster mode. Rows stored for the farm at the ` +
        `end, warm-up included: ${fmt(stored)}.`,
      '',
      markdownTable(ingestTable),
      '',
      target,
      '',
      `Analytics: GET /api/vertical-farm/{farmId}/analytics (default period: the last 365 days) over a farm with ` +
        `${ANALYTICS_BATCHES} batches and **${fmt(analyticsCount)} readings** spread over the last 360 days (seeded server-side ` +
        `with one INSERT … SELECT that also fills the batches' rollups, as the service's INSERT does, in ` +
        `${fmt(seedSeconds, 1)} s, then VACUUM ANALYZE), one request at a time after 3 ` +
        'unmeasured ones, timed in the benchmark process.',
      '',
      markdownTable(analyticsTable),
    ].join('\n');
    const text = [textTable(ingestTable), '', target.replaceAll('**', ''), '', textTable(analyticsTable)].join('\n');
    return { text, markdown };
  },
};
