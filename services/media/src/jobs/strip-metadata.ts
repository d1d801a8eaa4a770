import { Readable } from 'node:stream';
import { MEDIA_LIMITS } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { Storage } from '@rootline/storage';
import { readAll } from '../adapters/identify/prepare.js';
import { loadSharp } from '../adapters/load-sharp.js';
import { type FileRow, filesWithMetadataInCopies, markCopiesStripped } from '../db/files.repo.js';
import { STORED_IMAGE_TYPE } from '../domain/types.js';
import { stripWebpMetadata } from '../domain/webp.js';

const BATCH = 50;

/** The copy without metadata: its chunks dropped (pixels untouched), or, if it cannot be parsed, encoded anew. */
async function cleanCopy(bytes: Buffer): Promise<Buffer> {
  try {
    return stripWebpMetadata(bytes);
  } catch {
    const sharp = await loadSharp();
    return sharp(bytes).webp({ quality: 82 }).toBuffer();
  }
}

/**
 * Rewrites each WebP copy of the file without its EXIF and XMP; a missing copy is skipped. A copy that can be
 * neither parsed nor decoded is removed: better a missing thumbnail than a position served.
 */
async function stripCopies(storage: Storage, row: FileRow): Promise<void> {
  for (const key of [row.originalKey, ...Object.values(row.thumbnails ?? {})]) {
    if (!key.endsWith('.webp') || !(await storage.head(key))) continue;
    const bytes = await readAll(await storage.get(key), MEDIA_LIMITS.imageMaxBytes * 4);
    const clean = await cleanCopy(bytes).catch(() => null);
    if (!clean) await storage.delete([key]);
    else if (!clean.equals(bytes)) await storage.put(key, Readable.from([clean]), { contentType: STORED_IMAGE_TYPE });
  }
}

/**
 * The `strip-metadata` job: the copies of photos stored while a photo of its owner's exact plant kept its EXIF
 * lose their EXIF and XMP (the GPS stays in the row, shown to the owner only), then the row's flag is cleared. Due
 * at once on the first start after the upgrade; a crash midway leaves the flag for the next run, which rewrites
 * what is left (stripping twice changes nothing).
 */
export async function stripMetadataFromCopies(db: Db, storage: Storage): Promise<number> {
  let stripped = 0;
  for (;;) {
    const rows = await filesWithMetadataInCopies(db, BATCH);
    for (const row of rows) {
      await stripCopies(storage, row);
      await markCopiesStripped(db, row.id);
    }
    stripped += rows.length;
    if (rows.length < BATCH) return stripped;
  }
}
