import type { AgentState } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { type Clock, createPeriodic, type Logger, type ServiceMetrics } from '@rootline/host';
import { claimScan, finishScan, readAgent, releaseScan } from './db/lineage-agent.repo.js';
import { linkBatch } from './db/lineage-links.repo.js';
import { detectAnomalies, type Finding } from './domain/anomalies.js';
import { isScanDue } from './domain/lineage-agent.js';

/** Plants read per keyset page of a scan. */
const BATCH = 2000;
/** Findings kept per scan; `anomaliesFound` counts the kept ones. */
export const MAX_FINDINGS = 10_000;
/** A claim older than this belongs to a replica that died mid-scan and is taken over. */
const CLAIM_TIMEOUT_MS = 10 * 60 * 1000;

export interface LineageAgentRunner {
  start(): void;
  /** Checks at once whether a scan is due (after start or resume). */
  wake(): void;
  /** Stops checking and waits for a scan in progress. */
  stop(): Promise<void>;
}

/**
 * The lineage agent's background work in one replica: every `pollMs` it reads the shared state and, when a scan is
 * due, claims it (one replica scans at a time), reads every parent–child link in keyset pages, applies the anomaly
 * rules and replaces the stored findings. A scan in progress completes even if the agent is paused or stopped.
 */
export function createLineageAgentRunner(deps: {
  db: Db;
  log: Logger;
  clock: Clock;
  intervalMs: number;
  pollMs: number;
  /** Where each scan is observed (`job_run_duration_seconds{task="lineage-agent"}`). */
  metrics?: ServiceMetrics;
}): LineageAgentRunner {
  const { db, log, clock } = deps;
  async function scan(): Promise<Finding[]> {
    const findings: Finding[] = [];
    let after = '';
    for (;;) {
      const links = await linkBatch(db, after, BATCH);
      for (const { plant, parent } of links) {
        for (const f of detectAnomalies(plant, parent)) if (findings.length < MAX_FINDINGS) findings.push(f);
      }
      if (links.length < BATCH) return findings;
      after = links[links.length - 1]!.plant.id;
    }
  }

  async function tick(): Promise<void> {
    const agent = await readAgent(db);
    const now = clock.now();
    if (!isScanDue(agent.state as AgentState, new Date(agent.nextRunAt), now)) return;
    if (!(await claimScan(db, now, new Date(now.getTime() - CLAIM_TIMEOUT_MS)))) return;
    const started = performance.now();
    try {
      const findings = await scan();
      const finishedAt = clock.now();
      await finishScan(db, findings, {
        finishedAt,
        durationMs: Math.round(performance.now() - started),
        nextRunAt: new Date(finishedAt.getTime() + deps.intervalMs),
      });
      log.info({ anomalies: findings.length, ms: Math.round(performance.now() - started) }, 'lineage scan finished');
      deps.metrics?.run('lineage-agent', 'ok', (performance.now() - started) / 1000);
    } catch (err) {
      deps.metrics?.run('lineage-agent', 'error', (performance.now() - started) / 1000);
      await releaseScan(db).catch(() => {});
      throw err;
    }
  }

  return createPeriodic({ everyMs: deps.pollMs, log, what: 'lineage scan', run: tick });
}
