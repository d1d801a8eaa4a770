import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { integer, jsonb, type PgSchema, text, timestamp } from 'drizzle-orm/pg-core';
import type { Db } from './types.js';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * The `agents` table in a service's schema: one row per background agent (the lineage agent, the transport tracker)
 * that the service's replicas share, with its state (`stopped`, `running`, `paused`), schedule, claim and what its
 * last run counted. Export it from the service's `schema.ts` so drizzle-kit generates it with its migrations.
 */
export function agentsTable(schema: PgSchema) {
  return schema.table('agents', {
    agent: text('agent').primaryKey(),
    state: text('state').notNull(),
    since: at('since').notNull(),
    nextRunAt: at('next_run_at').notNull(),
    /** Set while a replica runs a cycle; a claim older than the claim timeout is taken over. */
    claimedAt: at('claimed_at'),
    runs: integer('runs').notNull().default(0),
    lastRunAt: at('last_run_at'),
    lastRunMs: integer('last_run_ms'),
    /** What the last cycle counted (anomalies found, events scanned…), by name. */
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
  });
}

/** A service's agents table, as made by `agentsTable`. */
export type AgentsTable = ReturnType<typeof agentsTable>;
export type AgentRow = AgentsTable['$inferSelect'];

/** Creates the agent's row, stopped, unless it exists. */
export async function ensureAgentRow(db: Db, table: AgentsTable, agent: string, now: Date): Promise<void> {
  const t = now.toISOString();
  await db
    .insert(table)
    .values({ agent, state: 'stopped', since: t, nextRunAt: t })
    .onConflictDoNothing({ target: table.agent });
}

/** The agent's row; throws when it is missing (`ensureAgentRow` creates it at start). */
export async function readAgentRow(db: Db, table: AgentsTable, agent: string): Promise<AgentRow> {
  const [row] = await db.select().from(table).where(eq(table.agent, agent)).limit(1);
  if (!row) throw new Error(`the row of agent ${agent} is missing`);
  return row;
}

/**
 * Moves the agent from `from` to `to` unless another request moved it first (then undefined). Moving from stopped
 * to running makes a cycle due at once and, with `resetRuns`, counts runs from zero again.
 */
export async function moveAgentRow(
  db: Db,
  table: AgentsTable,
  agent: string,
  move: { from: string; to: string; now: Date; resetRuns?: boolean },
): Promise<AgentRow | undefined> {
  const t = move.now.toISOString();
  const starting = move.from === 'stopped' && move.to === 'running';
  const [row] = await db
    .update(table)
    .set({ state: move.to, since: t, ...(starting ? { nextRunAt: t, ...(move.resetRuns ? { runs: 0 } : {}) } : {}) })
    .where(and(eq(table.agent, agent), eq(table.state, move.from)))
    .returning();
  return row;
}

/**
 * Claims a cycle for this replica: a scheduled one only while the agent runs and its cycle is due (`forced`
 * false), a forced one (`run`) in any state; never while another replica holds a claim younger than `staleBefore`.
 */
export async function claimAgentRun(
  db: Db,
  table: AgentsTable,
  agent: string,
  claim: { now: Date; staleBefore: Date; forced: boolean },
): Promise<boolean> {
  const due = claim.forced
    ? undefined
    : and(eq(table.state, 'running'), sql`${table.nextRunAt} <= ${claim.now.toISOString()}`);
  const rows = await db
    .update(table)
    .set({ claimedAt: claim.now.toISOString() })
    .where(
      and(
        eq(table.agent, agent),
        due,
        or(isNull(table.claimedAt), lt(table.claimedAt, claim.staleBefore.toISOString())),
      ),
    )
    .returning({ agent: table.agent });
  return rows.length > 0;
}

/** Records a finished cycle (run through `db`, e.g. the transaction that stores its findings) and releases the claim. */
export async function finishAgentRun(
  db: Db,
  table: AgentsTable,
  agent: string,
  run: { at: Date; durationMs: number; counts: Record<string, number>; nextRunAt: Date },
): Promise<void> {
  await db
    .update(table)
    .set({
      claimedAt: null,
      lastRunAt: run.at.toISOString(),
      lastRunMs: run.durationMs,
      counts: run.counts,
      runs: sql`${table.runs} + 1`,
      nextRunAt: run.nextRunAt.toISOString(),
    })
    .where(eq(table.agent, agent));
}

/** Releases a claim after a failed cycle. */
export async function releaseAgentRun(db: Db, table: AgentsTable, agent: string): Promise<void> {
  await db.update(table).set({ claimedAt: null }).where(eq(table.agent, agent));
}
