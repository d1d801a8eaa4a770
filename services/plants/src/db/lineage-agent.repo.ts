import type { AgentState, AnomalyKind, LineageAnomaly } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, count, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Finding } from '../domain/anomalies.js';
import { lineageAgent, lineageAnomalies } from './schema.js';

const AGENT = 'lineage';

export type AgentRow = typeof lineageAgent.$inferSelect;

/** Creates the agent's row, stopped, unless it exists. */
export async function ensureAgent(db: Db, now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .insert(lineageAgent)
    .values({ agent: AGENT, state: 'stopped', since: at, nextRunAt: at })
    .onConflictDoNothing({ target: lineageAgent.agent });
}

export async function readAgent(db: Db): Promise<AgentRow> {
  const [row] = await db.select().from(lineageAgent).where(eq(lineageAgent.agent, AGENT)).limit(1);
  if (!row) throw new Error('the lineage agent row is missing');
  return row;
}

/**
 * Moves the agent from `from` to `to` unless another request moved it first (then undefined). Starting resets the
 * run count and makes a scan due at once.
 */
export async function moveAgent(db: Db, from: AgentState, to: AgentState, now: Date): Promise<AgentRow | undefined> {
  const at = now.toISOString();
  const starting = from === 'stopped' && to === 'running';
  const [row] = await db
    .update(lineageAgent)
    .set({ state: to, since: at, ...(starting ? { runs: 0, nextRunAt: at } : {}) })
    .where(and(eq(lineageAgent.agent, AGENT), eq(lineageAgent.state, from)))
    .returning();
  return row;
}

/**
 * Claims the due scan for this replica: succeeds only while the agent runs, the scan is due and nobody else holds
 * a claim younger than `staleBefore`.
 */
export async function claimScan(db: Db, now: Date, staleBefore: Date): Promise<boolean> {
  const rows = await db
    .update(lineageAgent)
    .set({ claimedAt: now.toISOString() })
    .where(
      and(
        eq(lineageAgent.agent, AGENT),
        eq(lineageAgent.state, 'running'),
        sql`${lineageAgent.nextRunAt} <= ${now.toISOString()}`,
        or(isNull(lineageAgent.claimedAt), lt(lineageAgent.claimedAt, staleBefore.toISOString())),
      ),
    )
    .returning({ agent: lineageAgent.agent });
  return rows.length > 0;
}

/** Replaces the stored findings with a scan's and records the run; the claim is released. */
export async function finishScan(
  db: Db,
  findings: Finding[],
  run: { finishedAt: Date; durationMs: number; nextRunAt: Date },
): Promise<void> {
  const at = run.finishedAt.toISOString();
  await db.transaction(async (tx) => {
    await tx.delete(lineageAnomalies);
    for (let i = 0; i < findings.length; i += 500) {
      await tx.insert(lineageAnomalies).values(
        findings.slice(i, i + 500).map((f) => ({
          kind: f.kind,
          plantId: f.plantId,
          parentId: f.parentId,
          reason: f.reason,
          detectedAt: at,
        })),
      );
    }
    await tx
      .update(lineageAgent)
      .set({
        claimedAt: null,
        lastRunAt: at,
        lastRunMs: run.durationMs,
        anomaliesFound: findings.length,
        runs: sql`${lineageAgent.runs} + 1`,
        nextRunAt: run.nextRunAt.toISOString(),
      })
      .where(eq(lineageAgent.agent, AGENT));
  });
}

/** Releases a claim after a failed scan. */
export async function releaseScan(db: Db): Promise<void> {
  await db.update(lineageAgent).set({ claimedAt: null }).where(eq(lineageAgent.agent, AGENT));
}

/** One page of the stored findings, in the order they were found, optionally of one kind. */
export async function listAnomalies(
  db: Db,
  kind: AnomalyKind | undefined,
  offset: number,
  limit: number,
): Promise<{ items: LineageAnomaly[]; total: number }> {
  const where: SQL | undefined = kind ? eq(lineageAnomalies.kind, kind) : undefined;
  const [rows, [c]] = await Promise.all([
    db.select().from(lineageAnomalies).where(where).orderBy(asc(lineageAnomalies.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(lineageAnomalies).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      kind: r.kind as AnomalyKind,
      plantIds: r.parentId ? [r.plantId, r.parentId] : [r.plantId],
      reason: r.reason,
      detectedAt: new Date(r.detectedAt).toISOString(),
    })),
    total: Number(c?.n ?? 0),
  };
}
