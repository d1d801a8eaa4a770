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

const TARGET_RATIO = 0.8;
/** A block header before its nonce, at its real length; difficulty 64 is never met, so nothing stops the search. */
const PREFIX = `12345|2026-01-01T00:00:00.000Z|${'0'.repeat(64)}|${'e'.repeat(64)}|64|`;
/** Far beyond any block the two instances could finish in the measured window. */
const INSTANCE_DIFFICULTY = '36';
const MINER_SCRIPT = join(REPO_ROOT, 'services', 'chain-miner', 'src', 'index.ts');

/**
 * The fastest raw loop node:crypto offers for this input (one-shot `crypto.hash` with a string in and hex
 * out): hashes per second of one core, on this thread.
 */
function rawLoopRate(seconds: number): number {
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  let sink = 0;
  const started = performance.now();
  while (performance.now() < deadline) {
    const end = n + 20_000;
    for (; n < end; n++) sink ^= hash('sha256', PREFIX + n).charCodeAt(0);
  }
  if (sink === -1) throw new Error('unreachable');
  return n / ((performance.now() - started) / 1000);
}

/** Hashes per second of the mining threads, searching a header whose difficulty is never met. */
async function poolRate(pool: PowPool, seconds: number): Promise<number> {
  const search = pool.search(PREFIX, 64, 0, 2 ** 52);
  await sleep(500); // threads up and running
  const h0 = pool.hashes();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const rate = (pool.hashes() - h0) / ((performance.now() - t0) / 1000);
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
  title: 'Mining hash rate: per core against raw node:crypto SHA-256, and two instances combined',
  timeLimitSeconds: (s) => 240 + (2 * s.rounds + 3) * (s.durationSeconds + 5),
  async run(ctx) {
    const { settings } = ctx;
    const admin = new URL(testAdminUrl());
    if (!(await canConnect(admin.hostname, Number(admin.port || 5432)))) {
      throw new Error(`PostgreSQL is unreachable at ${admin.host} (TEST_DATABASE_URL)`);
    }
    const seconds = settings.durationSeconds;
    const cores = availableParallelism();

    const single = createPowPool(1);
    const raw: number[] = [];
    const mined: number[] = [];
    try {
      for (let round = 1; round <= settings.rounds; round++) {
        ctx.log(`per core, round ${round}: raw loop ${seconds} s, then one mining thread ${seconds} s`);
        raw.push(rawLoopRate(seconds));
        mined.push(await poolRate(single, seconds));
      }
    } finally {
      await single.close();
    }
    ctx.log(`all cores: ${cores} mining threads, ${seconds} s`);
    const all = createPowPool(cores);
    let allRate: number;
    try {
      allRate = await poolRate(all, seconds);
    } finally {
      await all.close();
    }
    const [one, two] = await runInstances(ctx, seconds);

    const rawRate = median(raw);
    const minedRate = median(mined);
    const ratio = minedRate / rawRate;
    const verdict =
      `Mining thread / raw loop, per core: **${pct(ratio)}**, which ${ratio >= TARGET_RATIO ? 'meets' : 'misses'} ` +
      `the target of ${pct(TARGET_RATIO, 0)}.`;
    const perCore: Table = {
      head: ['per core', 'hashes/s (median)', 'rounds'],
      rows: [
        ['raw loop: `crypto.hash(sha256, prefix + n)` on the main thread', mhs(rawRate), raw.map(mhs).join(', ')],
        [
          'one mining thread (worker, slices of 4,096 nonces, difficulty check)',
          mhs(minedRate),
          mined.map(mhs).join(', '),
        ],
      ],
      right: [false, true, false],
    };
    const scaling: Table = {
      head: ['configuration', 'hashes/s', 'per mining thread', 'CPU s of the miner processes'],
      rows: [
        [`one instance, ${cores} threads (all cores, in-process)`, mhs(allRate), mhs(allRate / cores), ''],
        [
          'one chain-miner process, 1 thread',
          mhs(one!.rate),
          mhs(one!.rate),
          `${one!.cpu.map((c) => fmt(c, 1)).join(' + ')} in ${fmt(one!.windowSeconds, 1)} s`,
        ],
        [
          'two chain-miner processes, 1 thread each (appender + helper)',
          mhs(two!.rate),
          mhs(two!.rate / 2),
          `${two!.cpu.map((c) => fmt(c, 1)).join(' + ')} in ${fmt(two!.windowSeconds, 1)} s`,
        ],
      ],
      right: [false, true, true, true],
    };
    const combined = `Two instances combined: ${mhs(two!.rate)}, ${fmt(two!.rate / Math.max(1, one!.rate), 2)}× one instance.`;
    const markdown = [
      `Settings: ${seconds} s per measurement, ${settings.rounds} round(s) of the per-core pair (raw loop, then one ` +
        `mining thread), median reported. The header prefix has a real block header's length; the mining threads ` +
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
