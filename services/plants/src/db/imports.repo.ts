import type { ImportProblem } from '@rootline/contracts/imports';
import { anyOfTexts, type Db, insertFromJson } from '@rootline/db';
import { and, asc, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { importKeys, importProblems, imports, plants, seedLotQuantityChanges, seedLots } from './schema.js';

export type ImportRow = typeof imports.$inferSelect;
export type NewImportRow = typeof imports.$inferInsert;
export type KeyRow = typeof importKeys.$inferInsert;

export async function insertImport(db: Db, row: NewImportRow): Promise<ImportRow> {
  const [created] = await db.insert(imports).values(row).returning();
  return created as ImportRow;
}

export async function findImport(db: Db, id: string): Promise<ImportRow | undefined> {
  const [row] = await db.select().from(imports).where(eq(imports.id, id)).limit(1);
  return row;
}

/** One page of an owner's imports, newest first (optionally in one state), and their count. */
export async function listImports(
  db: Db,
  ownerId: string,
  state: string | undefined,
  offset: number,
  limit: number,
): Promise<{ rows: ImportRow[]; total: number }> {
  const where = and(eq(imports.ownerId, ownerId), state === undefined ? undefined : eq(imports.state, state));
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(imports)
      .where(where)
      .orderBy(desc(imports.createdAt), desc(imports.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(imports).where(where),
  ]);
  return { rows, total: Number(counted[0]?.total ?? 0) };
}

/**
 * Claims the oldest queued import, or a running one whose claim is older than `staleBefore` (its replica died):
 * one conditional UPDATE, so two replicas never read the same file at once.
 */
export async function claimImport(db: Db, now: string, staleBefore: string): Promise<ImportRow | undefined> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: imports.id })
      .from(imports)
      .where(or(eq(imports.state, 'queued'), and(eq(imports.state, 'running'), lt(imports.claimedAt, staleBefore))))
      .orderBy(asc(imports.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return undefined;
    const [row] = await tx
      .update(imports)
      .set({ state: 'running', claimedAt: now, startedAt: sql`coalesce(${imports.startedAt}, ${now})` })
      .where(eq(imports.id, due.id))
      .returning();
    return row;
  });
}

/** Progress of a running import; renews its claim. */
export async function updateImport(db: Db, id: string, change: Partial<NewImportRow>): Promise<void> {
  await db.update(imports).set(change).where(eq(imports.id, id));
}

/** Drops the problems of an import read again from the start (a claim taken over). */
export async function clearProblems(db: Db, id: string): Promise<void> {
  await db.delete(importProblems).where(eq(importProblems.importId, id));
}

export async function insertProblems(db: Db, importId: string, firstSeq: number, rows: ImportProblem[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(importProblems)
    .values(rows.map((p, i) => ({ importId, seq: firstSeq + i, ...p })))
    .onConflictDoNothing();
}

/** One page of an import's problems in line order. */
export async function listProblems(db: Db, importId: string, offset: number, limit: number): Promise<ImportProblem[]> {
  return db
    .select({
      line: importProblems.line,
      column: importProblems.column,
      field: importProblems.field,
      reason: importProblems.reason,
      message: importProblems.message,
    })
    .from(importProblems)
    .where(eq(importProblems.importId, importId))
    .orderBy(asc(importProblems.line), asc(importProblems.seq))
    .limit(limit)
    .offset(offset) as Promise<ImportProblem[]>;
}

/** The records already imported under these keys, key → record id. */
export async function findKeys(
  db: Db,
  ownerId: string,
  kind: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: importKeys.key, recordId: importKeys.recordId })
    .from(importKeys)
    .where(
      and(eq(importKeys.ownerId, ownerId), eq(importKeys.kind, kind), sql`${importKeys.key} = ${anyOfTexts(keys)}`),
    );
  return new Map(rows.map((r) => [r.key, r.recordId]));
}

/** Records the keys; answers those that were new (a key another import took meanwhile is left out). */
export async function insertKeys(db: Db, rows: KeyRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await db.insert(importKeys).values(rows).onConflictDoNothing().returning({ key: importKeys.key });
  return new Set(inserted.map((r) => r.key));
}

/** An owner's lots among `ids` (keys that are lot ids: an export of lots not imported). */
export async function ownedSeedLots(db: Db, ownerId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(seedLots)
    .where(and(eq(seedLots.ownerId, ownerId), sql`${seedLots.id} = ${anyOfTexts(ids)}`));
}

/** An owner's plants among `ids`, by id. */
export async function ownedPlantIds(db: Db, ownerId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: plants.id })
    .from(plants)
    .where(and(eq(plants.ownerId, ownerId), sql`${plants.id} = ${anyOfTexts(ids)}`));
  return new Set(rows.map((r) => r.id));
}

export async function insertSeedLots(
  db: Db,
  rows: (typeof seedLots.$inferInsert)[],
  changes: (typeof seedLotQuantityChanges.$inferInsert)[],
): Promise<void> {
  if (rows.length === 0) return;
  // One JSON parameter per statement, however many rows (a batch holds a thousand).
  await db.execute(insertFromJson(seedLots, rows));
  await db.execute(insertFromJson(seedLotQuantityChanges, changes));
}

/** One piece of an owner's listed lots in id order after `after`, each with the key it was imported under. */
export async function seedLotExportPiece(db: Db, ownerId: string, after: string | undefined, limit: number) {
  return db
    .select({ lot: seedLots, key: importKeys.key })
    .from(seedLots)
    .leftJoin(importKeys, eq(importKeys.recordId, seedLots.id))
    .where(
      and(
        eq(seedLots.ownerId, ownerId),
        isNull(seedLots.discardedAt),
        after === undefined ? undefined : gt(seedLots.id, after),
      ),
    )
    .orderBy(asc(seedLots.id))
    .limit(limit);
}

/** One piece of an owner's plants in id order after `after`, each with the key it was imported under. */
export async function plantExportPiece(db: Db, ownerId: string, after: string | undefined, limit: number) {
  return db
    .select({
      id: plants.id,
      commonName: plants.commonName,
      scientificName: plants.scientificName,
      latitude: plants.latitude,
      longitude: plants.longitude,
      city: plants.city,
      country: plants.country,
      privacyLevel: plants.privacyLevel,
      key: importKeys.key,
    })
    .from(plants)
    .leftJoin(importKeys, eq(importKeys.recordId, plants.id))
    .where(and(eq(plants.ownerId, ownerId), after === undefined ? undefined : gt(plants.id, after)))
    .orderBy(asc(plants.id))
    .limit(limit);
}
