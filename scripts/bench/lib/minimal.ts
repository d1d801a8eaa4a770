import { fileURLToPath } from 'node:url';
import { freePort } from '@rootline/testing';
import { spawnTs } from './child.js';
import { profilerEnv } from './profile.js';
import { sleep } from './scope.js';
import type { BenchContext } from './types.js';

const MINIMAL_GATEWAY = fileURLToPath(new URL('../minimal/gateway.ts', import.meta.url));
const MINIMAL_PLANTS = fileURLToPath(new URL('../minimal/plants.ts', import.meta.url));

/** Where the minimal pipeline reads and talks, and whether its processes run a CPU profiler. */
export interface MinimalOptions {
  natsUrl: string;
  databaseUrl: string;
  /** Connections of the bare subscriber's pool: the platform's services' default, so both read alike. */
  poolMax: number;
  /** The profiler's output directory when `ctx.settings.profile` is on. */
  profileDir: string;
  /** A path that answers 200 once the pipeline is up (a plant that exists). */
  readyPath: string;
  headers: Record<string, string>;
}

/** The minimal pipeline, running: its address and its two processes. */
export interface MinimalPipeline {
  url: string;
  frontPid: number;
  readerPid: number;
  stop(): Promise<void>;
}

/** Polls a URL until it answers 200. */
export async function waitFor200(url: string, headers: Record<string, string>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { headers });
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms: ${last}`);
}

/**
 * The minimal pipeline (`scripts/bench/minimal`): a bare Fastify server and a bare NATS subscriber reading with
 * postgres.js, the floor a request through the platform is compared against. It answers `GET /plants/:id` and
 * `GET /plants/nearby?lat=&lon=`; both processes stop with the benchmark's scope.
 */
export async function startMinimalPipeline(ctx: BenchContext, opts: MinimalOptions): Promise<MinimalPipeline> {
  const { scope, settings } = ctx;
  ctx.log('minimal: starting the bare Fastify server and the bare NATS subscriber');
  const port = await freePort();
  const profiling = settings.profile ? profilerEnv(opts.profileDir) : {};
  const reader = spawnTs(scope, {
    name: 'minimal-plants',
    script: MINIMAL_PLANTS,
    env: { ...profiling, NATS_URL: opts.natsUrl, DATABASE_URL: opts.databaseUrl, POOL_MAX: String(opts.poolMax) },
    verbose: settings.verbose,
  });
  const front = spawnTs(scope, {
    name: 'minimal-gateway',
    script: MINIMAL_GATEWAY,
    env: { ...profiling, NATS_URL: opts.natsUrl, PORT: String(port) },
    verbose: settings.verbose,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(`${url}${opts.readyPath}`, opts.headers, 30_000);
  return {
    url,
    frontPid: front.pid,
    readerPid: reader.pid,
    stop: async () => {
      await Promise.all([front.stop(), reader.stop()]);
    },
  };
}
