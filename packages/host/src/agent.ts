import { type AgentAction, type AgentState, AppError } from '@rootline/contracts';
import {
  type AgentRow,
  type AgentsTable,
  claimAgentRun,
  type Db,
  ensureAgentRow,
  finishAgentRun,
  moveAgentRow,
  readAgentRow,
  releaseAgentRun,
} from '@rootline/db';
import { agentTransition, allowedAgentActions } from '@rootline/domain';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import type { ServiceMetrics } from './metrics.js';
import { createClaimedRuns, type Job } from './scheduled-job.js';

/** What one cycle of an agent found: its counts, and how its findings are stored. */
export interface AgentCycle {
  /** What the cycle counted, by name (kept on the agent's row, e.g. `{ anomaliesFound: 3 }`). */
  counts: Record<string, number>;
  /** Stores the findings, in the transaction that records the cycle; `at` is the instant recorded as its last run. */
  save?(tx: Db, at: Date): Promise<void>;
}

/** Options of `createAgent`. */
export interface AgentOptions<A extends AgentAction> {
  db: Db;
  /** The service's agents table (`agentsTable(schema)`). */
  table: AgentsTable;
  /** The agent's row in the table, e.g. `lineage`. */
  agent: string;
  /** Its name in messages, e.g. `lineage agent`. */
  name: string;
  /** Its name in `job_run_duration_seconds{task}`, e.g. `lineage-agent`. */
  job: string;
  /** The actions of the shared state machine it accepts (`agentTransition`). */
  actions: readonly A[];
  /** Starting it again (from stopped) counts runs from zero. */
  resetRunsOnStart?: boolean;
  log: Logger;
  clock: Clock;
  /** Time from the end of one cycle to the next while it runs. */
  intervalMs: number;
  /** How often each replica looks whether a cycle is due. */
  pollMs: number;
  /** A claim older than this belongs to a replica that died mid-cycle and is taken over (default 10 min). */
  claimTimeoutMs?: number;
  /** One cycle: reads what it watches and answers what it found. */
  cycle(): Promise<AgentCycle>;
  metrics?: ServiceMetrics;
}

/** A background agent, as `createAgent` makes it; a service returns it in `ServiceDefinition.agents`. */
export interface Agent<A extends AgentAction = AgentAction> extends Job {
  /** The agent's row: state, schedule, runs and last counts. */
  read(): Promise<AgentRow>;
  /**
   * One move of the state machine; resolves to the row after it. A move the machine refuses, or a race with another
   * move or cycle, is CONFLICT with the state and the allowed actions. `run` does one cycle now.
   */
  control(action: A): Promise<AgentRow>;
  /** The actions allowed in a state. */
  allowedActions(state: AgentState): A[];
}

const CLAIM_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * A background agent shared by the service's replicas, on the one agent state machine (`agentTransition`) and the
 * scheduled-job runner (`createClaimedRuns`): while it runs, every `pollMs` each replica tries to claim the due
 * cycle, and the one that succeeds runs it and records it on the agent's row with its findings. A cycle in progress
 * completes even if the agent is paused or stopped meanwhile.
 */
export function createAgent<A extends AgentAction>(o: AgentOptions<A>): Agent<A> {
  const { db, table, agent, log, clock } = o;
  const claimTimeoutMs = o.claimTimeoutMs ?? CLAIM_TIMEOUT_MS;
  const runs = createClaimedRuns({
    log,
    clock,
    job: o.job,
    what: `${o.name} cycle`,
    pollMs: o.pollMs,
    ...(o.metrics ? { metrics: o.metrics } : {}),
    claim: (now, forced) =>
      claimAgentRun(db, table, agent, { now, staleBefore: new Date(now.getTime() - claimTimeoutMs), forced }),
    async run() {
      const started = performance.now();
      const found = await o.cycle();
      const at = clock.now();
      const durationMs = Math.round(performance.now() - started);
      await db.transaction(async (tx) => {
        await found.save?.(tx, at);
        await finishAgentRun(tx, table, agent, {
          at,
          durationMs,
          counts: found.counts,
          nextRunAt: new Date(at.getTime() + o.intervalMs),
        });
      });
      log.info({ ...found.counts, ms: durationMs }, `${o.name} cycle finished`);
    },
    release: () => releaseAgentRun(db, table, agent),
  });
  const read = () => readAgentRow(db, table, agent);
  const allowedActions = (state: AgentState) => allowedAgentActions(state, o.actions);

  return {
    prepare: () => ensureAgentRow(db, table, agent, clock.now()),
    start: runs.start,
    stop: runs.stop,
    read,
    allowedActions,
    async control(action) {
      const state = (await read()).state as AgentState;
      const refuse = (message: string, now: AgentState) =>
        new AppError('CONFLICT', message, { state: now, action, allowedActions: allowedActions(now) });
      const move = agentTransition(o.name, state, action, o.actions);
      if (!move.ok) throw refuse(move.message, state);
      if (action === 'run') {
        if (!(await runs.runNow())) throw refuse(`The ${o.name} is already in a cycle; try again shortly`, state);
        return read();
      }
      const moved = await moveAgentRow(db, table, agent, {
        from: state,
        to: move.state,
        now: clock.now(),
        resetRuns: o.resetRunsOnStart ?? false,
      });
      if (!moved) {
        const now = (await read()).state as AgentState;
        throw refuse(`The ${o.name} changed to ${now} meanwhile; try again`, now);
      }
      if (move.state === 'running') runs.wake();
      return moved;
    },
  };
}
