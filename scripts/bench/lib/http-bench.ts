import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { api, freePort, TEST_JWT_SECRET } from '@rootline/testing';
import { type ClusterHandle, startCluster } from '../../src/cluster-host.js';
import { type BenchInfra, startBenchInfra } from './infra.js';
import type { LoadResult } from './load-protocol.js';
import { fmt } from './markdown.js';
import { REPO_ROOT } from './paths.js';
import type { CpuGroup } from './proc-cpu.js';
import { sleep } from './scope.js';
import type { BenchContext } from './types.js';

const run = promisify(execFile);

/** So high that the gateway's limiters (which still run on every request) never refuse one. */
export const NO_LIMIT = '100000000';

/** Stops the cluster; processes that do not exit within 20 s are killed, so a hung one cannot hold up the run. */
export async function stopCluster(cluster: ClusterHandle): Promise<void> {
  const timedOut = await Promise.race([cluster.stop().then(() => false), sleep(20_000).then(() => true)]);
  if (timedOut) await Promise.all([...cluster.processes.values()].map((p) => p.kill('SIGKILL')));
}

let built: Promise<void> | undefined;

/** `pnpm build` once per benchmark run, so the cluster runs the compiled code of the sources as they are. */
function buildOnce(ctx: BenchContext): Promise<void> {
  built ??= (async () => {
    ctx.log('building (pnpm build)');
    await run(process.execPath, [join(REPO_ROOT, 'scripts', 'launch', 'build.mjs')], { cwd: REPO_ROOT });
  })();
  return built;
}

/**
 * The whole platform as `pnpm start:cluster` runs it (one process per service, and the gateway) on the given
 * nats-server and database, logging warnings only and with the limiters set never to refuse; `env` adds to that.
 * It is stopped when the benchmark's scope closes, or earlier with the returned `stop`.
 */
export async function startPlatformCluster(
  ctx: BenchContext,
  urls: { natsUrl: string; databaseUrl: string },
  env: NodeJS.ProcessEnv = {},
  readyTimeoutMs?: number,
): Promise<{ cluster: ClusterHandle; stop: () => Promise<void> }> {
  await buildOnce(ctx);
  const cluster = await startCluster({
    natsUrl: urls.natsUrl,
    databaseUrl: urls.databaseUrl,
    port: await freePort(),
    jwtSecret: TEST_JWT_SECRET,
    env: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: NO_LIMIT,
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: NO_LIMIT,
      RATE_LIMIT_SESSION_PER_MINUTE: NO_LIMIT,
      RATE_LIMIT_PER_HOUR_PER_USER: NO_LIMIT,
      ...env,
    },
    output: ctx.settings.verbose ? 'inherit' : 'ignore',
    // What ships: the compiled JavaScript, built first.
    runtime: 'compiled',
    // Ten processes starting on a shared two-core machine can take minutes.
    readyTimeoutMs: readyTimeoutMs ?? 300_000,
  });
  return { cluster, stop: ctx.scope.defer(() => stopCluster(cluster)) };
}

/** A private nats-server, a fresh database and the platform on them: what a read benchmark measures through. */
export async function startBenchCluster(ctx: BenchContext): Promise<BenchInfra & { cluster: ClusterHandle }> {
  const infra = await startBenchInfra(ctx);
  ctx.log('starting the cluster (one process per service, and the gateway)');
  const { cluster } = await startPlatformCluster(ctx, { natsUrl: infra.nats.url, databaseUrl: infra.db.url });
  return { ...infra, cluster };
}

/**
 * A USER account's session token, through the API as any client would get one (the gateway checks the session on
 * every request, which is part of what is measured). `email` must be new to the database.
 */
export async function signIn(url: string, email: string): Promise<string> {
  const account = { email, password: 'correct horse battery staple' };
  const registered = await api(url, '/api/auth/register', { body: { ...account, name: 'Bench' } });
  if (registered.status !== 201) throw new Error(`account: ${registered.status} ${JSON.stringify(registered.body)}`);
  const signedIn = await api(url, '/api/auth/signin', { body: account });
  const token: unknown = signedIn.body?.data?.token;
  if (typeof token !== 'string') throw new Error(`sign-in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  return token;
}

/** The value at quantile `q` (0–1) of ascending values, by nearest rank; 0 when there are none. */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Latencies (ms) of requests sent one at a time. */
export interface Sequential {
  requests: number;
  /** The time the requests took, from the first sent to the last answered. */
  seconds: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  non2xx: number;
}

/**
 * Requests one at a time, over `paths` in turn, until `seconds` have passed or `requests` were sent (whichever comes
 * first), each timed with a sub-millisecond clock: the latency a lone client sees, which autocannon's millisecond
 * histogram cannot show.
 */
export async function sequential(
  url: string,
  paths: string[],
  headers: Record<string, string>,
  until: { seconds?: number; requests?: number },
): Promise<Sequential> {
  const times: number[] = [];
  let non2xx = 0;
  const start = performance.now();
  const end = start + (until.seconds ?? Number.POSITIVE_INFINITY) * 1000;
  for (let i = 0; performance.now() < end && i < (until.requests ?? Number.POSITIVE_INFINITY); i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}${paths[i % paths.length]}`, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status < 200 || res.status >= 300) non2xx += 1;
  }
  const seconds = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / Math.max(1, times.length);
  return {
    requests: times.length,
    seconds,
    p50: quantile(times, 0.5),
    p90: quantile(times, 0.9),
    p99: quantile(times, 0.99),
    mean,
    non2xx,
  };
}

/** Milliseconds as the latency tables show them: two decimals, since a lone request takes a few. */
export const ms = (v: number) => fmt(v, 2);

/** The pid of one process of the cluster (`gateway`, `plants`, …), or an error naming the one that is missing. */
export function clusterPid(cluster: ClusterHandle, name: string): number {
  const pid = cluster.processes.get(name)?.pid;
  if (pid === undefined) throw new Error(`the cluster has no ${name} process`);
  return pid;
}

/**
 * The rows of a CPU table over the platform, in this order: each named group of processes, every other process of
 * the cluster as one row (`other`), then nats-server and PostgreSQL's backends of the benchmark's database.
 */
export function platformCpuGroups(
  cluster: ClusterHandle,
  infra: Pick<BenchInfra, 'natsPids' | 'pgPids'>,
  named: { name: string; pids: number[] }[],
  rows: { other: string; nats: string; postgres: string },
): CpuGroup[] {
  const counted = new Set(named.flatMap((g) => g.pids));
  return [
    ...named.map((g) => ({ name: g.name, pids: () => g.pids })),
    {
      name: rows.other,
      pids: () => [...cluster.processes.values()].flatMap((p) => (p.pid && !counted.has(p.pid) ? [p.pid] : [])),
    },
    { name: rows.nats, pids: infra.natsPids },
    { name: rows.postgres, pids: infra.pgPids },
  ];
}

/** A row of a latency table for requests sent one at a time: requests, their rate, percentiles, non-2xx. */
export function sequentialRow(label: string, s: Sequential): string[] {
  return [
    label,
    fmt(s.requests),
    fmt(s.requests / s.seconds),
    ms(s.p50),
    ms(s.p90),
    ms(s.p99),
    ms(s.mean),
    fmt(s.non2xx),
  ];
}

/** A row of a latency table for a load of many connections, failures of every kind in the last column. */
export function loadRow(label: string, r: LoadResult): string[] {
  return [
    label,
    fmt(r.requests),
    fmt(r.requestsPerSecond),
    ms(r.latency.p50),
    ms(r.latency.p90),
    ms(r.latency.p99),
    ms(r.latency.mean),
    fmt(r.non2xx + r.errors + r.timeouts),
  ];
}
