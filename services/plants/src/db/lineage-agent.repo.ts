import type { AnomalyKind, LineageAnomaly } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { asc, count, eq, type SQL } from 'drizzle-orm';
import type { Finding } from '../domain/anomalies.js';
import { lineageAnomalies } from './schema.js';

/** Replaces the stored findings with a scan's (in the transaction that records the scan on the agent's row). */
export async function replaceAnomalies(tx: Db, findings: readonly Finding[], detectedAt: Date): Promise<void> {
  const at = detectedAt.toISOString();
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
