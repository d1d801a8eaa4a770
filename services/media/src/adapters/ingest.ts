import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ExifData, FileKind, MediaType } from '@rootline/contracts';
import { ByteLimit, type Storage } from '@rootline/storage';
import { extensionOf, maxBytesOf } from '../domain/types.js';
import { processImage } from './images.js';
import { detectType } from './inspect.js';

/** What processing an upload stored and learnt. */
export interface Ingested {
  mimeType: MediaType;
  bytes: number;
  width: number | null;
  height: number | null;
  exif: ExifData | null;
  originalKey: string;
  thumbnails: Record<string, string> | null;
}

/**
 * Validates and stores one upload found under `sourceKey`: streamed to a private temporary file (bounded by the
 * kind's size limit), typed by its bytes, then an image is converted (images.ts) and a document copied to its
 * final key. On any failure every object it wrote is removed, so a refused file leaves nothing; the source
 * object is the caller's to remove.
 */
export async function ingest(
  storage: Storage,
  input: { fileId: string; kind: FileKind; sourceKey: string; maxPixels: number },
): Promise<Ingested> {
  const dir = await mkdtemp(join(tmpdir(), 'rootline-media-'));
  const file = join(dir, 'upload');
  const written: string[] = [];
  try {
    const limit = new ByteLimit(maxBytesOf(input.kind));
    await pipeline(await storage.get(input.sourceKey), limit, createWriteStream(file));
    const mimeType = await detectType(file, input.kind);
    if (input.kind === 'image') {
      const img = await processImage(storage, file, {
        fileId: input.fileId,
        maxPixels: input.maxPixels,
        written,
      });
      return { mimeType, bytes: limit.bytes, ...img };
    }
    const originalKey = `files/${input.fileId}/original.${extensionOf(mimeType)}`;
    written.push(originalKey);
    await storage.put(originalKey, createReadStream(file), { contentType: mimeType });
    return { mimeType, bytes: limit.bytes, width: null, height: null, exif: null, originalKey, thumbnails: null };
  } catch (err) {
    await storage.delete(written).catch(() => {});
    throw err;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
