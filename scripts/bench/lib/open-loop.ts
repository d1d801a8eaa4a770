import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTs } from './child.js';
import type { OpenLoopMessage, OpenLoopOptions, OpenLoopStepResult } from './open-loop-protocol.js';
import type { Scope } from './scope.js';

export type { OpenLoopOptions, OpenLoopStep, OpenLoopStepResult } from './open-loop-protocol.js';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), 'open-loop-worker.ts');

/** Called at the edges of each counted step; `pid` is the load generator's. */
export interface OpenLoopHooks {
  onStepStart?(index: number, pid: number): void;
  onStepEnd?(index: number, result: OpenLoopStepResult): void;
}

/**
 * Sends stepped open-loop load from a separate process. Resolves to the counted steps' figures, in order; it
 * stops stepping up after a step that had errors or a p99 above `giveUpP99Ms`.
 */
export async function runOpenLoop(
  scope: Scope,
  opts: OpenLoopOptions,
  hooks: OpenLoopHooks = {},
): Promise<OpenLoopStepResult[]> {
  const worker = spawnTs(scope, { name: 'open-loop', script: WORKER, ipc: true });
  const planned = opts.steps.reduce((s, step) => s + step.seconds + opts.pauseSeconds + opts.timeoutSeconds, 0);
  const limitMs = (planned + 60) * 1000;
  const results: OpenLoopStepResult[] = [];
  try {
    return await new Promise<OpenLoopStepResult[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the open-loop run took over ${limitMs / 1000} s`)), limitMs);
      const fail = (err: Error) => {
        clearTimeout(timer);
        reject(err);
      };
      worker.process.on('message', (message: OpenLoopMessage) => {
        if (message.type === 'step-start') hooks.onStepStart?.(message.index, worker.pid);
        else if (message.type === 'step-end') {
          hooks.onStepEnd?.(message.index, message.result);
          results.push(message.result);
        } else if (message.type === 'failed') fail(new Error(`open-loop generator failed: ${message.message}`));
        else {
          clearTimeout(timer);
          resolve(results);
        }
      });
      worker.process.once('exit', (code, signal) => fail(new Error(`open-loop generator exited (${code ?? signal})`)));
      worker.process.once('error', fail);
      worker.process.send(opts);
    });
  } finally {
    await worker.stop();
  }
}
