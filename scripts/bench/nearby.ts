import { NEARBY_EXACT_TOTAL_MAX, newId, PAGE_DEFAULTS } from '@rootline/contracts';
import { api } from '@rootline/testing';
import postgres from 'postgres';
import {
  clusterPid,
  loadRow,
  ms,
  platformCpuGroups,
  quantile,
  sequential,
  sequentialRow,
  signIn,
  startPlatformCluster,
} from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { fmt, markdownTable, pct, type Table, textTable } from './lib/markdown.js';
import { startMinimalPipeline } from './lib/minimal.js';
import { type CpuGroup, CpuMeter, type CpuUsage } from './lib/proc-cpu.js';
import { type ProfileSummary, profilerEnv, readProfile, summariseProfile, toggleProfiler } from './lib/profile.js';
import { seeded } from './lib/random.js';
import { type SeedPlant, seedPlants } from './lib/seed-plants.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Plants seeded; `BENCH_NEARBY_PLANTS` lowers it for a smoke run. */
const DEFAULT_PLANTS = 1_000_000;
/** Query points; every one is checked against a brute-force scan before the load. */
const QUERY_POINTS = 100;
const RADIUS_KM = 50;
const TARGET_P50_MS = 5;
/** Nearby throughput with 64 connections against the reference (a read by id) on the same path, in the same run. */
const TARGET_RATIO = 0.7;
/** Connections of the minimal pipeline's subscriber: `openDatabase`'s default pool, which the plants service uses. */
const POOL_MAX = 10;
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

/**
 * Checks every query point's first page and total against the brute force; throws on the first difference. The
 * total must be exact up to `NEARBY_EXACT_TOTAL_MAX`; past it, flagged as an estimate and above the cap. Resolves to
 * each point's true total and, when the answer was an estimate, the estimate.
 */
async function verify(
  ctx: BenchContext,
  url: string,
  headers: Record<string, string>,
  ds: Dataset,
  points: { lat: number; lon: number }[],
): Promise<{ total: number; estimate?: number }[]> {
  const checked: { total: number; estimate?: number }[] = [];
  for (const q of points) {
    const expected = bruteForce(ds, q.lat, q.lon, RADIUS_KM, PAGE_DEFAULTS.limit);
    const res = await api(url, pathOf(q), { headers });
    if (res.status !== 200) throw new Error(`${pathOf(q)} answered ${res.status} ${JSON.stringify(res.body)}`);
    const got: { id: string; distanceKm: number }[] = res.body.data;
    const { total, totalIsEstimate } = res.body.pagination as { total: number; totalIsEstimate?: boolean };
    const ids = got.map((g) => g.id);
    const sameIds = ids.length === expected.ids.length && ids.every((id, i) => id === expected.ids[i]);
    const sameDistances = got.every((g, i) => Math.abs(g.distanceKm - expected.distances[i]!) <= 1e-9);
    const totalRight = totalIsEstimate
      ? expected.total > NEARBY_EXACT_TOTAL_MAX && total > NEARBY_EXACT_TOTAL_MAX
      : total === expected.total && expected.total <= NEARBY_EXACT_TOTAL_MAX;
    if (!sameIds || !sameDistances || !totalRight) {
      throw new Error(
        `${pathOf(q)} differs from the brute-force scan: got ${JSON.stringify(ids)} (total ` +
          `${total}${totalIsEstimate ? ', an estimate' : ''}), expected ${JSON.stringify(expected.ids)} (total ` +
          `${expected.total})`,
      );
    }
    checked.push(totalIsEstimate ? { total: expected.total, estimate: total } : { total: expected.total });
  }
  ctx.log(`  all ${points.length} query points equal the brute-force scan`);
  return checked;
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

/** A path of the platform's API (`/api/plants/...`) as the minimal pipeline serves it (`/plants/...`). */
const minimalPath = (path: string) => path.replace(/^\/api/, '');

/**
 * Checks that the minimal pipeline answers the platform's page: for each point, the ids of the rows its subscriber
 * returns are the platform's page, in its order (the floor must do the same database work, not less).
 */
async function checkFloor(
  floorUrl: string,
  platformUrl: string,
  headers: Record<string, string>,
  points: { lat: number; lon: number }[],
): Promise<void> {
  for (const q of points) {
    const platform = await api(platformUrl, pathOf(q), { headers });
    const floor = (await (await fetch(`${floorUrl}${minimalPath(pathOf(q))}`, { headers })).json()) as {
      data: { id: string | null }[];
    };
    const want = (platform.body.data as { id: string }[]).map((p) => p.id);
    const got = floor.data.flatMap((r) => (r.id === null ? [] : [r.id]));
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      throw new Error(`the minimal pipeline's page at ${q.lat},${q.lon} is not the platform's`);
    }
  }
}

/** Row names of the CPU table. */
const ROLE = {
  gateway: 'gateway',
  plants: 'plants service',
  otherServices: 'other platform services',
  nats: 'nats-server',
  postgres: 'PostgreSQL backends',
  load: 'load generator (autocannon)',
} as const;

/** One measured load with 64 (`--connections`) connections: autocannon's figures, CPU per process, profiles. */
interface Loaded {
  load: LoadResult;
  cpu: CpuUsage;
  profiles: { name: string; role: string; summary: ProfileSummary }[];
}

/** Autocannon over `paths`, with the CPU of every part of the platform measured over the window and, with profiling, CPU profiles of the gateway and the plants service. */
async function loadOf(
  ctx: BenchContext,
  name: string,
  paths: string[],
  headers: Record<string, string>,
  url: string,
  groups: CpuGroup[],
  profiled: { name: string; role: string; pid: number }[],
  profileDir: string,
): Promise<Loaded> {
  const { settings, scope } = ctx;
  let loadPid: number | undefined;
  const meter = new CpuMeter([...groups, { name: ROLE.load, pids: () => (loadPid ? [loadPid] : []) }]);
  let cpu: CpuUsage | undefined;
  const targets = settings.profile ? profiled : [];
  const load = await runLoad(
    scope,
    {
      url,
      paths,
      headers,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
    },
    {
      onMeasureStart(pid) {
        loadPid = pid;
        meter.start();
        for (const x of targets) toggleProfiler(x.pid);
      },
      onMeasureEnd() {
        cpu = meter.stop();
        for (const x of targets) toggleProfiler(x.pid);
      },
    },
  );
  if (!cpu) throw new Error('the measured window was not observed');
  const keep = (process: string) =>
    settings.keepProfilesIn
      ? { dir: settings.keepProfilesIn, name: `nearby-${name}-${process}`.replace(/\W+/g, '-') }
      : undefined;
  const profiles = await Promise.all(
    targets.map(async (x) => ({
      name: x.name,
      role: x.role,
      summary: summariseProfile(await readProfile(profileDir, x.pid, keep(x.name))),
    })),
  );
  return { load, cpu, profiles };
}

/**
 * CPU µs per request of each part of the platform (or of the `roles` given, named as in `names`), nearby against
 * the reference, both at 64 connections.
 */
function cpuTable(
  nearbyRun: Loaded,
  referenceRun: Loaded,
  roles: readonly string[] = Object.values(ROLE),
  names: Record<string, string> = {},
): Table {
  const of = (m: Loaded, name: string) => m.cpu.groups.find((g) => g.name === name);
  const perRequest = (m: Loaded, seconds: number) => (seconds * 1e6) / Math.max(1, m.load.requests);
  const row = (name: string, seconds: (m: Loaded) => number) => {
    const n = perRequest(nearbyRun, seconds(nearbyRun));
    const r = perRequest(referenceRun, seconds(referenceRun));
    return [name, fmt(n), fmt(r), fmt(n - r)];
  };
  const accounted = (m: Loaded) => m.cpu.groups.reduce((a, g) => a + g.seconds, 0);
  return {
    head: ['where', 'nearby CPU µs/request', 'reference CPU µs/request', 'difference'],
    rows: [
      ...roles.map((role) => row(names[role] ?? role, (m) => of(m, role)?.seconds ?? 0)),
      row('interrupts (kernel network processing)', (m) => m.cpu.machineInterrupts),
      row('other processes', (m) =>
        Math.max(0, m.cpu.machineBusy - accounted(m) - m.cpu.machineInterrupts - m.cpu.machineSteal),
      ),
      row('machine busy', (m) => m.cpu.machineBusy),
    ],
  };
}

/** The functions with the most self time in one profiled process under the nearby load. */
function profileSection(m: Loaded, top: number): string[] {
  return m.profiles.flatMap((p) => {
    const g = m.cpu.groups.find((x) => x.name === p.role);
    const userUs = g && m.load.requests ? ((g.seconds - g.systemSeconds) * 1e6) / m.load.requests : 0;
    const table: Table = {
      head: ['function', 'share of samples', '≈ user CPU µs/request'],
      rows: p.summary.functions
        .slice(0, top)
        .map((e) => [`\`${e.name.replaceAll('|', '\\|')}\``, pct(e.share), fmt(e.share * userUs, 1)]),
    };
    return [
      `${p.name} under the nearby load, ${fmt(userUs)} µs of user-mode CPU per request:`,
      '',
      markdownTable(table),
      '',
    ];
  });
}

/**
 * GET /api/plants/nearby over a million plants clustered in Europe: results checked against a brute-force
 * haversine scan, then latency for one client at a time and throughput under concurrent load, each against the
 * reference of a read by id on the same path, through the whole platform.
 */
export const nearby: Benchmark = {
  name: 'nearby',
  title: 'GET /api/plants/nearby over 1,000,000 plants clustered in Europe',
  timeLimitSeconds: (s) => 1800 + 4 * (s.warmupSeconds + s.durationSeconds),
  async run(ctx): Promise<BenchReport> {
    const { settings } = ctx;
    const count = Number(process.env.BENCH_NEARBY_PLANTS ?? DEFAULT_PLANTS);
    if (!Number.isInteger(count) || count < 1000) throw new Error('BENCH_NEARBY_PLANTS must be a whole number ≥ 1000');
    const infra = await startBenchInfra(ctx);
    const { db } = infra;

    ctx.log(`generating ${fmt(count)} plants`);
    const ds = generate(count);
    // The cluster first: its plants service makes the schema the plants are copied into.
    ctx.log('starting the cluster (one process per service, and the gateway)');
    const { cluster } = await startPlatformCluster(
      ctx,
      { natsUrl: infra.nats.url, databaseUrl: db.url },
      settings.profile ? profilerEnv(infra.profileDir) : {},
    );
    ctx.log('seeding them with COPY, then VACUUM ANALYZE');
    const seedStart = Date.now();
    await seedPlants(db.url, plantRows(ds));
    const seedSeconds = (Date.now() - seedStart) / 1000;
    ctx.log(`  seeded in ${fmt(seedSeconds, 1)} s`);

    const headers = { authorization: `Bearer ${await signIn(cluster.url, 'bench-nearby@example.org')}` };
    const points = queryPoints(ds);
    ctx.log(`checking ${points.length} query points against a brute-force scan of ${fmt(count)} plants`);
    const checked = await verify(ctx, cluster.url, headers, ds, points);
    const totals = checked.map((c) => c.total).sort((a, b) => a - b);
    const estimated = checked.filter((c) => c.estimate !== undefined);
    const plan = await explain(db.url, points[0]!);
    const paths = points.map(pathOf);
    // The floor of the same path: one plant by id, through the same gateway and service.
    const byId = points.map((_, i) => `/api/plants/${ds.ids[Math.floor((i * ds.ids.length) / points.length)]}`);

    ctx.log(
      `one client, one request at a time: ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured`,
    );
    await sequential(cluster.url, paths, headers, { seconds: settings.warmupSeconds });
    const alone = await sequential(cluster.url, paths, headers, { seconds: settings.durationSeconds });
    const referenceSeconds = Math.min(settings.durationSeconds, 10);
    const reference = await sequential(cluster.url, byId, headers, { seconds: referenceSeconds });

    const gateway = clusterPid(cluster, 'gateway');
    const plantsPid = clusterPid(cluster, 'plants');
    const groups: CpuGroup[] = platformCpuGroups(
      cluster,
      infra,
      [
        { name: ROLE.gateway, pids: [gateway] },
        { name: ROLE.plants, pids: [plantsPid] },
      ],
      { other: ROLE.otherServices, nats: ROLE.nats, postgres: ROLE.postgres },
    );
    const profiled = (what: string) => [
      { name: `gateway (${what})`, role: ROLE.gateway, pid: gateway },
      { name: `plants service (${what})`, role: ROLE.plants, pid: plantsPid },
    ];
    ctx.log(`${settings.connections} connections, nearby (autocannon in its own process)`);
    const loaded = await loadOf(
      ctx,
      'nearby',
      paths,
      headers,
      cluster.url,
      groups,
      profiled('nearby'),
      infra.profileDir,
    );
    ctx.log(`${settings.connections} connections, the reference GET /api/plants/{id}`);
    const referenceLoaded = await loadOf(
      ctx,
      'reference',
      byId,
      headers,
      cluster.url,
      groups,
      profiled('reference'),
      infra.profileDir,
    );

    // The floor: the same two requests through the minimal pipeline, whose subscriber runs the plants service's
    // own nearby statement and replies with its rows as JSON (no validation, mapping or contract).
    const minimal = await startMinimalPipeline(ctx, {
      natsUrl: infra.nats.url,
      databaseUrl: db.url,
      poolMax: POOL_MAX,
      profileDir: infra.profileDir,
      readyPath: minimalPath(byId[0]!),
      headers,
    });
    await checkFloor(minimal.url, cluster.url, headers, points.slice(0, 10));
    const floorGroups: CpuGroup[] = [
      { name: ROLE.gateway, pids: () => [minimal.frontPid] },
      { name: ROLE.plants, pids: () => [minimal.readerPid] },
      { name: ROLE.nats, pids: infra.natsPids },
      { name: ROLE.postgres, pids: infra.pgPids },
    ];
    ctx.log(`${settings.connections} connections, nearby through the minimal pipeline (the floor)`);
    const floorLoaded = await loadOf(
      ctx,
      'floor',
      paths.map(minimalPath),
      headers,
      minimal.url,
      floorGroups,
      [],
      infra.profileDir,
    );
    ctx.log(`${settings.connections} connections, the read by id through the minimal pipeline`);
    const floorReference = await loadOf(
      ctx,
      'floor-reference',
      byId.map(minimalPath),
      headers,
      minimal.url,
      floorGroups,
      [],
      infra.profileDir,
    );
    await minimal.stop();
    const floorRatio = floorLoaded.load.requestsPerSecond / Math.max(1e-9, floorReference.load.requestsPerSecond);

    const ratio = loaded.load.requestsPerSecond / Math.max(1e-9, referenceLoaded.load.requestsPerSecond);
    const verdict = alone.p50 <= TARGET_P50_MS ? 'meets' : 'misses';
    const ratioVerdict = ratio >= TARGET_RATIO ? 'meets' : 'misses';
    const results: Table = {
      head: ['client', 'requests', 'requests/s', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'non-2xx'],
      rows: [
        sequentialRow('nearby, 1 at a time', alone),
        sequentialRow('reference: GET /api/plants/{id}, 1 at a time', reference),
        loadRow(`nearby, ${settings.connections} connections`, loaded.load),
        loadRow(`reference: GET /api/plants/{id}, ${settings.connections} connections`, referenceLoaded.load),
        loadRow(`floor: nearby, minimal pipeline, ${settings.connections} connections`, floorLoaded.load),
        loadRow(`floor: by id, minimal pipeline, ${settings.connections} connections`, floorReference.load),
      ],
    };
    const cpu = cpuTable(loaded, referenceLoaded);
    /** CPU µs per request of the measured groups `counted` names. */
    const usPerRequest = (m: Loaded, counted: (group: string) => boolean) =>
      (m.cpu.groups.filter((g) => counted(g.name)).reduce((a, g) => a + g.seconds, 0) * 1e6) /
      Math.max(1, m.load.requests);
    // What the pipeline itself spends per request: every process measured but the load generator.
    const platformUs = (m: Loaded) => usPerRequest(m, (group) => group !== ROLE.load);
    const pgUs = (m: Loaded) => usPerRequest(m, (group) => group === ROLE.postgres);
    const cpuRatio = platformUs(referenceLoaded) / Math.max(1e-9, platformUs(loaded));
    const cpuLine =
      `CPU per request of the platform itself (gateway, services, nats-server, PostgreSQL): nearby ` +
      `${fmt(platformUs(loaded))} µs, reference ${fmt(platformUs(referenceLoaded))} µs; their inverse ratio, ` +
      `**${fmt(cpuRatio, 2)}**, is what the throughput ratio tends to when both are CPU-bound and nothing else ` +
      'competes for the cores (steadier than requests/s on a shared machine).';
    const floorLine =
      `The floor, the same two requests through the minimal pipeline (a bare Fastify server, NATS, and a bare ` +
      `subscriber that runs the plants service's own nearby statement with postgres.js and replies with its rows as ` +
      `JSON, as the get-plant benchmark's floor does for one plant): nearby / by id ${fmt(floorLoaded.load.requestsPerSecond)} / ` +
      `${fmt(floorReference.load.requestsPerSecond)} requests/s = **${fmt(floorRatio, 2)}**; CPU per request of that ` +
      `pipeline (front, subscriber, nats-server, PostgreSQL) ${fmt(platformUs(floorLoaded))} µs against ` +
      `${fmt(platformUs(floorReference))} µs (inverse ratio ${fmt(platformUs(floorReference) / Math.max(1e-9, platformUs(floorLoaded)), 2)}). ` +
      `The platform's nearby answered ${fmt(loaded.load.requestsPerSecond / Math.max(1e-9, floorLoaded.load.requestsPerSecond), 2)} ` +
      `of the floor's nearby throughput (${fmt(loaded.load.requestsPerSecond)} / ${fmt(floorLoaded.load.requestsPerSecond)}).`;
    const budgetLine =
      `Budget: for ${TARGET_RATIO} of the reference, a nearby request could cost the platform at most ` +
      `${fmt(platformUs(referenceLoaded))} / ${TARGET_RATIO} = **${fmt(platformUs(referenceLoaded) / TARGET_RATIO)} µs** ` +
      `of CPU; PostgreSQL's backends alone spent **${fmt(pgUs(loaded))} µs** on each (the floor's ${fmt(pgUs(floorLoaded))}).`;
    const floorCpu = cpuTable(
      floorLoaded,
      floorReference,
      [ROLE.gateway, ROLE.plants, ROLE.nats, ROLE.postgres, ROLE.load],
      {
        [ROLE.gateway]: 'bare Fastify',
        [ROLE.plants]: 'bare subscriber',
      },
    );
    const within = `${fmt(totals[0] ?? 0)} / ${fmt(quantile(totals, 0.25))} / ${fmt(quantile(totals, 0.5))} / ${fmt(
      quantile(totals, 0.75),
    )} / ${fmt(totals[totals.length - 1] ?? 0)}`;
    const targetLine = `p50 for one client: **${ms(alone.p50)} ms**, which ${verdict} the target of ${TARGET_P50_MS} ms.`;
    const ratioLine =
      `Throughput with ${settings.connections} connections, nearby / reference: ${fmt(loaded.load.requestsPerSecond)} / ` +
      `${fmt(referenceLoaded.load.requestsPerSecond)} requests/s = **${fmt(ratio, 2)}**, which ${ratioVerdict} the ` +
      `target of ${TARGET_RATIO}.`;
    const estimates =
      estimated.length === 0
        ? `none had more than ${fmt(NEARBY_EXACT_TOTAL_MAX)} plants within the radius, so every total was exact`
        : `${estimated.length} had more than ${fmt(NEARBY_EXACT_TOTAL_MAX)} plants within the radius and answered ` +
          `an estimate marked \`totalIsEstimate\` (estimate / true count, median ${fmt(
            quantile(
              estimated.map((c) => c.estimate! / c.total).sort((a, b) => a - b),
              0.5,
            ),
            2,
          )}, range ${fmt(Math.min(...estimated.map((c) => c.estimate! / c.total)), 2)}–${fmt(
            Math.max(...estimated.map((c) => c.estimate! / c.total)),
            2,
          )})`;
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
        `(same ids in the same order, distances within 1e-9 km; the total exact up to ${fmt(NEARBY_EXACT_TOTAL_MAX)}, ` +
        `past it flagged as an estimate above the cap). Of the ${QUERY_POINTS} points, ${estimates}.`,
      '',
      `Load: through the gateway and NATS to the plants service (cluster mode, every service running, ` +
        `\`LOG_LEVEL=warn\`, limiters set never to refuse), the query points in turn, after a ${settings.warmupSeconds} s ` +
        `warm-up, for ${settings.durationSeconds} s: first one client sending one request at a time (timed with ` +
        '`performance.now()` in the benchmark process), then autocannon in a process of its own with ' +
        `${settings.connections} connections. The reference rows read one plant by id through the same path, the ` +
        'same way: the floor of any request. ' +
        (settings.profile
          ? 'A sampling CPU profiler (1 ms) ran in the gateway and the plants service during the loaded windows.'
          : 'No CPU profiler ran (`--no-profile`).'),
      '',
      markdownTable(results),
      '',
      targetLine,
      '',
      ratioLine,
      '',
      `CPU per request with ${settings.connections} connections (from /proc, over each measured window):`,
      '',
      markdownTable(cpu),
      '',
      cpuLine,
      '',
      floorLine,
      '',
      budgetLine,
      '',
      'CPU per request of the floor with the same connections, nearby against the read by id:',
      '',
      markdownTable(floorCpu),
      '',
      ...profileSection(loaded, 12),
      'Plan of the candidate scan (the index ranges of the 50 km bounding box) for the first query point:',
      '',
      '```',
      plan,
      '```',
    ].join('\n');
    const text = [
      `plants within ${RADIUS_KM} km (min/p25/median/p75/max): ${within}`,
      `all ${QUERY_POINTS} query points equal the brute-force scan; ${estimates}`,
      '',
      textTable(results),
      '',
      targetLine.replaceAll('**', ''),
      ratioLine.replaceAll('**', ''),
      '',
      textTable(cpu),
      '',
      cpuLine.replaceAll('**', ''),
      '',
      floorLine.replaceAll('**', ''),
      budgetLine.replaceAll('**', ''),
      '',
      textTable(floorCpu),
    ].join('\n');
    return { text, markdown };
  },
};
