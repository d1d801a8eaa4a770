import { TRANSPORT_TRACKER_ACTIONS, type TransportTrackerAction } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { type Agent, type Clock, createAgent, type Logger, type ServiceMetrics } from '@rootline/host';
import { agents } from '../db/schema.js';
import { replacePatterns, scanBatch } from '../db/tracker.repo.js';
import { detectPatterns, type Pattern } from '../domain/patterns.js';

/** Events read per keyset page of a cycle. */
const BATCH = 2000;
/** Patterns kept per cycle. */
export const MAX_PATTERNS = 10_000;

/** The transport tracker, as `createTracker` makes it. */
export type Tracker = Agent<TransportTrackerAction>;

/**
 * The transport tracker (`createAgent`): while it runs, one replica at a time reads every event in force in keyset
 * pages every interval, applies the pattern rules and replaces the stored patterns; `run` does one cycle at once
 * whatever the state.
 */
export function createTracker(deps: {
  db: Db;
  log: Logger;
  clock: Clock;
  intervalMs: number;
  pollMs: number;
  /** Where each cycle is observed (`job_run_duration_seconds{task="transport-tracker"}`). */
  metrics?: ServiceMetrics;
}): Tracker {
  const { db } = deps;
  return createAgent({
    db,
    table: agents,
    agent: 'transport-tracker',
    name: 'transport tracker',
    job: 'transport-tracker',
    actions: TRANSPORT_TRACKER_ACTIONS,
    log: deps.log,
    clock: deps.clock,
    intervalMs: deps.intervalMs,
    pollMs: deps.pollMs,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    async cycle() {
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
      return {
        counts: { eventsScanned: scanned, patternsFound: patterns.length },
        save: (tx, at) => replacePatterns(tx, patterns, at),
      };
    },
  });
}
