import { mediaFileDelete, mediaFileDeleted, mediaFileGet } from '@rootline/contracts';
import { assertOwnerOrAdmin, handle, notFound, type ServiceContext } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import { findFile, softDelete } from '../db/files.repo.js';
import type { MediaConfig } from '../service.js';
import { fileInfo } from '../view.js';

/** media.file.get: a processed file that is not deleted; pending uploads are not files yet. */
export const getFile = (ctx: ServiceContext<MediaConfig>, storage: Storage) =>
  handle(mediaFileGet, async ({ fileId }) => {
    const row = await findFile(ctx.db, fileId);
    if (row?.status !== 'ready') throw notFound('File', fileId);
    return fileInfo(row, storage, ctx.clock);
  });

/** media.file.delete: hidden at once; the purge job removes its objects and row later. */
export const deleteFile = (ctx: ServiceContext<MediaConfig>) =>
  handle(mediaFileDelete, async ({ fileId }, c) => {
    const row = await findFile(ctx.db, fileId);
    if (row?.status !== 'ready') throw notFound('File', fileId);
    assertOwnerOrAdmin(c, row.ownerId);
    return ctx.db.transaction(async (tx) => {
      const deleted = await softDelete(tx, fileId, ctx.clock.now());
      if (!deleted?.deletedAt) throw notFound('File', fileId);
      const deletedAt = new Date(deleted.deletedAt).toISOString();
      await ctx.outbox.enqueue(tx, mediaFileDeleted, { fileId, ownerId: row.ownerId, deletedAt }, c);
      return { id: fileId, deletedAt };
    });
  });
