import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES } from '@rootline/contracts';
import postgres from 'postgres';
import { serviceNodeFlags } from './node-flags.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ClusterOptions {
  natsUrl: string;
  databaseUrl: string;
  port: number;
  jwtSecret: string;
  /** Extra environment for every process (LOG_LEVEL, CHAIN_DIFFICULTY, …). */
  env?: NodeJS.ProcessEnv;
  /** Where process output goes; default: prefixed onto this process's stdout. */
  output?: 'inherit' | 'ignore';
  /** Processes of the chain-miner to start (it scales on its own). */
  miners?: number;
  /** How long to wait for every service to be ready (default 60 s; a loaded machine may need more). */
  readyTimeoutMs?: number;
  /**
   * First port of the services' metrics listeners (METRICS_PORT): each service process takes the next one, in
   * the order of SERVICE_NAMES. Unset: the listeners are off, since the processes share this machine's ports.
   */
  metricsBasePort?: number;
  /** Aborted during start-up (Ctrl-C): the processes started so far are stopped and `startCluster` rejects. */
  signal?: AbortSignal;
  /**
   * What each service process runs: its compiled JavaScript (what ships; `pnpm build` first) or its TypeScript
   * sources under tsx. Default: compiled when this runner is compiled itself, sources when it runs under tsx.
   */
  runtime?: ServiceRuntime;
}

export type ServiceRuntime = 'compiled' | 'source';

export interface ClusterProcess {
  readonly name: string;
  readonly pid: number | undefined;
  /** Times the supervisor started the process again after it died on its own. */
  readonly restarts: number;
  /** Sends a signal and resolves once the process has exited; it stays down until `restart()`. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the process again with the same settings, and supervises it again. */
  restart(): void;
}

export interface ClusterHandle {
  url: string;
  processes: Map<string, ClusterProcess>;
  stop(): Promise<void>;
}

/** Resolves when a TCP connection to host:port succeeds, rejects after the timeout. */
export function canConnect(host: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Checks that NATS and PostgreSQL answer, naming whichever does not, and creates the database if it is
 * missing (so a first run needs no manual step).
 */
export async function preflight(natsUrl: string, databaseUrl: string): Promise<void> {
  const nats = new URL(natsUrl);
  if (!(await canConnect(nats.hostname, Number(nats.port || 4222)))) {
    throw new Error(`NATS is unreachable at ${nats.host} (NATS_URL); start nats-server with JetStream (-js)`);
  }
  const db = new URL(databaseUrl);
  if (!(await canConnect(db.hostname, Number(db.port || 5432)))) {
    throw new Error(`PostgreSQL is unreachable at ${db.host} (DATABASE_URL)`);
  }
  const name = decodeURIComponent(db.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`SELECT 1 FROM pg_database WHERE datname = ${name}`;
    if (rows.length === 0) await sql.unsafe(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (err) {
    throw new Error(`PostgreSQL at ${db.host} refused the connection: ${(err as Error).message}`);
  } finally {
    await sql.end();
  }
}

/**
 * How a service process starts: compiled JavaScript under plain node when this runner is itself compiled
 * (`pnpm start:cluster`), TypeScript sources under tsx when it runs from source (`pnpm dev:cluster`, tests).
 */
const SERVICE_ENTRY = {
  compiled: ['dist/index.js'],
  source: ['--conditions=development', '--import', 'tsx', 'src/index.ts'],
} as const;
const DEFAULT_RUNTIME: ServiceRuntime = import.meta.url.endsWith('.js') ? 'compiled' : 'source';

/** Back-off before restarting a process that died: doubles per crash in a row, capped. */
export function restartDelayMs(crashesInARow: number, minMs = 250, maxMs = 10_000): number {
  return Math.min(minMs * 2 ** Math.max(0, crashesInARow - 1), maxMs);
}

/** A process that ran this long before dying counts as having started well: its back-off starts over. */
const STABLE_AFTER_MS = 30_000;

/**
 * Starts one service process and supervises it: when it exits without being asked to (a crash, a kill -9,
 * an out-of-memory kill), it is started again after a back-off that grows while it keeps crashing.
 */
function startProcess(
  name: string,
  pkgDir: string,
  env: NodeJS.ProcessEnv,
  output: 'inherit' | 'ignore',
  runtime: ServiceRuntime,
): ClusterProcess {
  let child: ChildProcess;
  let supervised = true;
  let crashes = 0;
  let restarts = 0;
  let startedAt = 0;
  let pending: NodeJS.Timeout | undefined;
  const say = (line: string) => {
    if (output === 'inherit') process.stdout.write(`[${name}] ${line}\n`);
  };
  const launch = () => {
    pending = undefined;
    startedAt = performance.now();
    child = spawn(process.execPath, [...serviceNodeFlags(basename(pkgDir)), ...SERVICE_ENTRY[runtime]], {
      cwd: pkgDir,
      env,
      // A process group of its own: Ctrl-C in the terminal reaches the runner only, which stops the processes in
      // order (the gateway first) rather than all at once.
      detached: true,
      stdio: output === 'inherit' ? ['ignore', 'pipe', 'pipe'] : 'ignore',
    });
    if (output === 'inherit') {
      const prefix = `[${name}] `;
      const forward = (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) if (line) process.stdout.write(`${prefix}${line}\n`);
      };
      child.stdout?.on('data', forward);
      child.stderr?.on('data', forward);
    }
    child.once('exit', (code, signal) => {
      if (!supervised) return;
      crashes = performance.now() - startedAt >= STABLE_AFTER_MS ? 1 : crashes + 1;
      const delay = restartDelayMs(crashes);
      say(`exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      pending = setTimeout(() => {
        restarts += 1;
        launch();
      }, delay);
    });
  };
  const running = () => child.exitCode === null && child.signalCode === null;
  launch();
  return {
    name,
    get pid() {
      return child.pid;
    },
    get restarts() {
      return restarts;
    },
    kill: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        // Asked to stop: no restart until restart() is called.
        supervised = false;
        clearTimeout(pending);
        pending = undefined;
        if (!running()) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
    restart: () => {
      supervised = true;
      crashes = 0;
      if (!running() && !pending) launch();
    },
  };
}

/** Polls the gateway's readiness probe until it answers 200. */
export async function waitReady(url: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    try {
      const res = await fetch(`${url}/api/health/ready`);
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the cluster was not ready after ${timeoutMs} ms: ${last}`);
}

/**
 * Cluster mode: one process per service (any number of chain-miners) plus the gateway, against NATS and
 * PostgreSQL. Resolves once the gateway reports every service ready.
 */
export async function startCluster(opts: ClusterOptions): Promise<ClusterHandle> {
  await preflight(opts.natsUrl, opts.databaseUrl);
  const env = {
    // Links (emails, QR codes) point at this runner's gateway unless the caller names the public address.
    PUBLIC_URL: `http://127.0.0.1:${opts.port}`,
    ...process.env,
    ...opts.env,
    NATS_URL: opts.natsUrl,
    DATABASE_URL: opts.databaseUrl,
  };
  const output = opts.output ?? 'inherit';
  const runtime = opts.runtime ?? DEFAULT_RUNTIME;
  const processes = new Map<string, ClusterProcess>();
  let metricsPort = opts.metricsBasePort;
  // By name only: the runner does not load the services' code, its children do.
  for (const name of SERVICE_NAMES) {
    const count = name === 'chain-miner' ? (opts.miners ?? 1) : 1;
    for (let i = 0; i < count; i++) {
      const key = count > 1 ? `${name}-${i + 1}` : name;
      const METRICS_PORT = metricsPort === undefined ? '0' : String(metricsPort++);
      // notify derives the key of its unsubscribe links from JWT_SECRET unless UNSUBSCRIBE_SECRET is set.
      const own = name === 'notify' ? { JWT_SECRET: opts.jwtSecret, ...env, METRICS_PORT } : { ...env, METRICS_PORT };
      processes.set(key, startProcess(key, join(ROOT, 'services', name), own, output, runtime));
    }
  }
  const gatewayEnv = { ...env, PORT: String(opts.port), JWT_SECRET: opts.jwtSecret };
  processes.set('gateway', startProcess('gateway', join(ROOT, 'services', 'gateway'), gatewayEnv, output, runtime));
  const url = `http://127.0.0.1:${opts.port}`;
  const stop = async () => {
    // Gateway first, so no new work reaches services that are shutting down.
    await processes.get('gateway')?.kill('SIGTERM');
    await Promise.all([...processes.values()].map((p) => p.kill('SIGTERM')));
  };
  try {
    await waitReady(url, opts.readyTimeoutMs ?? 60_000, opts.signal);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, processes, stop };
}
