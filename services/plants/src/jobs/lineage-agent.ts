import { LINEAGE_AGENT_ACTIONS, type LineageAgentAction } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { type Agent, type Clock, createAgent, type Logger, type ServiceMetrics } from '@rootline/host';
import { replaceAnomalies } from '../db/lineage-agent.repo.js';
import { linkBatch } from '../db/lineage-links.repo.js';
import { agents } from '../db/schema.js';
import { detectAnomalies, type Finding } from '../domain/anomalies.js';

/** Plants read per keyset page of a scan. */
const BATCH = 2000;
/** Findings kept per scan; `anomaliesFound` counts the kept ones. */
export const MAX_FINDINGS = 10_000;

/** The lineage agent, as `createLineageAgent` makes it. */
export type LineageAgent = Agent<LineageAgentAction>;

/**
 * The lineage agent (`createAgent`): while it runs, one replica at a time scans the registry every interval, reading
 * every parent–child link in keyset pages, applying the anomaly rules and replacing the stored findings. It accepts
 * start, stop, pause and resume (no `run`); starting it again counts runs from zero.
 */
export function createLineageAgent(deps: {
  db: Db;
  log: Logger;
  clock: Clock;
  intervalMs: number;
  pollMs: number;
  /** Where each scan is observed (`job_run_duration_seconds{task="lineage-agent"}`). */
  metrics?: ServiceMetrics;
}): LineageAgent {
  const { db } = deps;
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

  return createAgent({
    db,
    table: agents,
    agent: 'lineage',
    name: 'lineage agent',
    job: 'lineage-agent',
    actions: LINEAGE_AGENT_ACTIONS,
    resetRunsOnStart: true,
    log: deps.log,
    clock: deps.clock,
    intervalMs: deps.intervalMs,
    pollMs: deps.pollMs,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    async cycle() {
      const findings = await scan();
      return {
        counts: { anomaliesFound: findings.length },
        save: (tx, at) => replaceAnomalies(tx, findings, at),
      };
    },
  });
}
