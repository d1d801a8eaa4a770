import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { createPeriodic } from './periodic.js';

const log = createLogger('periodic-test', 'silent');

/** A run that waits until released, counting starts. */
function gatedRun() {
  let starts = 0;
  let release: () => void = () => {};
  return {
    get starts() {
      return starts;
    },
    release: () => release(),
    run: () =>
      new Promise<void>((resolve) => {
        starts += 1;
        release = resolve;
      }),
  };
}

describe('createPeriodic', () => {
  it('runs once at start and never twice at the same time; wakes during a run make one more run', async () => {
    const g = gatedRun();
    const p = createPeriodic({ everyMs: 60_000, log, what: 'test run', run: g.run });
    p.start();
    expect(g.starts).toBe(1);
    p.wake();
    p.wake();
    expect(g.starts).toBe(1);
    g.release();
    await expect.poll(() => g.starts).toBe(2);
    g.release();
    const stopped = p.stop();
    await stopped;
    expect(g.starts).toBe(2);
  });

  it('logs a failed run and goes on at the next wake; does nothing before start or after stop', async () => {
    const errors: string[] = [];
    const failing = { ...log, error: (_: unknown, msg: string) => errors.push(msg) } as unknown as typeof log;
    let calls = 0;
    const p = createPeriodic({
      everyMs: 60_000,
      log: failing,
      what: 'sweep',
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
      },
    });
    p.wake();
    expect(calls).toBe(0);
    p.start();
    await expect.poll(() => errors).toEqual(['sweep failed']);
    p.wake();
    await expect.poll(() => calls).toBe(2);
    await p.stop();
    p.wake();
    expect(calls).toBe(2);
  });

  it('runs again every interval', async () => {
    let calls = 0;
    const run = async () => {
      calls += 1;
    };
    const p = createPeriodic({ everyMs: 10, log, what: 'tick', run });
    p.start();
    await expect.poll(() => calls, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    await p.stop();
  });
});
