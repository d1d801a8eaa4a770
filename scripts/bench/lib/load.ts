import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTs } from './child.js';
import type { LoadMessage, LoadOptions, LoadResult } from './load-protocol.js';
import type { Scope } from './scope.js';

export type { LoadOptions, LoadResult } from './load-protocol.js';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), 'load-worker.ts');

/** Called at the edges of the measured window (after the warm-up); `pid` is the load generator's. */
export interface LoadHooks {
  onMeasureStart?(pid: number): void;
  onMeasureEnd?(pid: number): void;
}

/**
 * Sends HTTP load with autocannon from a separate process: a warm-up that is not counted, then the
 * measured run. Resolves to the measured run's figures; the worker is stopped either way.
 */
export async function runLoad(scope: Scope, opts: LoadOptions, hooks: LoadHooks = {}): Promise<LoadResult> {
  const worker = spawnTs(scope, { name: 'load', script: WORKER, ipc: true });
  const limitMs = (opts.warmupSeconds + opts.durationSeconds + 60) * 1000;
  try {
    return await new Promise<LoadResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the load run took over ${limitMs / 1000} s`)), limitMs);
      const fail = (err: Error) => {
        clearTimeout(timer);
        reject(err);
      };
      worker.process.on('message', (message: LoadMessage) => {
        if (message.type === 'measuring') hooks.onMeasureStart?.(worker.pid);
        else if (message.type === 'failed') fail(new Error(`load generator failed: ${message.message}`));
        else {
          hooks.onMeasureEnd?.(worker.pid);
          clearTimeout(timer);
          resolve(message.result);
        }
      });
      worker.process.once('exit', (code, signal) => fail(new Error(`load generator exited (${code ?? signal})`)));
      worker.process.once('error', fail);
      worker.process.send(opts);
    });
  } finally {
    await worker.stop();
  }
}
