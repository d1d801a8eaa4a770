import { type ChildProcess, spawn } from 'node:child_process';
import { SCRIPTS_DIR } from './paths.js';
import type { Scope } from './scope.js';

/** A Node process running one TypeScript file of the benchmarks. */
export interface BenchChild {
  readonly name: string;
  readonly pid: number;
  readonly process: ChildProcess;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  /** Absolute path of the TypeScript entry point. */
  script: string;
  env?: NodeJS.ProcessEnv;
  /** Open an IPC channel (for `process.send`). */
  ipc?: boolean;
  /** Forward the child's stdout and stderr, prefixed with its name (default: only stderr). */
  verbose?: boolean;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends `signal`, then SIGKILL after `graceMs`; resolves once the process has exited. */
export function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  return new Promise<void>((resolve) => {
    if (hasExited(child)) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `node --conditions=development --import tsx <script>` (workspace packages from source) from the scripts package and registers its stop in `scope`, so it
 * cannot outlive the benchmark.
 */
export function spawnTs(scope: Scope, opts: SpawnOptions): BenchChild {
  const stdio: ('ignore' | 'pipe' | 'ipc')[] = ['ignore', 'pipe', 'pipe'];
  if (opts.ipc) stdio.push('ipc');
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', opts.script], {
    cwd: SCRIPTS_DIR,
    env: { ...process.env, ...opts.env },
    stdio,
  });
  if (child.pid === undefined) throw new Error(`${opts.name} could not be started`);
  const prefix = `[${opts.name}] `;
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line) process.stderr.write(`${prefix}${line}\n`);
  };
  if (opts.verbose) child.stdout?.on('data', forward);
  else child.stdout?.resume();
  child.stderr?.on('data', forward);
  const stop = scope.defer(() => stopProcess(child));
  return {
    name: opts.name,
    pid: child.pid,
    process: child,
    stop: (graceMs) => (graceMs === undefined ? stop() : stopProcess(child, graceMs).then(stop)),
  };
}
