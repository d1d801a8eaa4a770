import type { Db } from '@rootline/db';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import { files } from './schema.js';

export type FileRow = typeof files.$inferSelect;
export type NewFile = typeof files.$inferInsert;

export async function insertFile(db: Db, row: NewFile): Promise<FileRow> {
  const [saved] = await db.insert(files).values(row).returning();
  return saved as FileRow;
}

/** A file that is not deleted, in any status. */
export async function findFile(db: Db, id: string): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), isNull(files.deletedAt)))
    .limit(1);
  return row;
}

/** The processed, not deleted files attached to a record, newest first (served by the entity index). */
export function attachedFiles(db: Db, entityType: string, entityId: string, limit: number): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(
      and(
        eq(files.entityType, entityType),
        eq(files.entityId, entityId),
        eq(files.status, 'ready'),
        isNull(files.deletedAt),
      ),
    )
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(limit);
}

/** Owner and kind of the processed, not deleted files among `ids`. */
/**
 * The images a list may show: processed, not deleted, and with no metadata left in their stored copies (ADR 179);
 * with `plantIds`, the newest such image of each of those plants (one index range per plant).
 */
const showable = and(
  eq(files.kind, 'image'),
  eq(files.status, 'ready'),
  isNull(files.deletedAt),
  eq(files.metadataInCopies, false),
);

/** The newest showable image of each plant named (none for a plant without one). */
export function newestPlantImages(db: Db, plantIds: string[]): Promise<FileRow[]> {
  if (plantIds.length === 0) return Promise.resolve([]);
  return db
    .selectDistinctOn([files.entityId])
    .from(files)
    .where(and(eq(files.entityType, 'plant'), inArray(files.entityId, plantIds), showable))
    .orderBy(files.entityId, desc(files.createdAt), desc(files.id));
}

/** The showable images among the files named. */
export function showableImages(db: Db, ids: string[]): Promise<FileRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(files)
    .where(and(inArray(files.id, ids), showable));
}

export function readyFilesOwners(db: Db, ids: string[]): Promise<{ id: string; ownerId: string; kind: string }[]> {
  return db
    .select({ id: files.id, ownerId: files.ownerId, kind: files.kind })
    .from(files)
    .where(and(inArray(files.id, ids), eq(files.status, 'ready'), isNull(files.deletedAt)));
}

/** Turns a pending upload into a ready file; undefined when it was no longer pending (completed twice). */
export async function markReady(db: Db, id: string, values: Partial<NewFile>): Promise<FileRow | undefined> {
  const [row] = await db
    .update(files)
    .set({ ...values, status: 'ready', expiresAt: null })
    .where(and(eq(files.id, id), eq(files.status, 'pending')))
    .returning();
  return row;
}

export async function removeFile(db: Db, id: string): Promise<void> {
  await db.delete(files).where(eq(files.id, id));
}

/** Hides a file; undefined when it was already deleted. */
export async function softDelete(db: Db, id: string, at: Date): Promise<FileRow | undefined> {
  const [row] = await db
    .update(files)
    .set({ deletedAt: at.toISOString() })
    .where(and(eq(files.id, id), isNull(files.deletedAt)))
    .returning();
  return row;
}

/** Files deleted before `before`, oldest first. */
export function deletedBefore(db: Db, before: Date, limit: number): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(isNotNull(files.deletedAt), lt(files.deletedAt, before.toISOString())))
    .orderBy(asc(files.deletedAt))
    .limit(limit);
}

/** Pending uploads whose signed URL expired before `now`. */
export function expiredPending(db: Db, now: Date, limit: number): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(eq(files.status, 'pending'), lt(files.expiresAt, now.toISOString())))
    .orderBy(asc(files.expiresAt))
    .limit(limit);
}

/** Files whose stored copies still carry EXIF (written before copies were always stripped), oldest first. */
export function filesWithMetadataInCopies(db: Db, limit: number): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(eq(files.metadataInCopies, true))
    .orderBy(asc(files.createdAt), asc(files.id))
    .limit(limit);
}

/** Records that a file's copies were stripped of their metadata. */
export async function markCopiesStripped(db: Db, id: string): Promise<void> {
  await db.update(files).set({ metadataInCopies: false }).where(eq(files.id, id));
}
