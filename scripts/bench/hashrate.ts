import { execFile } from 'node:child_process';
import { hash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createPowPool, type PowPool } from '@rootline/chain-miner/pow-pool';
import { createTestDatabase, startNatsServer, testAdminUrl } from '@rootline/testing';
import postgres from 'postgres';
import { canConnect } from '../src/cluster-host.js';
import { type BenchChild, spawnTs } from './lib/child.js';
import { fmt, markdownTable, pct, type Table, textTable } from './lib/markdown.js';
import { REPO_ROOT } from './lib/paths.js';
import { cpuOf } from './lib/proc-cpu.js';
import { sleep } from './lib/scope.js';
import type { BenchContext, Benchmark } from './lib/types.js';

/** Hashes per second of one mining thread the kernel should reach (about 5× the crypto.hash loop). */
const TARGET_RATE = 5e6;
/** A block header before its nonce, at its real length; difficulty 64 is never met, so nothing stops the search. */
const PREFIX = `12345|2026-01-01T00:00:00.000Z|${'0'.repeat(64)}|${'e'.repeat(64)}|64|`;
/** Far beyond any block the two instances could finish in the measured window. */
const INSTANCE_DIFFICULTY = '36';
const MINER_SCRIPT = join(REPO_ROOT, 'services', 'chain-miner', 'src', 'index.ts');

/**
 * The fastest raw loop node:crypto offers for this input (one-shot `crypto.hash` with a string in and hex
 * out): hashes per second of one core, on this thread.
 */
function rawLoopRate(seconds: number): Rate {
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  let sink = 0;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  while (performance.now() < deadline) {
    const end = n + 20_000;
    for (; n < end; n++) sink ^= hash('sha256', PREFIX + n).charCodeAt(0);
  }
  if (sink === -1) throw new Error('unreachable');
  return { wall: n / ((performance.now() - started) / 1000), cpu: n / processCpuSince(cpu0) };
}

/**
 * A rate per wall-clock second and per CPU-second of the thread(s) doing the work. On a machine shared with
 * other work the wall-clock rate falls with the share of the core this process gets; the CPU-second rate is
 * what one core would do if it were ours alone (`openssl speed` times itself the same way, in CPU time).
 */
interface Rate {
  wall: number;
  cpu: number;
}

/** CPU seconds (user + system, all threads) this process used since `before`. */
function processCpuSince(before: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1e6;
}

/**
 * OpenSSL's own SHA-256 rate on this CPU (`openssl speed -evp sha256`, one process, one core) for messages of
 * `bytes`, in bytes per second; undefined when the openssl command is missing.
 */
function opensslBytesPerSecond(bytes: number, seconds: number): Promise<number | undefined> {
  const args = ['speed', '-evp', 'sha256', '-seconds', String(seconds), '-bytes', String(bytes)];
  return new Promise((resolve) => {
    execFile('openssl', args, (err, stdout) => {
      // The last line reads `sha256   310776.56k`: thousands of bytes per second.
      const match = /^sha256\s+([\d.]+)k\s*$/m.exec(stdout ?? '');
      resolve(err || !match ? undefined : Number(match[1]) * 1000);
    });
  });
}

/** Hashes per second of the mining threads, searching a header whose difficulty is never met. */
async function poolRate(pool: PowPool, seconds: number): Promise<Rate> {
  const search = pool.search(PREFIX, 64, 0, 2 ** 52);
  await sleep(500); // threads up and running
  const h0 = pool.hashes();
  // The main thread sleeps meanwhile: the process's CPU time is the mining threads'.
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const hashes = pool.hashes() - h0;
  const rate = { wall: hashes / ((performance.now() - t0) / 1000), cpu: hashes / processCpuSince(cpu0) };
  pool.abort();
  await search;
  return rate;
}

/** User plus system CPU seconds of a process so far. */
const cpuSeconds = (pid: number) => {
  const c = cpuOf(pid);
  return c ? c.user + c.system : 0;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mhs = (r: number) => `${fmt(r / 1e6, 2)} M/s`;

interface InstanceRun {
  instances: number;
  rate: number;
  /** CPU seconds each chain-miner process used in the window. */
  cpu: number[];
  windowSeconds: number;
}

/** Hashes the appender recorded in its lease row (its own threads and what helpers reported). */
async function leaseHashes(sql: postgres.Sql): Promise<{ hashes: number; helpers: number } | undefined> {
  const [row] = await sql<{ hashes: string; helpers: number }[]>`select hashes, helpers from chain.appender_lease`;
  return row ? { hashes: Number(row.hashes), helpers: row.helpers } : undefined;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** Combined rate of the running chain-miner processes, read from the appender's lease row over the window. */
async function measureInstances(sql: postgres.Sql, miners: BenchChild[], seconds: number): Promise<InstanceRun> {
  const h0 = (await leaseHashes(sql))?.hashes ?? 0;
  const c0 = miners.map((m) => cpuSeconds(m.pid));
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const h1 = (await leaseHashes(sql))?.hashes ?? 0;
  const windowSeconds = (performance.now() - t0) / 1000;
  return {
    instances: miners.length,
    rate: (h1 - h0) / windowSeconds,
    cpu: miners.map((m, i) => cpuSeconds(m.pid) - (c0[i] ?? 0)),
    windowSeconds,
  };
}

async function runInstances(ctx: BenchContext, seconds: number): Promise<InstanceRun[]> {
  const { scope, settings } = ctx;
  const nats = await startNatsServer();
  scope.defer(() => nats.stop());
  const db = await createTestDatabase('rl_bench');
  scope.defer(() => db.drop());
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  scope.defer(() => sql.end());
  const env = {
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    CHAIN_DIFFICULTY: INSTANCE_DIFFICULTY,
    CHAIN_MINER_THREADS: '1',
    // Normal priority, as the in-process threads above: this measures capacity, not politeness.
    CHAIN_MINER_NICE: '0',
  };
  const spawnMiner = (name: string) => spawnTs(scope, { name, script: MINER_SCRIPT, env, verbose: settings.verbose });

  ctx.log('instances: one chain-miner process (one mining thread) mining a block it cannot finish');
  const first = spawnMiner('chain-miner-1');
  await waitFor('the first instance appends', async () => ((await leaseHashes(sql))?.hashes ?? 0) > 0);
  await sleep(2000);
  const one = await measureInstances(sql, [first], seconds);

  ctx.log('instances: a second process joins and searches nonce ranges of the same block');
  const second = spawnMiner('chain-miner-2');
  await waitFor('the second instance helps', async () => ((await leaseHashes(sql))?.helpers ?? 0) === 1);
  await sleep(2000);
  const two = await measureInstances(sql, [first, second], seconds);
  await Promise.all([second.stop(), first.stop()]);
  return [one, two];
}

/**
 * Item: mining hash rate per core against the raw node:crypto loop in the same run, the rate of all cores of
 * one instance, and the combined rate of two chain-miner processes mining one block.
 */
export const hashrate: Benchmark = {
  name: 'hashrate',
  title: 'Mining hash rate: per core against OpenSSL and raw node:crypto SHA-256, and two instances combined',
  timeLimitSeconds: (s) => 240 + (4 * s.rounds + 3) * (s.durationSeconds + 5),
  async run(ctx) {
    const { settings } = ctx;
    const admin = new URL(testAdminUrl());
    if (!(await canConnect(admin.hostname, Number(admin.port || 5432)))) {
      throw new Error(`PostgreSQL is unreachable at ${admin.host} (TEST_DATABASE_URL)`);
    }
    const seconds = settings.durationSeconds;
    const cores = availableParallelism();

    const single = createPowPool(1);
    const small: number[] = [];
    const large: number[] = [];
    const raw: Rate[] = [];
    const mined: Rate[] = [];
    try {
      for (let round = 1; round <= settings.rounds; round++) {
        ctx.log(
          `per core, round ${round}: openssl speed (64 B, 16 KB), raw loop, one mining thread, ${seconds} s each`,
        );
        const ssl64 = await opensslBytesPerSecond(64, seconds);
        const ssl16k = await opensslBytesPerSecond(16384, seconds);
        if (ssl64 !== undefined) small.push(ssl64 / 64);
        if (ssl16k !== undefined) large.push(ssl16k / 64);
        raw.push(rawLoopRate(seconds));
        mined.push(await poolRate(single, seconds));
      }
    } finally {
      await single.close();
    }
    ctx.log(`all cores: ${cores} mining threads, ${seconds} s`);
    const all = createPowPool(cores);
    let allRate: Rate;
    try {
      allRate = await poolRate(all, seconds);
    } finally {
      await all.close();
    }
    const [one, two] = await runInstances(ctx, seconds);

    const rawRate = median(raw.map((r) => r.wall));
    const rawCpu = median(raw.map((r) => r.cpu));
    const minedRate = median(mined.map((r) => r.wall));
    const minedCpu = median(mined.map((r) => r.cpu));
    const ceiling = median(large);
    const verdict =
      `One mining thread: **${mhs(minedCpu)} per CPU-second** (${mhs(minedRate)} wall clock), ` +
      `${fmt(minedCpu / rawCpu, 1)}× the crypto.hash loop` +
      (large.length > 0 ? ` and ${pct(minedCpu / ceiling)} of OpenSSL's compression rate (the midstate ceiling)` : '') +
      `; it ${minedCpu >= TARGET_RATE ? 'meets' : 'misses'} the target of ${mhs(TARGET_RATE)} per core.`;
    const opensslRow = (label: string, rates: number[]): string[] =>
      rates.length > 0
        ? [label, '', mhs(median(rates)), rates.map(mhs).join(', ')]
        : [label, 'openssl not found', '', ''];
    const rounds = (rates: Rate[]) => rates.map((r) => `${mhs(r.wall)} (${mhs(r.cpu)})`).join(', ');
    const perCore: Table = {
      head: ['per core', 'hashes/s wall clock (median)', 'per CPU-second (median)', 'rounds: wall (CPU)'],
      rows: [
        opensslRow('`openssl speed -evp sha256`, 64-byte messages (one-shot hashes, 2 compressions each)', small),
        opensslRow('`openssl speed -evp sha256`, 16 KB messages, in 64-byte compressions (midstate ceiling)', large),
        ['raw loop: `crypto.hash(sha256, prefix + n)` on the main thread', mhs(rawRate), mhs(rawCpu), rounds(raw)],
        [
          'one mining thread (worker, WebAssembly kernel, slices of 8,192 nonces, difficulty check)',
          mhs(minedRate),
          mhs(minedCpu),
          rounds(mined),
        ],
      ],
      right: [false, true, true, false],
    };
    /** Hashes per CPU-second of the miner processes (their main threads included). */
    const perCpu = (run: InstanceRun) => mhs((run.rate * run.windowSeconds) / run.cpu.reduce((a, c) => a + c, 0));
    const scaling: Table = {
      head: ['configuration', 'hashes/s', 'per mining thread', 'per CPU-second', 'CPU s of the miner processes'],
      rows: [
        [
          `one instance, ${cores} threads (all cores, in-process)`,
          mhs(allRate.wall),
          mhs(allRate.wall / cores),
          mhs(allRate.cpu),
          '',
        ],
        [
          'one chain-miner process, 1 thread',
          mhs(one!.rate),
          mhs(one!.rate),
          perCpu(one!),
          `${one!.cpu.map((c) => fmt(c, 1)).join(' + ')} in ${fmt(one!.windowSeconds, 1)} s`,
        ],
        [
          'two chain-miner processes, 1 thread each (appender + helper)',
          mhs(two!.rate),
          mhs(two!.rate / 2),
          perCpu(two!),
          `${two!.cpu.map((c) => fmt(c, 1)).join(' + ')} in ${fmt(two!.windowSeconds, 1)} s`,
        ],
      ],
      right: [false, true, true, true, true],
    };
    const combined = `Two instances combined: ${mhs(two!.rate)}, ${fmt(two!.rate / Math.max(1, one!.rate), 2)}× one instance.`;
    const markdown = [
      `Settings: ${seconds} s per measurement, ${settings.rounds} round(s) of the per-core set (OpenSSL 64 B, ` +
        'OpenSSL 16 KB, raw loop, one mining thread), median reported. OpenSSL runs in its own process ' +
        '(`openssl speed -evp sha256 -seconds S -bytes N`, one core, SHA instructions where the CPU has them); its ' +
        '16 KB rate divided by 64 is compressions per second, what one hash per nonce over a midstate could reach ' +
        'at best. OpenSSL times itself in CPU time; the other rows give both the wall-clock rate and the rate per ' +
        'CPU-second of the hashing thread (what a core of our own would do: on a shared machine the wall-clock ' +
        "rate falls with the share of the core the process gets). The header prefix has a real block header's length; the mining threads " +
        `search at a difficulty never met, so nothing stops them. The two-instance figures come from chain-miner ` +
        `processes (private nats-server, fresh database, \`CHAIN_DIFFICULTY=${INSTANCE_DIFFICULTY}\`, ` +
        '`CHAIN_MINER_THREADS=1`, `CHAIN_MINER_NICE=0`) mining the same block: the appender on its range, the helper on ranges it ' +
        "asks for; the rate is the hashes the appender records in its lease row (its own and the helper's reports).",
      '',
      markdownTable(perCore),
      '',
      verdict,
      '',
      markdownTable(scaling),
      '',
      combined,
    ].join('\n');
    const text = [textTable(perCore), '', verdict.replaceAll('**', ''), '', textTable(scaling), '', combined].join(
      '\n',
    );
    return { text, markdown };
  },
};
