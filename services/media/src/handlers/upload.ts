import {
  AppError,
  type CallContext,
  type FileKind,
  isAppError,
  mediaFileStored,
  mediaUploadComplete,
  mediaUploadPresign,
  mediaUploadProcess,
  newId,
} from '@rootline/contracts';
import { actingOwner } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import { type Ingested, ingest } from '../adapters/ingest.js';
import type { MediaConfig } from '../config.js';
import { type FileRow, findFile, insertFile, markReady, removeFile } from '../db/files.repo.js';
import { mayAttach, mayChange } from '../domain/access.js';
import { acceptedTypes, categoryOf, maxBytesOf, refused } from '../domain/types.js';
import { announcePlantPhoto } from './live.js';
import { recordOf } from './records.js';
import { fileInfo } from './view.js';

interface Entity {
  entityType?: string | null | undefined;
  entityId?: string | null | undefined;
}

/**
 * Checks the record a file is attached to. Every entityType is checked
 * with the service that owns the record: it must exist (NOT_FOUND, `details.field` entityId) and be the file
 * owner's (a plant's owner, a listing's seller, a farm's owner, the user themself) unless an ADMIN acts, but a user
 * record is oneself only (FORBIDDEN, `details.reason` not-owner).
 */
async function checkAttachment(
  ctx: ServiceContext<MediaConfig>,
  c: CallContext,
  e: Entity,
  ownerId: string,
): Promise<void> {
  if (!e.entityType !== !e.entityId) {
    throw new AppError('VALIDATION_ERROR', 'entityType and entityId go together', {
      field: 'entityId',
      reason: 'entity-pair',
    });
  }
  if (!e.entityType || !e.entityId) return;
  const record = await recordOf(ctx, c, e.entityType, e.entityId);
  if (!mayAttach(e.entityType, record.ownerId, ownerId, c.actor)) {
    throw new AppError('FORBIDDEN', `A file can only be attached to your own ${e.entityType}`, {
      field: 'entityId',
      reason: 'not-owner',
    });
  }
}

function rowValues(done: Ingested) {
  return {
    mimeType: done.mimeType,
    bytes: done.bytes,
    width: done.width,
    height: done.height,
    exif: done.exif,
    originalKey: done.originalKey,
    thumbnails: done.thumbnails,
  };
}

function storedEvent(row: FileRow) {
  return {
    fileId: row.id,
    ownerId: row.ownerId,
    kind: row.kind as FileKind,
    mimeType: row.mimeType,
    bytes: row.bytes,
    category: row.category as 'other',
    entityType: row.entityType as 'plant' | null,
    entityId: row.entityId,
  };
}

/** media.upload.process: a file the gateway streamed into storage, validated and processed here. */
export const processUpload = (ctx: ServiceContext<MediaConfig>, storage: Storage) => {
  const processing = ctx.metrics.histogram({
    name: 'upload_processing_seconds',
    help: 'Time to inspect, convert and store one upload, by kind and outcome (ok or refused)',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });
  return handle(mediaUploadProcess, async (input, c) => {
    try {
      const { ownerId } = actingOwner(c);
      await checkAttachment(ctx, c, input, ownerId);
      const id = newId('fil', ctx.clock.now().getTime());
      const timer = processing.startTimer({ kind: input.kind });
      const done = await ingest(storage, {
        fileId: id,
        kind: input.kind,
        sourceKey: input.uploadKey,
        maxPixels: ctx.config.MEDIA_MAX_PIXELS,
      }).catch((err: unknown) => {
        timer({ outcome: 'refused' });
        throw err;
      });
      timer({ outcome: 'ok' });
      try {
        const row = await ctx.db.transaction(async (tx) => {
          const saved = await insertFile(tx, {
            id,
            ownerId,
            kind: input.kind,
            status: 'ready',
            originalName: input.filename,
            category: categoryOf(input),
            entityType: input.entityType ?? null,
            entityId: input.entityId ?? null,
            createdAt: ctx.clock.now().toISOString(),
            ...rowValues(done),
          });
          await ctx.outbox.enqueue(tx, mediaFileStored, storedEvent(saved), c);
          return saved;
        });
        await announcePlantPhoto(ctx, row, 'added');
        return fileInfo(row, storage, ctx.clock, c);
      } catch (err) {
        await storage.delete([done.originalKey, ...Object.values(done.thumbnails ?? {})]).catch(() => {});
        throw err;
      }
    } finally {
      // The streamed upload is temporary whatever happened: processed copies replaced it, or it was refused.
      await storage.delete([input.uploadKey]).catch(() => {});
    }
  });
};

/** media.upload.presign: a pending file and a signed URL to PUT its bytes to. */
export const presignUpload = (ctx: ServiceContext<MediaConfig>, storage: Storage) =>
  handle(mediaUploadPresign, async (input, c) => {
    const { ownerId } = actingOwner(c);
    if (!(acceptedTypes(input.kind) as readonly string[]).includes(input.contentType)) {
      throw new AppError('VALIDATION_ERROR', `${input.contentType} is not an accepted ${input.kind} type`, {
        field: 'contentType',
        reason: 'type',
        accepted: acceptedTypes(input.kind),
      });
    }
    const max = maxBytesOf(input.kind);
    if (input.bytes > max) {
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${max} bytes`, {
        reason: 'file-too-large',
        maxBytes: max,
      });
    }
    await checkAttachment(ctx, c, input, ownerId);
    const now = ctx.clock.now();
    const id = newId('fil', now.getTime());
    const key = `pending/${id}`;
    const expiresAt = new Date(now.getTime() + ctx.config.MEDIA_PRESIGN_SECONDS * 1000);
    const upload = await storage.uploadUrl(key, {
      expiresInSeconds: ctx.config.MEDIA_PRESIGN_SECONDS,
      contentType: input.contentType,
      bytes: input.bytes,
      publicUrl: c.publicUrl,
    });
    await insertFile(ctx.db, {
      id,
      ownerId,
      kind: input.kind,
      status: 'pending',
      mimeType: input.contentType,
      bytes: input.bytes,
      originalName: input.filename,
      category: categoryOf(input),
      entityType: input.entityType ?? null,
      entityId: input.entityId ?? null,
      originalKey: key,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    return { fileId: id, upload, expiresAt: expiresAt.toISOString() };
  });

/** media.upload.complete: processes what arrived at a presigned URL; a refused file removes the pending one. */
export const completeUpload = (ctx: ServiceContext<MediaConfig>, storage: Storage) =>
  handle(mediaUploadComplete, async ({ fileId }, c) => {
    const row = await findFile(ctx.db, fileId);
    // Another's upload, pending or done, is no file to the caller (`mayChange`).
    if (!row || !mayChange(row, c.actor)) throw notFound('File', fileId);
    if (row.status === 'ready') return fileInfo(row, storage, ctx.clock, c);
    if (row.expiresAt && new Date(row.expiresAt) < ctx.clock.now()) {
      throw refused('The upload URL expired before the upload was completed; ask for a new one', 'expired');
    }
    const arrived = await storage.head(row.originalKey);
    if (!arrived) throw refused('Nothing was uploaded to the signed URL yet', 'not-uploaded');
    // Errors of the record it belongs to (a plant gone, plants unavailable) leave the upload to be retried.
    await checkAttachment(ctx, c, row, row.ownerId);
    let done: Ingested;
    try {
      done = await ingest(storage, {
        fileId,
        kind: row.kind as FileKind,
        sourceKey: row.originalKey,
        maxPixels: ctx.config.MEDIA_MAX_PIXELS,
      });
    } catch (err) {
      // A refused file leaves nothing: neither its bytes nor its row.
      if (isAppError(err) && (err.code === 'VALIDATION_ERROR' || err.code === 'PAYLOAD_TOO_LARGE')) {
        await storage.delete([row.originalKey]).catch(() => {});
        await removeFile(ctx.db, fileId);
      }
      throw err;
    }
    await storage.delete([row.originalKey]).catch(() => {});
    const saved = await ctx.db.transaction(async (tx) => {
      const ready = await markReady(tx, fileId, rowValues(done));
      if (!ready) throw new AppError('DUPLICATE', 'The upload was completed meanwhile', { fileId });
      await ctx.outbox.enqueue(tx, mediaFileStored, storedEvent(ready), c);
      return ready;
    });
    await announcePlantPhoto(ctx, saved, 'added');
    return fileInfo(saved, storage, ctx.clock, c);
  });
