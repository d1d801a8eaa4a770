import { type Db, executeRows } from '@rootline/db';
import { and, eq, sql } from 'drizzle-orm';
import { checkpointCosignatures, witnessedLogs } from './schema.js';

/** What the witness last cosigned for a log. */
export interface WitnessedLog {
  origin: string;
  size: number;
  rootHash: string;
}

/**
 * Holds the witness's lock on one log until the transaction ends: checking the old size and recording the new
 * checkpoint are one step, across replicas (c2sp.org/tlog-witness warns of the rollback race otherwise).
 */
export async function lockWitnessedLog(tx: Db, origin: string): Promise<void> {
  await executeRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`witness:${origin}`}))`);
}

export async function readWitnessedLog(db: Db, origin: string): Promise<WitnessedLog | null> {
  const [row] = await db
    .select({ origin: witnessedLogs.origin, size: witnessedLogs.size, rootHash: witnessedLogs.rootHash })
    .from(witnessedLogs)
    .where(eq(witnessedLogs.origin, origin));
  return row ?? null;
}

/** Every followed log the witness has cosigned, by origin. */
export async function listWitnessedLogs(db: Db): Promise<Map<string, number>> {
  const rows = await db.select({ origin: witnessedLogs.origin, size: witnessedLogs.size }).from(witnessedLogs);
  return new Map(rows.map((r) => [r.origin, r.size]));
}

/** Records the checkpoint just cosigned as the log's latest. */
export async function saveWitnessedLog(
  tx: Db,
  row: { origin: string; size: number; rootHash: string; note: string },
  now: Date,
): Promise<void> {
  const values = { ...row, updatedAt: now.toISOString() };
  await tx
    .insert(witnessedLogs)
    .values(values)
    .onConflictDoUpdate({
      target: witnessedLogs.origin,
      set: { size: row.size, rootHash: row.rootHash, note: row.note, updatedAt: values.updatedAt },
    });
}

/** The size each witness (by verifier key) last cosigned: where the next consistency proof starts. */
export async function cosignedSizes(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ witness: checkpointCosignatures.witness, size: checkpointCosignatures.treeSize })
    .from(checkpointCosignatures);
  return new Map(rows.map((r) => [r.witness, r.size]));
}

/** Keeps a witness's cosignature of a checkpoint, replacing its earlier one unless that was of a larger tree. */
export async function saveCosignature(
  db: Db,
  row: { witness: string; treeSize: number; rootHash: string; line: string },
  now: Date,
): Promise<void> {
  const values = { ...row, cosignedAt: now.toISOString() };
  await db
    .insert(checkpointCosignatures)
    .values(values)
    .onConflictDoUpdate({
      target: checkpointCosignatures.witness,
      set: { treeSize: row.treeSize, rootHash: row.rootHash, line: row.line, cosignedAt: values.cosignedAt },
      setWhere: sql`${checkpointCosignatures.treeSize} <= ${row.treeSize}`,
    });
}

/** The cosignature lines held for the checkpoint of this size and root. */
export async function cosignaturesOf(db: Db, treeSize: number, rootHash: string): Promise<string[]> {
  const rows = await db
    .select({ line: checkpointCosignatures.line })
    .from(checkpointCosignatures)
    .where(and(eq(checkpointCosignatures.treeSize, treeSize), eq(checkpointCosignatures.rootHash, rootHash)))
    .orderBy(checkpointCosignatures.witness);
  return rows.map((r) => r.line);
}
