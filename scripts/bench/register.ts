import { createNatsBus } from '@rootline/bus';
import { chainTxSubmit, newId } from '@rootline/contracts';
import { call } from '@rootline/host';
import { api, plantInput } from '@rootline/testing';
import postgres from 'postgres';
import type { ClusterHandle } from '../src/cluster-host.js';
import { clusterPid, platformCpuGroups, startPlatformCluster } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { fmt, markdownTable, pct, type Table, textTable } from './lib/markdown.js';
import { type CpuGroup, CpuMeter, type CpuUsage } from './lib/proc-cpu.js';
import { type ProfileSummary, profilerEnv, readProfile, summariseProfile, toggleProfiler } from './lib/profile.js';
import type { BenchContext, Benchmark } from './lib/types.js';

/** The load the target is defined for: 256 concurrent clients, each with one registration in flight. */
const CONNECTIONS = 256;
const TARGET_RPS = 3500;
const TARGET_P99_MS = 1000;
/** Distinct bodies the connections send in turn. */
const BODIES = 200;
export const ADMIN = { email: 'bench-admin@example.org', password: 'a long passphrase only the benchmark knows' };

export const ROLE = {
  gateway: 'gateway',
  plants: 'plants',
  chain: 'chain-miner',
  transparency: 'transparency (audit log consumer)',
  notify: 'notify (notification consumer)',
  other: 'other platform services',
  nats: 'nats-server',
  postgres: 'PostgreSQL backends',
  load: 'load generator (autocannon, in a process of its own)',
} as const;

/** The ledger settings in effect: the `CHAIN_*` variables this run was given, the rest at their defaults. */
export function chainSettings(): string {
  const set = Object.entries(process.env)
    .filter(([k, v]) => k.startsWith('CHAIN_') && v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `\`${k}=${v}\``);
  return set.length === 0
    ? 'Ledger settings (`CHAIN_*`) at their defaults'
    : `Ledger settings ${set.join(', ')}, the other \`CHAIN_*\` at their defaults`;
}

/** What the ledger did during the measured window, read from its tables. */
interface LedgerFigures {
  blocks: number;
  transactions: number;
  txPerBlock: { mean: number; p50: number; max: number };
  /** From a transaction's submission to the assembly of its block (both timestamps are in the chain). */
  waitMs: { p50: number; p99: number };
  /** Hashes searched by the appender (and helpers) during the window. */
  hashes: number;
  difficulty: number;
}

async function ledgerMark(sql: postgres.Sql): Promise<{ tip: number; hashes: number }> {
  const [tip] = await sql<{ tip: number }[]>`select coalesce(max(index), -1)::int as tip from chain.blocks`;
  const [lease] = await sql<{ hashes: string }[]>`select hashes from chain.appender_lease`;
  return { tip: tip?.tip ?? -1, hashes: Number(lease?.hashes ?? 0) };
}

async function ledgerFigures(
  sql: postgres.Sql,
  before: { tip: number; hashes: number },
  after: { tip: number; hashes: number },
): Promise<LedgerFigures> {
  const [sizes] = await sql<{ blocks: number; txs: number; mean: number; p50: number; max: number; d: number }[]>`
    select count(*)::int as blocks, coalesce(sum(tx_count), 0)::int as txs, coalesce(avg(tx_count), 0)::float8 as mean,
      coalesce(percentile_cont(0.5) within group (order by tx_count), 0)::float8 as p50,
      coalesce(max(tx_count), 0)::int as max, coalesce(max(difficulty), 0)::int as d
    from chain.blocks where index > ${before.tip} and index <= ${after.tip}`;
  const [wait] = await sql<{ p50: number; p99: number }[]>`
    select coalesce(percentile_cont(0.5) within group (order by ms), 0)::float8 as p50,
      coalesce(percentile_cont(0.99) within group (order by ms), 0)::float8 as p99
    from (select extract(epoch from (b.timestamp::timestamptz - t.timestamp::timestamptz)) * 1000 as ms
      from chain.transactions t join chain.blocks b on b.index = t.block_index
      where b.index > ${before.tip} and b.index <= ${after.tip}) w`;
  return {
    blocks: sizes?.blocks ?? 0,
    transactions: sizes?.txs ?? 0,
    txPerBlock: { mean: sizes?.mean ?? 0, p50: sizes?.p50 ?? 0, max: sizes?.max ?? 0 },
    waitMs: { p50: wait?.p50 ?? 0, p99: wait?.p99 ?? 0 },
    hashes: Math.max(0, after.hashes - before.hashes),
    difficulty: sizes?.d ?? 0,
  };
}

interface Measured {
  load: LoadResult;
  windowSeconds: number;
  cpu: CpuUsage;
  ledger: LedgerFigures;
  profiles: { name: string; role: string; summary: ProfileSummary }[];
}

async function measure(ctx: BenchContext, cluster: ClusterHandle, infra: Infra, profileDir: string): Promise<Measured> {
  const { settings } = ctx;
  const signIn = await api(cluster.url, '/api/auth/signin', { body: ADMIN });
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status} ${JSON.stringify(signIn.body)}`);
  const token: string = signIn.body.data.token;
  const probe = await api(cluster.url, '/api/plants/register', { token, body: plantInput() });
  if (probe.status !== 201) throw new Error(`a registration answered ${probe.status} ${JSON.stringify(probe.body)}`);

  const gateway = clusterPid(cluster, 'gateway');
  const plants = clusterPid(cluster, 'plants');
  const transparency = clusterPid(cluster, 'transparency');
  const notify = clusterPid(cluster, 'notify');
  const miners = [...cluster.processes.entries()].filter(([n]) => n.startsWith('chain-miner')).map(([, p]) => p.pid!);
  let loadPid: number | undefined;
  const groups: CpuGroup[] = [
    ...platformCpuGroups(
      cluster,
      infra,
      [
        { name: ROLE.gateway, pids: [gateway] },
        { name: ROLE.plants, pids: [plants] },
        { name: ROLE.chain, pids: miners },
        { name: ROLE.transparency, pids: [transparency] },
        { name: ROLE.notify, pids: [notify] },
      ],
      { other: ROLE.other, nats: ROLE.nats, postgres: ROLE.postgres },
    ),
    { name: ROLE.load, pids: () => (loadPid ? [loadPid] : []) },
  ];
  const profiled = settings.profile
    ? [
        { name: 'gateway', role: ROLE.gateway, pid: gateway },
        { name: 'plants', role: ROLE.plants, pid: plants },
        { name: 'chain-miner', role: ROLE.chain, pid: miners[0]! },
        { name: 'transparency', role: ROLE.transparency, pid: transparency },
        { name: 'notify', role: ROLE.notify, pid: notify },
      ]
    : [];

  const sql = postgres(infra.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    ctx.log(
      `  ${settings.warmupSeconds} s warm-up, then ${settings.durationSeconds} s measured (${CONNECTIONS} connections)`,
    );
    const meter = new CpuMeter(groups);
    let started = 0;
    let windowSeconds = 0;
    let cpu: CpuUsage | undefined;
    let before = { tip: -1, hashes: 0 };
    const requests = Array.from({ length: BODIES }, () => ({
      method: 'POST',
      path: '/api/plants/register',
      body: JSON.stringify(plantInput()),
    }));
    const load = await runLoad(
      ctx.scope,
      {
        url: cluster.url,
        paths: [],
        requests,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        connections: CONNECTIONS,
        durationSeconds: settings.durationSeconds,
        warmupSeconds: settings.warmupSeconds,
      },
      {
        onMeasureStart(pid) {
          loadPid = pid;
          started = performance.now();
          meter.start();
          for (const p of profiled) toggleProfiler(p.pid);
          void ledgerMark(sql).then((m) => {
            before = m;
          });
        },
        onMeasureEnd() {
          cpu = meter.stop();
          windowSeconds = (performance.now() - started) / 1000;
          for (const p of profiled) toggleProfiler(p.pid);
        },
      },
    );
    if (!cpu) throw new Error('the measured window was not observed');
    const after = await ledgerMark(sql);
    const ledger = await ledgerFigures(sql, before, after);
    const profiles = await Promise.all(
      profiled.map(async (p) => ({
        name: p.name,
        role: p.role,
        summary: summariseProfile(
          await readProfile(
            profileDir,
            p.pid,
            settings.keepProfilesIn ? { dir: settings.keepProfilesIn, name: `register-${p.name}` } : undefined,
          ),
        ),
      })),
    );
    return { load, windowSeconds, cpu, ledger, profiles };
  } finally {
    await sql.end();
  }
}

/** The ledger alone: what chain-miner, PostgreSQL and NATS sustain without the gateway and plants in front. */
interface LedgerOnly {
  seconds: number;
  transactions: number;
  latency: { p50: number; p99: number };
  errors: number;
  cpu: CpuUsage;
  ledger: LedgerFigures;
}

/** Percentile of sorted numbers. */
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * `chain.tx.submit` straight over NATS from this process, CONNECTIONS submissions in flight, each with a
 * plant registration's payload: the ledger's own capacity, for comparison with the whole path.
 */
async function measureLedgerOnly(ctx: BenchContext, cluster: ClusterHandle, infra: Infra): Promise<LedgerOnly> {
  const seconds = ctx.settings.durationSeconds;
  ctx.log(`ledger alone: chain.tx.submit over NATS, ${CONNECTIONS} in flight, ${seconds} s`);
  const bus = await createNatsBus({
    url: infra.natsUrl,
    name: 'bench-ledger',
    log: { info() {}, warn() {}, error() {} },
  });
  const sql = postgres(infra.databaseUrl, { max: 1, onnotice: () => {} });
  const miners = [...cluster.processes.entries()].filter(([n]) => n.startsWith('chain-miner')).map(([, p]) => p.pid!);
  const meter = new CpuMeter([
    { name: ROLE.chain, pids: () => miners },
    { name: ROLE.nats, pids: infra.natsPids },
    { name: ROLE.postgres, pids: infra.pgPids },
    { name: 'load generator (NATS client, in the benchmark process)', pids: () => [process.pid] },
  ]);
  try {
    const latencies: number[] = [];
    let errors = 0;
    const before = await ledgerMark(sql);
    meter.start();
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const client = async () => {
      while (performance.now() < deadline) {
        const payload = { ...plantInput(), plantId: newId('plt', Date.now()), registeredAt: new Date().toISOString() };
        const t = performance.now();
        try {
          await call(bus, chainTxSubmit, { type: 'plant.register', payload }, { requestId: newId('req', Date.now()) });
          latencies.push(performance.now() - t);
        } catch {
          errors += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, client));
    const elapsed = (performance.now() - started) / 1000;
    const cpu = meter.stop();
    const after = await ledgerMark(sql);
    latencies.sort((a, b) => a - b);
    return {
      seconds: elapsed,
      transactions: latencies.length,
      latency: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
      errors,
      cpu,
      ledger: await ledgerFigures(sql, before, after),
    };
  } finally {
    await sql.end();
    await bus.close();
  }
}

interface Infra {
  natsUrl: string;
  databaseUrl: string;
  natsPids: () => number[];
  pgPids: () => number[];
}

function report(m: Measured, alone: LedgerOnly): { text: string; markdown: string } {
  const { load, ledger, cpu } = m;
  const meets = load.requestsPerSecond >= TARGET_RPS && load.latency.p99 <= TARGET_P99_MS;
  const verdict =
    `Registrations per second: **${fmt(load.requestsPerSecond)}** with p50 ${fmt(load.latency.p50)} ms and p99 ` +
    `${fmt(load.latency.p99)} ms, which ${meets ? 'meets' : 'misses'} the target of ${fmt(TARGET_RPS)}/s with ` +
    `p99 ≤ ${fmt(TARGET_P99_MS)} ms.`;
  const results: Table = {
    head: ['requests/s (mean)', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'requests', 'errors', 'timeouts', 'non-2xx'],
    rows: [
      [
        fmt(load.requestsPerSecond),
        fmt(load.latency.p50),
        fmt(load.latency.p90),
        fmt(load.latency.p99),
        fmt(load.latency.max),
        fmt(load.requests),
        fmt(load.errors),
        fmt(load.timeouts),
        fmt(load.non2xx),
      ],
    ],
    right: Array(9).fill(true),
  };
  const perRequest = (s: number) => (load.requests ? fmt((s * 1e6) / load.requests) : '–');
  const accounted = cpu.groups.reduce((a, g) => a + g.seconds, 0);
  const cpuTable: Table = {
    head: ['where', 'CPU s', 'CPU µs/registration', 'share of the machine'],
    rows: [
      ...cpu.groups.map((g) => [g.name, fmt(g.seconds, 1), perRequest(g.seconds), pct(g.seconds / cpu.machineTotal)]),
      [
        'interrupts (kernel network processing)',
        fmt(cpu.machineInterrupts, 1),
        perRequest(cpu.machineInterrupts),
        pct(cpu.machineInterrupts / cpu.machineTotal),
      ],
      [
        'everything else on the machine',
        fmt(Math.max(0, cpu.machineBusy - accounted - cpu.machineInterrupts), 1),
        '',
        pct(Math.max(0, cpu.machineBusy - accounted - cpu.machineInterrupts) / cpu.machineTotal),
      ],
      ['machine busy', fmt(cpu.machineBusy, 1), perRequest(cpu.machineBusy), pct(cpu.machineBusy / cpu.machineTotal)],
      ['machine available (wall × cores)', fmt(cpu.machineTotal, 1), '', ''],
    ],
  };
  const expectedHashes = ledger.blocks * 2 ** ledger.difficulty;
  const ledgerTable: Table = {
    head: ['ledger, measured window', 'value'],
    rows: [
      ['blocks mined', fmt(ledger.blocks)],
      ['blocks per second', fmt(ledger.blocks / Math.max(0.001, m.windowSeconds), 1)],
      ['transactions recorded', fmt(ledger.transactions)],
      [
        'transactions per block: mean / p50 / max',
        `${fmt(ledger.txPerBlock.mean, 1)} / ${fmt(ledger.txPerBlock.p50)} / ${fmt(ledger.txPerBlock.max)}`,
      ],
      ['submission → block assembly: p50 / p99 ms', `${fmt(ledger.waitMs.p50, 1)} / ${fmt(ledger.waitMs.p99, 1)}`],
      ['difficulty (leading zero bits)', fmt(ledger.difficulty)],
      ['hashes searched (appender and helpers)', fmt(ledger.hashes)],
      ['hashes expected for that many blocks (blocks × 2^difficulty)', fmt(expectedHashes)],
    ],
  };
  const alonePerTx = (s: number) => (alone.transactions ? fmt((s * 1e6) / alone.transactions) : '–');
  const aloneTable: Table = {
    head: ['ledger alone (chain.tx.submit over NATS)', 'value'],
    rows: [
      ['transactions per second', fmt(alone.transactions / Math.max(0.001, alone.seconds))],
      ['latency p50 / p99 ms', `${fmt(alone.latency.p50)} / ${fmt(alone.latency.p99)}`],
      ['errors', fmt(alone.errors)],
      [
        'transactions per block: mean / p50 / max',
        `${fmt(alone.ledger.txPerBlock.mean, 1)} / ${fmt(alone.ledger.txPerBlock.p50)} / ${fmt(alone.ledger.txPerBlock.max)}`,
      ],
      ...alone.cpu.groups.map((g) => [`CPU µs per transaction: ${g.name}`, alonePerTx(g.seconds)]),
      ['machine busy', pct(alone.cpu.machineBusy / alone.cpu.machineTotal)],
    ],
  };
  const profileLines = m.profiles.flatMap((p) => [
    `#### ${p.name}`,
    '',
    markdownTable({
      head: ['module', 'share of busy samples'],
      rows: p.summary.modules.slice(0, 8).map((e) => [`\`${e.name}\``, pct(e.share)]),
    }),
    '',
    markdownTable({
      head: ['function', 'share of busy samples'],
      rows: p.summary.functions.slice(0, 10).map((e) => [`\`${e.name}\``, pct(e.share)]),
    }),
    '',
  ]);
  const markdown = [
    `Settings: ${CONNECTIONS} connections (one registration in flight each), ${m.load.durationSeconds} s measured ` +
      'after an uncounted warm-up, against a cluster started by the benchmark (one process per service, one ' +
      `chain-miner, the gateway) on a private nats-server and a fresh PostgreSQL database. ${chainSettings()}; ` +
      'rate limits raised so that none refuses a request (the limiters still run). The requests carry an ADMIN ' +
      'session token and cycle through ' +
      `${BODIES} distinct plant bodies. Load from autocannon in a process of its own.`,
    '',
    markdownTable(results),
    '',
    verdict,
    '',
    `Status codes: ${Object.entries(load.statusCodes)
      .map(([c, n]) => `${c}: ${fmt(n)}`)
      .join(', ')}.`,
    '',
    '### Where the time goes',
    '',
    'CPU time per process over the measured window (user + system, all threads, from `/proc`).',
    '',
    markdownTable(cpuTable),
    '',
    'What the ledger did in the same window: how the registrations were batched into blocks, how long a ' +
      'transaction waited for its block to be assembled (the batching delay plus the block being mined before ' +
      'it), and the proof-of-work effort.',
    '',
    markdownTable(ledgerTable),
    '',
    `Then the ledger alone, with the same ${CONNECTIONS} submissions in flight sent straight to \`chain.tx.submit\` ` +
      'over NATS (plant-registration payloads; the gateway and the plants service idle): the part of the path the ' +
      'ledger itself can carry.',
    '',
    markdownTable(aloneTable),
    '',
    ...(m.profiles.length > 0
      ? [
          'Main-thread self time from the CPU profiles (1 ms sampling) of the gateway, plants, the chain-miner and the two event consumers (transparency, notify).',
          '',
          ...profileLines,
        ]
      : []),
  ].join('\n');
  const text = [
    textTable(results),
    '',
    verdict.replaceAll('**', ''),
    '',
    textTable(cpuTable),
    '',
    textTable(ledgerTable),
    '',
    textTable(aloneTable),
    ...m.profiles.map(
      (p) =>
        `${p.name}: ${p.summary.modules
          .slice(0, 6)
          .map((e) => `${e.name} ${pct(e.share, 0)}`)
          .join(', ')}`,
    ),
  ].join('\n');
  return { text, markdown };
}

/** POST /api/plants/register through the whole cluster: every registration waits for its mined block. */
export const register: Benchmark = {
  name: 'register',
  title: 'POST /api/plants/register: registrations per second through the ledger',
  timeLimitSeconds: (s) => 300 + s.warmupSeconds + 2 * s.durationSeconds,
  async run(ctx) {
    const { nats, db, natsPids, pgPids, profileDir } = await startBenchInfra(ctx);
    const infra: Infra = { natsUrl: nats.url, databaseUrl: db.url, natsPids, pgPids };

    ctx.log('starting the cluster (one process per service, and the gateway)');
    const { cluster, stop } = await startPlatformCluster(ctx, infra, {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...(ctx.settings.profile ? profilerEnv(profileDir) : {}),
    });
    try {
      const measured = await measure(ctx, cluster, infra, profileDir);
      return report(measured, await measureLedgerOnly(ctx, cluster, infra));
    } finally {
      ctx.log('stopping the cluster');
      await stop();
    }
  },
};
