import {
  type FileKind,
  mediaFileDelete,
  mediaFileDeleted,
  mediaFileGet,
  mediaFileListPlant,
  mediaFileOwned,
  mediaPhotoCovers,
  PLANT_FILES_LIMIT,
} from '@rootline/contracts';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import type { MediaConfig } from '../config.js';
import {
  attachedFiles,
  findFile,
  newestPlantImages,
  readyFilesOwners,
  showableImages,
  softDelete,
} from '../db/files.repo.js';
import { mayChange, readAccess } from '../domain/access.js';
import { announcePlantPhoto } from './live.js';
import { mayReadFile, mayReadRecord } from './records.js';
import { fileInfo, photoThumbnails } from './view.js';

/**
 * media.file.get: a processed file that is not deleted (pending uploads are not files yet), to those who may read
 * it (see `mayReadFile`): its owner or an ADMIN; for a file of a plant, a listing or a farm, whoever that record's
 * service shows it to; an image a published listing shows, every signed-in user. Anyone else gets NOT_FOUND, as for
 * a file that does not exist.
 */
export const getFile = (ctx: ServiceContext<MediaConfig>, storage: Storage) =>
  handle(mediaFileGet, async ({ fileId }, c) => {
    const row = await findFile(ctx.db, fileId);
    if (row?.status !== 'ready' || !(await mayReadFile(ctx, c, row))) throw notFound('File', fileId);
    return fileInfo(row, storage, ctx.clock, c);
  });

/**
 * media.file.list-plant: a plant's photos and documents, newest first, to whoever may read the plant (asked once of
 * the plants service, unless the caller owns every file or is an ADMIN); nobody else learns they exist.
 */
export const listPlantFiles = (ctx: ServiceContext<MediaConfig>, storage: Storage) =>
  handle(mediaFileListPlant, async ({ plantId }, c) => {
    const rows = await attachedFiles(ctx.db, 'plant', plantId, PLANT_FILES_LIMIT);
    const access = rows.map((row) => readAccess(row, c.actor));
    if (access.includes('ask-record') && !(await mayReadRecord(ctx, c, 'plant', plantId))) return { items: [] };
    // A plant's file is never a listing's image to its readers: only the owner's and the plant's rules apply.
    const visible = rows.filter((_, i) => access[i] !== 'deny');
    return { items: await Promise.all(visible.map((row) => fileInfo(row, storage, ctx.clock, c))) };
  });

/**
 * media.photo.covers: the photos one page of a list shows, in one request (ADR 203). The asking service names only
 * records its caller may read; only images whose copies carry no metadata are answered.
 */
export const photoCovers = (ctx: ServiceContext<MediaConfig>, storage: Storage) =>
  handle(mediaPhotoCovers, async ({ plantIds = [], fileIds = [] }, c) => {
    const [plantRows, fileRows] = await Promise.all([
      newestPlantImages(ctx.db, plantIds),
      showableImages(ctx.db, fileIds),
    ]);
    const thumbs = (row: (typeof plantRows)[number]) => photoThumbnails(row, storage, ctx.clock, c);
    return {
      plants: await Promise.all(
        plantRows.map(async (row) => ({ plantId: row.entityId ?? '', ...(await thumbs(row)) })),
      ),
      files: await Promise.all(fileRows.map(thumbs)),
    };
  });

/** media.file.owned: owner and kind of each named file that is processed and not deleted. */
export const ownedFiles = (ctx: ServiceContext<MediaConfig>) =>
  handle(mediaFileOwned, async ({ fileIds }) => {
    const rows = await readyFilesOwners(ctx.db, fileIds);
    return { items: rows.map((r) => ({ id: r.id, ownerId: r.ownerId, kind: r.kind as FileKind })) };
  });

/**
 * media.file.delete: hidden at once; the purge job removes its objects and row later. Owner or ADMIN; anyone else
 * gets NOT_FOUND, as for a file that does not exist (`mayChange`).
 */
export const deleteFile = (ctx: ServiceContext<MediaConfig>) =>
  handle(mediaFileDelete, async ({ fileId }, c) => {
    const row = await findFile(ctx.db, fileId);
    if (row?.status !== 'ready' || !mayChange(row, c.actor)) throw notFound('File', fileId);
    const answer = await ctx.db.transaction(async (tx) => {
      const deleted = await softDelete(tx, fileId, ctx.clock.now());
      if (!deleted?.deletedAt) throw notFound('File', fileId);
      const deletedAt = new Date(deleted.deletedAt).toISOString();
      await ctx.outbox.enqueue(tx, mediaFileDeleted, { fileId, ownerId: row.ownerId, deletedAt }, c);
      return { id: fileId, deletedAt };
    });
    await announcePlantPhoto(ctx, row, 'removed');
    return answer;
  });
