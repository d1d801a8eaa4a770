import { api, mintToken, plantInput } from '@rootline/testing';
import { clusterPid, NO_LIMIT, platformCpuGroups, startPlatformCluster } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { fmt, markdownTable, pct, type Table, textTable } from './lib/markdown.js';
import { startMinimalPipeline, waitFor200 } from './lib/minimal.js';
import {
  PG_STATEMENTS_SETTINGS,
  StatementCounter,
  type StatementCounters,
  type StatementSnapshot,
  shortQuery,
  statementDelta,
} from './lib/pg-statements.js';
import { type CpuGroup, CpuMeter, type CpuUsage } from './lib/proc-cpu.js';
import { type ProfileSummary, profilerEnv, readProfile, summariseProfile, toggleProfiler } from './lib/profile.js';
import type { BenchContext, Benchmark, BenchReport, BenchSettings } from './lib/types.js';

/** Plants registered before the load; the GETs go through them in turn. */
const SEED_PLANTS = 1000;
/** Registrations in flight while seeding. */
const SEED_CONCURRENCY = 32;
/** Connections of each reading process: `openDatabase`'s default pool, which the plants service uses. */
const POOL_MAX = 10;
const TARGET_RATIO = 0.9;

/** Row names of the CPU table: the same role on both sides. */
const ROLE = {
  front: 'HTTP front',
  reader: 'plant reader',
  otherServices: 'other platform services',
  nats: 'nats-server',
  postgres: 'PostgreSQL backends',
  load: 'load generator',
} as const;

type PipelineName = 'platform' | 'minimal';

/** A process profiled during the measured window; `role` is its row in the CPU table. */
interface Profiled {
  name: string;
  role: string;
  pid: number;
}

/** A running pipeline, ready to be measured. */
interface Pipeline {
  name: PipelineName;
  url: string;
  paths: string[];
  groups: CpuGroup[];
  profiled: Profiled[];
  stop(): Promise<void>;
}

/** One measured window of one pipeline. */
interface Measured {
  load: LoadResult;
  /** Wall time between the start and the end of the measured load. */
  windowSeconds: number;
  cpu: CpuUsage;
  profiles: { name: string; role: string; summary: ProfileSummary }[];
  /** What each statement did in the database over the measured window (pg_stat_statements). */
  statements: StatementCounters[];
}

/** The shared infrastructure: a private nats-server and a fresh database, with their processes. */
interface Infra {
  natsUrl: string;
  databaseUrl: string;
  natsPids: () => number[];
  pgPids: () => number[];
  profileDir: string;
  statements: StatementCounter;
}

/** Registers plants through the API, `concurrency` at a time; resolves to their ids. */
async function seedPlants(url: string, caller: Caller, count: number, concurrency: number): Promise<string[]> {
  const { token } = caller;
  // The owner of a new plant must be the caller.
  const owner = { id: caller.userId, name: 'Bench' };
  const ids: string[] = [];
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started += 1;
      const res = await api(url, '/api/plants/register', { token, body: plantInput({ owner }) });
      const id: unknown = res.body?.data?.id;
      if (res.status !== 201 || typeof id !== 'string') {
        throw new Error(`seeding: registration answered ${res.status} ${JSON.stringify(res.body)}`);
      }
      ids.push(id);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

/**
 * A bearer token as a client gets one: an account registered and signed in through the API (the gateway checks
 * that the token's session is live on every request, which is part of what is measured). A gateway without
 * accounts answers 404 to the registration and takes a token signed with its key instead.
 */
/** The account the benchmark reads as: its session token and its user id. */
interface Caller {
  token: string;
  userId: string;
}

async function signedInCaller(url: string): Promise<Caller> {
  const account = { email: 'bench-get-plant@example.org', password: 'correct horse battery staple' };
  const registered = await api(url, '/api/auth/register', { body: { ...account, name: 'Bench' } });
  if (registered.status === 404) {
    const userId = 'usr_bench';
    return { token: mintToken({ sub: userId, role: 'GROWER', expiresInSeconds: 24 * 3600 }), userId };
  }
  if (registered.status !== 201) throw new Error(`account: ${registered.status} ${JSON.stringify(registered.body)}`);
  const userId: unknown = registered.body?.data?.id;
  const signedIn = await api(url, '/api/auth/signin', { body: account });
  const token: unknown = signedIn.body?.data?.token;
  if (typeof token !== 'string' || typeof userId !== 'string') {
    throw new Error(`sign-in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  }
  return { token, userId };
}

/** Fisher–Yates, so the requests do not follow the insertion order. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The whole platform: every service process and the gateway, as `pnpm start:cluster` runs them. Seeds the plants
 * through the API and resolves to the pipeline, the plant ids and the token the requests carry.
 */
async function startPlatform(
  ctx: BenchContext,
  infra: Infra,
): Promise<{ pipeline: Pipeline; ids: string[]; token: string }> {
  ctx.log('platform: starting the cluster (one process per service, and the gateway)');
  const { cluster, stop } = await startPlatformCluster(
    ctx,
    infra,
    ctx.settings.profile ? profilerEnv(infra.profileDir) : {},
  );

  const caller = await signedInCaller(cluster.url);
  const { token } = caller;
  ctx.log(`platform: registering ${fmt(SEED_PLANTS)} plants (${SEED_CONCURRENCY} at a time)`);
  const seedStart = Date.now();
  const ids = await seedPlants(cluster.url, caller, SEED_PLANTS, SEED_CONCURRENCY);
  ctx.log(`  seeded in ${fmt((Date.now() - seedStart) / 1000, 1)} s`);
  await waitFor200(`${cluster.url}/api/plants/${ids[0]}`, { authorization: `Bearer ${token}` }, 10_000);

  const gateway = clusterPid(cluster, 'gateway');
  const plants = clusterPid(cluster, 'plants');
  const pipeline: Pipeline = {
    name: 'platform',
    url: cluster.url,
    paths: shuffled(ids).map((id) => `/api/plants/${id}`),
    groups: platformCpuGroups(
      cluster,
      infra,
      [
        { name: ROLE.front, pids: [gateway] },
        { name: ROLE.reader, pids: [plants] },
      ],
      { other: ROLE.otherServices, nats: ROLE.nats, postgres: ROLE.postgres },
    ),
    profiled: [
      { name: 'gateway (platform)', role: ROLE.front, pid: gateway },
      { name: 'plants (platform)', role: ROLE.reader, pid: plants },
    ],
    stop,
  };
  return { pipeline, ids, token };
}

/** The minimal pipeline: a bare Fastify server and a bare NATS subscriber reading with postgres.js. */
async function startMinimal(
  ctx: BenchContext,
  infra: Infra,
  ids: string[],
  headers: Record<string, string>,
): Promise<Pipeline> {
  const minimal = await startMinimalPipeline(ctx, {
    natsUrl: infra.natsUrl,
    databaseUrl: infra.databaseUrl,
    poolMax: POOL_MAX,
    profileDir: infra.profileDir,
    readyPath: `/plants/${ids[0]}`,
    headers,
  });
  return {
    name: 'minimal',
    url: minimal.url,
    paths: shuffled(ids).map((id) => `/plants/${id}`),
    groups: [
      { name: ROLE.front, pids: () => [minimal.frontPid] },
      { name: ROLE.reader, pids: () => [minimal.readerPid] },
      { name: ROLE.nats, pids: infra.natsPids },
      { name: ROLE.postgres, pids: infra.pgPids },
    ],
    profiled: [
      { name: 'bare Fastify (minimal)', role: ROLE.front, pid: minimal.frontPid },
      { name: 'bare subscriber (minimal)', role: ROLE.reader, pid: minimal.readerPid },
    ],
    stop: minimal.stop,
  };
}

/** Warm-up, then the measured load, with CPU time per process and CPU profiles taken over the measured window. */
async function measure(
  ctx: BenchContext,
  p: Pipeline,
  headers: Record<string, string>,
  { profileDir, statements }: Infra,
  round: number,
): Promise<Measured> {
  const { settings } = ctx;
  let loadPid: number | undefined;
  const meter = new CpuMeter([...p.groups, { name: ROLE.load, pids: () => (loadPid ? [loadPid] : []) }]);
  let cpu: CpuUsage | undefined;
  let before: Promise<StatementSnapshot> | undefined;
  let after: Promise<StatementSnapshot> | undefined;
  let started = 0;
  let windowSeconds = 0;
  const profiled = settings.profile ? p.profiled : [];
  ctx.log(`${p.name}: ${settings.warmupSeconds} s warm-up, then ${settings.durationSeconds} s measured`);
  const load = await runLoad(
    ctx.scope,
    {
      url: p.url,
      paths: p.paths,
      headers,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
    },
    {
      onMeasureStart(pid) {
        loadPid = pid;
        started = performance.now();
        meter.start();
        before = statements.snapshot();
        for (const x of profiled) toggleProfiler(x.pid);
      },
      onMeasureEnd() {
        cpu = meter.stop();
        after = statements.snapshot();
        windowSeconds = (performance.now() - started) / 1000;
        for (const x of profiled) toggleProfiler(x.pid);
      },
    },
  );
  if (!cpu || !before || !after) throw new Error('the measured window was not observed');
  const delta = statementDelta(await before, await after);
  const keep = (name: string) =>
    settings.keepProfilesIn
      ? { dir: settings.keepProfilesIn, name: `get-plant-${name.replace(/\W+/g, '-').replace(/-$/, '')}-${round}` }
      : undefined;
  const profiles = await Promise.all(
    profiled.map(async (x) => ({
      name: x.name,
      role: x.role,
      summary: summariseProfile(await readProfile(profileDir, x.pid, keep(x.name))),
    })),
  );
  return { load, windowSeconds, cpu, profiles, statements: delta };
}

// ---- report ----------------------------------------------------------------------------------------------

/** Requests and CPU time of one pipeline added up over the rounds. */
interface Totals {
  requests: number;
  cpu: CpuUsage;
}

function totals(runs: Measured[]): Totals {
  const sum = (f: (m: Measured) => number) => runs.reduce((a, m) => a + f(m), 0);
  const names = runs[0]?.cpu.groups.map((g) => g.name) ?? [];
  return {
    requests: sum((m) => m.load.requests),
    cpu: {
      groups: names.map((name) => {
        const of = (m: Measured) => m.cpu.groups.find((g) => g.name === name);
        return {
          name,
          seconds: sum((m) => of(m)?.seconds ?? 0),
          systemSeconds: sum((m) => of(m)?.systemSeconds ?? 0),
        };
      }),
      machineBusy: sum((m) => m.cpu.machineBusy),
      machineTotal: sum((m) => m.cpu.machineTotal),
      machineInterrupts: sum((m) => m.cpu.machineInterrupts),
      machineSteal: sum((m) => m.cpu.machineSteal),
    },
  };
}

const ms = (v: number) => fmt(v, 2);
const meanRps = (runs: Measured[]) => runs.reduce((a, m) => a + m.load.requestsPerSecond, 0) / runs.length;

function resultsTable(rounds: Record<PipelineName, Measured>[]): Table {
  const row = (name: string, m: Measured) => [
    name,
    fmt(m.load.requestsPerSecond),
    ms(m.load.latency.p50),
    ms(m.load.latency.p99),
    ms(m.load.latency.mean),
    fmt(m.load.requests),
    fmt(m.load.errors),
    fmt(m.load.non2xx),
    fmt(m.windowSeconds, 1),
  ];
  const label = (name: string, i: number) => (rounds.length > 1 ? `${name}, round ${i + 1}` : name);
  return {
    head: ['pipeline', 'requests/s (mean)', 'p50 ms', 'p99 ms', 'mean ms', 'requests', 'errors', 'non-2xx', 'window s'],
    rows: rounds.flatMap((r, i) => [row(label('platform', i), r.platform), row(label('minimal', i), r.minimal)]),
  };
}

function secondsOf(t: Totals, role: string): number | undefined {
  return t.cpu.groups.find((g) => g.name === role)?.seconds;
}

/** The kernel's share of a role's CPU time. */
function systemShare(t: Totals, role: string): string {
  const g = t.cpu.groups.find((x) => x.name === role);
  return g && g.seconds > 0 ? pct(g.systemSeconds / g.seconds, 0) : '–';
}

function cpuTable(platform: Totals, minimal: Totals): Table {
  const perRequest = (t: Totals, s: number | undefined) =>
    s === undefined || t.requests === 0 ? '–' : fmt((s * 1e6) / t.requests);
  const cell = (s: number | undefined) => (s === undefined ? '–' : fmt(s, 1));
  /** One row: CPU seconds, per request and (for processes) the kernel's share, on each side. */
  const row = (name: string, of: (t: Totals) => number | undefined, kernel?: (t: Totals) => string) => [
    name,
    cell(of(platform)),
    perRequest(platform, of(platform)),
    kernel?.(platform) ?? '',
    cell(of(minimal)),
    perRequest(minimal, of(minimal)),
    kernel?.(minimal) ?? '',
  ];
  const accounted = (t: Totals) => t.cpu.groups.reduce((a, g) => a + g.seconds, 0);
  const others = (t: Totals) =>
    Math.max(0, t.cpu.machineBusy - accounted(t) - t.cpu.machineInterrupts - t.cpu.machineSteal);
  const total = (t: Totals) => t.cpu.machineTotal;
  return {
    head: [
      'where',
      'platform CPU s',
      'platform CPU µs/request',
      'in kernel',
      'minimal CPU s',
      'minimal CPU µs/request',
      'in kernel',
    ],
    rows: [
      ...Object.values(ROLE).map((role) =>
        row(
          role,
          (t) => secondsOf(t, role),
          (t) => systemShare(t, role),
        ),
      ),
      row('interrupts (kernel network processing)', (t) => t.cpu.machineInterrupts),
      row('stolen by the hypervisor', (t) => t.cpu.machineSteal),
      row('other processes', others),
      row('machine busy', (t) => t.cpu.machineBusy),
      ['machine available (wall × cores)', cell(total(platform)), '', '', cell(total(minimal)), '', ''],
    ],
  };
}

/** Each statement's counters summed over the rounds (by text), busiest first. */
function statementTotals(runs: Measured[]): StatementCounters[] {
  const byQuery = new Map<string, StatementCounters>();
  for (const s of runs.flatMap((m) => m.statements)) {
    const t = byQuery.get(s.query);
    if (!t) byQuery.set(s.query, { ...s });
    else {
      t.calls += s.calls;
      t.plans += s.plans;
      t.planMs += s.planMs;
      t.execMs += s.execMs;
      t.rows += s.rows;
    }
  }
  return [...byQuery.values()].sort((x, y) => y.planMs + y.execMs - (x.planMs + x.execMs));
}

/** Statements per request: calls, plans and the server's planning and execution time, from pg_stat_statements. */
function statementsTable(name: string, runs: Measured[], top: number): { table: Table; summary: string } {
  const requests = runs.reduce((a, m) => a + m.load.requests, 0);
  const all = statementTotals(runs);
  const per = (v: number) => v / Math.max(1, requests);
  const sum = (f: (s: StatementCounters) => number) => all.reduce((a, s) => a + f(s), 0);
  const summary =
    `${name}: ${fmt(per(sum((s) => s.calls)), 3)} statements and ${fmt(per(sum((s) => s.plans)), 3)} plans per ` +
    `request; planning ${fmt(per(sum((s) => s.planMs)) * 1000, 1)} µs and execution ` +
    `${fmt(per(sum((s) => s.execMs)) * 1000, 1)} µs of server time per request.`;
  return {
    summary,
    table: {
      head: [`statement (${name})`, 'calls/request', 'plans/request', 'plan µs/request', 'exec µs/request'],
      rows: all
        .slice(0, top)
        .map((s) => [
          `\`${shortQuery(s.query).replaceAll('|', '\\|').replaceAll('`', "'")}\``,
          fmt(per(s.calls), 3),
          fmt(per(s.plans), 3),
          fmt(per(s.planMs) * 1000, 1),
          fmt(per(s.execMs) * 1000, 1),
        ]),
    },
  };
}

/** User-mode CPU µs per request of a profiled process, from /proc. */
function userUsPerRequest(m: Measured, role: string): number {
  const g = m.cpu.groups.find((x) => x.name === role);
  return g && m.load.requests ? ((g.seconds - g.systemSeconds) * 1e6) / m.load.requests : 0;
}

/** Self time per module or function: its share of the user-mode samples, and that share of the user CPU time. */
function selfTimeTable(m: Measured, p: Measured['profiles'][number], kind: 'modules' | 'functions', top: number) {
  const perRequest = userUsPerRequest(m, p.role);
  const table: Table = {
    head: [kind === 'modules' ? 'module' : 'function', 'share of samples', '≈ user CPU µs/request'],
    rows: p.summary[kind].slice(0, top).map((e) => [`\`${e.name}\``, pct(e.share), fmt(e.share * perRequest, 1)]),
  };
  return table;
}

function profileSection(m: Measured): string[] {
  return m.profiles.flatMap((p) => {
    const { busyMs, wallMs, syscallMs } = p.summary;
    return [
      `#### ${p.name}`,
      '',
      `Busy in ${pct(busyMs / Math.max(1, wallMs), 0)} of ${fmt(wallMs / 1000, 1)} s sampled, ` +
        `${pct(syscallMs / Math.max(1, busyMs), 0)} of it in socket writes (left out below); ` +
        `${fmt(userUsPerRequest(m, p.role))} µs of user-mode CPU per request.`,
      '',
      markdownTable(selfTimeTable(m, p, 'modules', 10)),
      '',
      markdownTable(selfTimeTable(m, p, 'functions', 15)),
      '',
    ];
  });
}

function report(settings: BenchSettings, rounds: Record<PipelineName, Measured>[]): BenchReport {
  const platformRuns = rounds.map((r) => r.platform);
  const minimalRuns = rounds.map((r) => r.minimal);
  const ratio = meanRps(platformRuns) / meanRps(minimalRuns);
  const verdict = ratio >= TARGET_RATIO ? 'meets' : 'misses';
  const perRound =
    rounds.length > 1
      ? ` (per round: ${rounds.map((r) => fmt(r.platform.load.requestsPerSecond / r.minimal.load.requestsPerSecond, 2)).join(', ')})`
      : '';
  const ratioLine =
    `Ratio platform / minimal (requests/s): **${fmt(ratio, 2)}**${perRound}, which ${verdict} the target of ` +
    `${TARGET_RATIO}.`;
  const results = resultsTable(rounds);
  const platformTotals = totals(platformRuns);
  const minimalTotals = totals(minimalRuns);
  const cpu = cpuTable(platformTotals, minimalTotals);
  // What the pipeline itself spends per request: everything measured but the load generator.
  const pipelineUs = (t: Totals) =>
    (t.cpu.groups.filter((g) => g.name !== ROLE.load).reduce((a, g) => a + g.seconds, 0) * 1e6) /
    Math.max(1, t.requests);
  const cpuRatio = pipelineUs(minimalTotals) / pipelineUs(platformTotals);
  const cpuLine =
    `CPU per request of the pipeline itself (HTTP front, plant reader, other services, nats-server, PostgreSQL): ` +
    `platform ${fmt(pipelineUs(platformTotals))} µs, minimal ${fmt(pipelineUs(minimalTotals))} µs; their inverse ` +
    `ratio, **${fmt(cpuRatio, 2)}**, is what the requests/s ratio tends to when the pipelines are CPU-bound and ` +
    'nothing else competes for the cores (steadier than requests/s on a shared machine).';
  const platformStatements = statementsTable('platform', platformRuns, 8);
  const minimalStatements = statementsTable('minimal', minimalRuns, 4);
  const last = rounds[rounds.length - 1]!;
  const profiled = last.platform.profiles.length + last.minimal.profiles.length > 0;

  const markdown = [
    `Settings: ${settings.connections} connections; ${settings.durationSeconds} s measured after a ` +
      `${settings.warmupSeconds} s warm-up that is not counted, per pipeline and round; ${rounds.length} ` +
      `round${rounds.length > 1 ? 's, alternating which pipeline goes first' : ', platform first'}. Both pipelines ` +
      `run side by side on the same private nats-server and the same fresh PostgreSQL database holding ` +
      `${fmt(SEED_PLANTS)} plants (registered through the API), requested in turn; the one not measured is idle. ` +
      `Load from autocannon in a process of its own. Cluster environment: \`LOG_LEVEL=warn\`, ` +
      `\`RATE_LIMIT_PER_MINUTE\` and \`RATE_LIMIT_PER_HOUR_PER_USER\` at ${NO_LIMIT} (the limiters still run on ` +
      `every request, they never refuse), \`CHAIN_DIFFICULTY\` at its default. Both reading processes have a pool of ${POOL_MAX} PostgreSQL ` +
      `connections with \`max_pipeline: 0\`. ` +
      (settings.profile
        ? 'A sampling CPU profiler (1 ms) ran in the HTTP front and the plant reader of both pipelines during ' +
          'the measured windows.'
        : 'No CPU profiler ran (`--no-profile`).'),
    '',
    '- **platform**: `GET /api/plants/{plantId}` with the bearer token of a signed-in account through the gateway ' +
      '(request id, metrics, rate limits, token and session check, validation, the envelope around the reply it ' +
      'forwards) and NATS to the plants service (validation, context, one prepared statement of the public columns, ' +
      'the reply written by its schema), every service process running, compiled as they ship.',
    '- **minimal**: `GET /plants/:id` on a bare Fastify server → `nc.request` → a bare NATS queue subscriber → ' +
      'one postgres.js `SELECT * … WHERE id = $1` → the row as JSON (all columns, not mapped to the API shape) in ' +
      'the same envelope.',
    '',
    markdownTable(results),
    '',
    ratioLine,
    '',
    '### Where the time goes',
    '',
    'CPU time over the measured windows (user + system, all threads, from `/proc/<pid>/stat` and `/proc/stat`), ' +
      'divided by the requests served; "in kernel" is the system-mode share (socket reads and writes, mostly).',
    '',
    markdownTable(cpu),
    '',
    cpuLine,
    '',
    '### What each request asks of the database',
    '',
    'From `pg_stat_statements` (planning tracked) on the private PostgreSQL server the benchmark starts, over the ' +
      'measured windows of all rounds, divided by the requests served. Every statement in the database counts, ' +
      "including the platform's background work (relays, scheduled jobs) while either pipeline is measured.",
    '',
    `- ${platformStatements.summary}`,
    `- ${minimalStatements.summary}`,
    '',
    markdownTable(platformStatements.table),
    '',
    markdownTable(minimalStatements.table),
    '',
    ...(profiled
      ? [
          `Main-thread self time from the CPU profiles${rounds.length > 1 ? ' of the last round' : ''}, by module ` +
            'and by function. The profiler samples wall time: a socket write that wakes its peer on a saturated ' +
            'machine also collects the time the writer then waits for a core, so samples inside socket writes ' +
            '(their CPU time is the kernel share above) are left out, and the user-mode CPU time from /proc is ' +
            'spread over the other samples. `V8 builtins` are functions without a script (JSON, RegExp, native ' +
            'bindings); `(program)` is V8 and native code outside any function.',
          '',
          ...profileSection(last.platform),
          ...profileSection(last.minimal),
        ]
      : []),
  ].join('\n');

  const topModules = (m: Measured) =>
    m.profiles.map(
      ({ name, summary }) =>
        `${name}: ${summary.modules
          .slice(0, 6)
          .map((e) => `${e.name} ${pct(e.share, 0)}`)
          .join(', ')}`,
    );
  const text = [
    textTable(results),
    '',
    ratioLine.replaceAll('**', ''),
    '',
    textTable(cpu),
    '',
    cpuLine.replaceAll('**', ''),
    '',
    platformStatements.summary,
    textTable(platformStatements.table),
    minimalStatements.summary,
    textTable(minimalStatements.table),
    '',
    ...topModules(last.platform),
    ...topModules(last.minimal),
  ].join('\n');
  return { text, markdown };
}

/**
 * GET /api/plants/{plantId} through the whole platform against a minimal pipeline doing the same lookup,
 * measured in one run against the same NATS and PostgreSQL.
 */
export const getPlant: Benchmark = {
  name: 'get-plant',
  title: 'GET /api/plants/{plantId}: platform vs minimal pipeline',
  timeLimitSeconds: (s) => 420 + 2 * s.rounds * (s.warmupSeconds + s.durationSeconds + 10),
  async run(ctx) {
    const { settings } = ctx;
    // A private server, so pg_stat_statements can count what each request asks of the database.
    const { nats, db, natsPids, pgPids, profileDir, adminUrl } = await startBenchInfra(ctx, {
      privatePostgres: PG_STATEMENTS_SETTINGS,
    });
    const statements = new StatementCounter(adminUrl, db.name);
    ctx.scope.defer(() => statements.close());
    await statements.enable();
    const shared: Infra = { natsUrl: nats.url, databaseUrl: db.url, natsPids, pgPids, profileDir, statements };

    const { pipeline: platform, ids, token } = await startPlatform(ctx, shared);
    const headers = { authorization: `Bearer ${token}` };
    const minimal = await startMinimal(ctx, shared, ids, headers);
    const rounds: Record<PipelineName, Measured>[] = [];
    for (let i = 0; i < settings.rounds; i++) {
      if (settings.rounds > 1) ctx.log(`round ${i + 1} of ${settings.rounds}`);
      const order = i % 2 === 0 ? [platform, minimal] : [minimal, platform];
      const round: Partial<Record<PipelineName, Measured>> = {};
      for (const p of order) round[p.name] = await measure(ctx, p, headers, shared, i + 1);
      rounds.push({ platform: round.platform!, minimal: round.minimal! });
    }
    ctx.log('stopping both pipelines');
    await Promise.all([minimal.stop(), platform.stop()]);
    return report(settings, rounds);
  },
};
