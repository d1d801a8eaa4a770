import type { AgentState } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { isAgentCycleDue } from '@rootline/domain';
import type { Clock, Logger, ServiceMetrics } from '@rootline/host';
import { claimCycle, finishCycle, readTracker, releaseCycle, scanBatch } from './db/tracker.repo.js';
import { detectPatterns, type Pattern } from './domain/patterns.js';

/** Events read per keyset page of a cycle. */
const BATCH = 2000;
/** Patterns kept per cycle. */
export const MAX_PATTERNS = 10_000;
/** A claim older than this belongs to a replica that died mid-cycle and is taken over. */
const CLAIM_TIMEOUT_MS = 10 * 60 * 1000;

export interface TrackerRunner {
  start(): void;
  /** Checks at once whether a scheduled cycle is due (after start or resume). */
  wake(): void;
  /** One cycle now, whatever the state (`run`); false when another replica is in a cycle. */
  runNow(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * The transport tracker's background work in one replica, on the agents' shared state machine: every `pollMs` it
 * reads the shared state and, when a cycle is due, claims it (one replica at a time), reads every event in force in
 * keyset pages, applies the pattern rules and replaces the stored patterns.
 */
export function createTrackerRunner(deps: {
  db: Db;
  log: Logger;
  clock: Clock;
  intervalMs: number;
  pollMs: number;
  /** Where each cycle is observed (`job_run_duration_seconds{task="transport-tracker"}`). */
  metrics?: ServiceMetrics;
}): TrackerRunner {
  const { db, log, clock } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  async function cycle(): Promise<void> {
    const started = performance.now();
    try {
      const patterns: Pattern[] = [];
      let scanned = 0;
      let after = '';
      for (;;) {
        const batch = await scanBatch(db, after, BATCH);
        scanned += batch.length;
        for (const e of batch) for (const p of detectPatterns(e)) if (patterns.length < MAX_PATTERNS) patterns.push(p);
        if (batch.length < BATCH) break;
        after = batch[batch.length - 1]!.id;
      }
      const finishedAt = clock.now();
      const durationMs = Math.round(performance.now() - started);
      await finishCycle(db, patterns, {
        finishedAt,
        durationMs,
        nextRunAt: new Date(finishedAt.getTime() + deps.intervalMs),
        eventsScanned: scanned,
      });
      log.info({ events: scanned, patterns: patterns.length, ms: durationMs }, 'transport tracker cycle finished');
      deps.metrics?.run('transport-tracker', 'ok', durationMs / 1000);
    } catch (err) {
      deps.metrics?.run('transport-tracker', 'error', (performance.now() - started) / 1000);
      await releaseCycle(db).catch(() => {});
      throw err;
    }
  }

  async function tick(): Promise<void> {
    const agent = await readTracker(db);
    const now = clock.now();
    if (!isAgentCycleDue(agent.state as AgentState, new Date(agent.nextRunAt), now)) return;
    if (!(await claimCycle(db, now, new Date(now.getTime() - CLAIM_TIMEOUT_MS), false))) return;
    await cycle();
  }

  function wake(): void {
    if (!timer || running) return;
    running = tick()
      .catch((err: unknown) => log.error({ err }, 'transport tracker cycle failed'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(wake, deps.pollMs);
      timer.unref();
      wake();
    },
    wake,
    async runNow() {
      await running;
      const now = clock.now();
      if (!(await claimCycle(db, now, new Date(now.getTime() - CLAIM_TIMEOUT_MS), true))) return false;
      await cycle();
      return true;
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
