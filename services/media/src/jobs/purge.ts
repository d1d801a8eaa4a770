import type { Db } from '@rootline/db';
import type { Storage } from '@rootline/storage';
import { deletedBefore, expiredPending, type FileRow, removeFile } from '../db/files.repo.js';

const BATCH = 200;

function keysOf(row: FileRow): string[] {
  return [row.originalKey, ...Object.values(row.thumbnails ?? {})];
}

/** Removes the objects, then the row, of each file; a crash in between leaves the row for the next run. */
async function removeAll(db: Db, storage: Storage, rows: FileRow[]): Promise<number> {
  for (const row of rows) {
    await storage.delete(keysOf(row));
    await removeFile(db, row.id);
  }
  return rows.length;
}

/** The purge: files soft-deleted more than `graceMs` ago lose their objects and row. */
export async function purgeDeleted(db: Db, storage: Storage, now: Date, graceMs: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const rows = await deletedBefore(db, new Date(now.getTime() - graceMs), BATCH);
    removed += await removeAll(db, storage, rows);
    if (rows.length < BATCH) return removed;
  }
}

/** Presigned uploads never completed: once their URL expired, whatever arrived and the row are removed. */
export async function expireUploads(db: Db, storage: Storage, now: Date): Promise<number> {
  let removed = 0;
  for (;;) {
    const rows = await expiredPending(db, now, BATCH);
    removed += await removeAll(db, storage, rows);
    if (rows.length < BATCH) return removed;
  }
}
