import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { api } from '@rootline/testing';
import postgres from 'postgres';
import { ms, sequential, startPlatformCluster } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { runLoad } from './lib/load.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { type CpuGroup, CpuMeter, type CpuUsage } from './lib/proc-cpu.js';
import { type ProfileSummary, profilerEnv, readProfile, summariseProfile, toggleProfiler } from './lib/profile.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

const READINGS_PER_REQUEST = 100;
const TARGET_READINGS_PER_SECOND = 20_000;
/** Batches the load writes to, and distinct request bodies sent in turn. */
const BATCHES = 32;
const BODIES = 64;
/** Readings seeded for the analytics query; `BENCH_FARM_READINGS` lowers it for a smoke run. */
const DEFAULT_ANALYTICS_READINGS = 1_000_000;
const ANALYTICS_BATCHES = 200;

/** The generator of new readings' requests, run in the load generator. */
import { lettuceReadings } from './lib/farm-readings-load.js';

const NEW_READINGS = fileURLToPath(new URL('./lib/farm-readings-load.ts', import.meta.url));
/** Between two new readings of a batch: 25 s at 1,000 requests/s over 32 batches spans under 3 days. */
const NEW_READINGS_STEP_MS = 3000;
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
  const readings = lettuceReadings(base, 60_000, READINGS_PER_REQUEST, 85);
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
      {
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        ...(settings.profile ? profilerEnv(infra.profileDir) : {}),
      },
      // Ten processes compiling at once on a shared, loaded machine can take minutes to be ready.
      300_000,
    );
    const signedIn = await api(cluster.url, '/api/auth/signin', { body: ADMIN });
    const token: string = signedIn.body.data.token;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    ctx.log(`ingest: a farm with ${BATCHES} batches, ${BODIES} bodies of ${READINGS_PER_REQUEST} readings`);
    const ingest = await farmWithBatches(cluster.url, token, 'Ingest farm', BATCHES);
    const pid = (name: string) => cluster.processes.get(name)?.pid;
    const gateway = pid('gateway');
    const farm = pid('farm');
    let loadPid: number | undefined;
    const groups: CpuGroup[] = [
      { name: 'gateway', pids: () => (gateway ? [gateway] : []) },
      { name: 'farm', pids: () => (farm ? [farm] : []) },
      { name: 'PostgreSQL', pids: infra.pgPids },
      { name: 'nats-server', pids: infra.natsPids },
      { name: 'load generator', pids: () => (loadPid ? [loadPid] : []) },
    ];
    const requests = Array.from({ length: BODIES }, (_, k) => ({
      method: 'PUT',
      path: `/api/vertical-farm/batch/${ingest.batches[k % BATCHES]}/environment`,
      body: readingsBody(k),
    }));
    const newReadings = {
      module: NEW_READINGS,
      name: 'newReadingsRequest',
      args: {
        batches: ingest.batches,
        from: Date.now() - 5 * 86_400_000,
        stepMs: NEW_READINGS_STEP_MS,
        perRequest: READINGS_PER_REQUEST,
      },
    };
    // The gateway and the farm service are profiled while new readings are measured.
    const profiled = settings.profile
      ? [
          { name: 'gateway', pid: gateway },
          { name: 'farm', pid: farm },
        ].flatMap((p) => (p.pid ? [{ name: p.name, pid: p.pid }] : []))
      : [];
    /** One ingest run: the resent bodies (every reading already stored after the first round) or new readings. */
    const ingestRun = async (fresh: boolean) => {
      const storedBefore = await countReadings(infra.db.url, ingest.farmId);
      const meter = new CpuMeter(groups);
      let cpu: CpuUsage | undefined;
      const loadBefore = load1();
      const loaded = await runLoad(
        ctx.scope,
        {
          url: cluster.url,
          paths: [],
          ...(fresh ? { generate: newReadings } : { requests }),
          headers,
          connections: settings.connections,
          durationSeconds: settings.durationSeconds,
          warmupSeconds: settings.warmupSeconds,
        },
        {
          onMeasureStart(p) {
            loadPid = p;
            meter.start();
            if (fresh) for (const x of profiled) toggleProfiler(x.pid);
          },
          onMeasureEnd() {
            cpu = meter.stop();
            if (fresh) for (const x of profiled) toggleProfiler(x.pid);
          },
        },
      );
      const loadAfter = load1();
      const ok = loaded.requests - loaded.non2xx - loaded.errors;
      const stored = (await countReadings(infra.db.url, ingest.farmId)) - storedBefore;
      return {
        fresh,
        loaded,
        ok,
        readingsPerSecond: (ok * READINGS_PER_REQUEST) / loaded.durationSeconds,
        stored,
        cpu,
        loadBefore,
        loadAfter,
      };
    };
    const resent = await ingestRun(false);
    ctx.log('ingest: the same bodies, each request with new readings');
    const fresh = await ingestRun(true);
    const profiles: { name: string; summary: ProfileSummary }[] = await Promise.all(
      profiled.map(async (x) => ({
        name: x.name,
        summary: summariseProfile(
          await readProfile(
            infra.profileDir,
            x.pid,
            settings.keepProfilesIn ? { dir: settings.keepProfilesIn, name: `farm-readings-${x.name}` } : undefined,
          ),
        ),
      })),
    );
    const stored = await countReadings(infra.db.url, ingest.farmId);
    // Every request of new readings stores all 100 of them (warm-up included): none lost, none counted twice.
    if (fresh.stored % READINGS_PER_REQUEST !== 0 || fresh.stored < fresh.ok * READINGS_PER_REQUEST) {
      throw new Error(`new readings: ${fresh.stored} stored for ${fresh.ok} requests answered 200`);
    }

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

    const verdict = (r: number) => (r >= TARGET_READINGS_PER_SECOND ? 'meets' : 'misses');
    const runs = [resent, fresh];
    const ingestTable: Table = {
      head: [
        'readings',
        'connections',
        'requests/s',
        'readings/s',
        'p50 ms',
        'p99 ms',
        'statuses',
        'stored in the run',
        'load avg before / after',
      ],
      rows: runs.map((r) => [
        r.fresh ? 'new' : 'resent',
        fmt(settings.connections),
        fmt(r.ok / r.loaded.durationSeconds),
        fmt(r.readingsPerSecond),
        ms(r.loaded.latency.p50),
        ms(r.loaded.latency.p99),
        `${Object.entries(r.loaded.statusCodes)
          .map(([code, n]) => `${code}: ${fmt(n)}`)
          .join(', ')}${r.loaded.errors ? `, errors: ${fmt(r.loaded.errors)}` : ''}`,
        fmt(r.stored),
        `${r.loadBefore} / ${r.loadAfter}`,
      ]),
    };
    const perRequest = (r: (typeof runs)[number], seconds: number) => fmt((seconds * 1e6) / Math.max(1, r.ok), 0);
    const cpuTable: Table = {
      head: ['readings', ...groups.map((g) => `${g.name} µs`), 'machine busy'],
      rows: runs.map((r) => [
        r.fresh ? 'new' : 'resent',
        ...groups.map((g) => perRequest(r, r.cpu?.groups.find((x) => x.name === g.name)?.seconds ?? 0)),
        r.cpu ? `${fmt((100 * r.cpu.machineBusy) / Math.max(1e-9, r.cpu.machineTotal))} %` : '',
      ]),
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
    const target =
      `Ingest of new readings: **${fmt(fresh.readingsPerSecond)} readings/s**, which ${verdict(fresh.readingsPerSecond)} ` +
      `the target of ${fmt(TARGET_READINGS_PER_SECOND)}; resent readings (stored once, then skipped): ` +
      `**${fmt(resent.readingsPerSecond)} readings/s**, which ${verdict(resent.readingsPerSecond)} it.`;
    const markdown = [
      `Ingest: PUT /api/vertical-farm/batch/{id}/environment with ${READINGS_PER_REQUEST} readings per request, ` +
        `${BODIES} bodies over ${BATCHES} batches sent in turn by autocannon (its own process), every reading within ` +
        `the phase's targets (the common path: one INSERT of the request's rows and their batch's rollups, no transaction), after a ` +
        `${settings.warmupSeconds} s warm-up, for ${settings.durationSeconds} s, through the gateway (ADMIN session, ` +
        `limiters set never to refuse) and NATS to the farm service, cluster mode. Two runs: **resent**, those ` +
        `bodies sent again and again (stored in the first round; after it every reading is skipped as already ` +
        `stored, so no row is written), then **new**, where each request carries the next ${READINGS_PER_REQUEST} ` +
        `readings of its batch (${NEW_READINGS_STEP_MS / 1000} s apart, made by the load generator as it sends; ` +
        `the batches in turn), so every request stores its readings and adds them to its batch's rollups. Rows ` +
        `stored for the farm at the end, warm-ups included: ${fmt(stored)}.`,
      '',
      markdownTable(ingestTable),
      '',
      target,
      '',
      'CPU time per request answered 200 in the measured window, per process (from /proc; PostgreSQL: the ' +
        "database's backends), and how busy the whole machine was:",
      '',
      markdownTable(cpuTable),
      ...profiles.flatMap((x) => [
        '',
        `Main-thread self time of the ${x.name} while new readings were measured (CPU profile, 1 ms sampling; ` +
          `busy ${fmt((100 * x.summary.busyMs) / Math.max(1, x.summary.wallMs))} % of the window), by module and ` +
          `by function: ${x.summary.modules
            .slice(0, 6)
            .map((m) => `\`${m.name}\` ${fmt(100 * m.share)} %`)
            .join(', ')}; ${x.summary.functions
            .slice(0, 6)
            .map((f) => `\`${f.name}\` ${fmt(100 * f.share)} %`)
            .join(', ')}.`,
      ]),
      '',
      `Analytics: GET /api/vertical-farm/{farmId}/analytics (default period: the last 365 days) over a farm with ` +
        `${ANALYTICS_BATCHES} batches and **${fmt(analyticsCount)} readings** spread over the last 360 days (seeded server-side ` +
        `with one INSERT … SELECT that also fills the batches' rollups, as the service's INSERT does, in ` +
        `${fmt(seedSeconds, 1)} s, then VACUUM ANALYZE), one request at a time after 3 ` +
        'unmeasured ones, timed in the benchmark process.',
      '',
      markdownTable(analyticsTable),
    ].join('\n');
    const text = [
      textTable(ingestTable),
      '',
      target.replaceAll('**', ''),
      '',
      textTable(cpuTable),
      '',
      textTable(analyticsTable),
    ].join('\n');
    return { text, markdown };
  },
};
