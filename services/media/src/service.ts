import { statfs } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createScheduledJob, type ServiceMetrics, type ServiceModule } from '@rootline/host';
import { localStorageDir, storageFromConfig } from '@rootline/storage';
import { MediaConfig } from './config.js';
import { jobs, outbox } from './db/schema.js';
import { deleteFile, getFile, listPlantFiles, ownedFiles, photoCovers } from './handlers/files.js';
import { createIdentification, createStreamedIdentification, getIdentification } from './handlers/identification.js';
import { completeUpload, presignUpload, processUpload } from './handlers/upload.js';
import { expireUploads, purgeDeleted } from './jobs/purge.js';
import { stripMetadataFromCopies } from './jobs/strip-metadata.js';

/** A claim older than this belongs to a replica that died mid-run and is taken over. */
const CLAIM_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * The free and total bytes of the file system that holds the local media store, read at each scrape (an S3 bucket
 * is watched through its own server's metrics). Absent while the folder does not exist yet.
 */
function reportStoreDisk(metrics: ServiceMetrics, dir: string): void {
  const disk = async () => {
    const fs = await statfs(dir);
    return { free: fs.bavail * fs.bsize, size: fs.blocks * fs.bsize };
  };
  metrics.gauge(
    { name: 'media_store_free_bytes', help: 'Free bytes on the file system of the local media store' },
    async () => [{ labels: {}, value: (await disk()).free }],
  );
  metrics.gauge(
    { name: 'media_store_size_bytes', help: 'Size in bytes of the file system of the local media store' },
    async () => [{ labels: {}, value: (await disk()).size }],
  );
}

/** media: uploads (images processed to WebP and thumbnails, documents), presigned uploads, storage, purge. */
export const service: ServiceModule<typeof MediaConfig> = {
  name: 'media',
  version: '0.2.0',
  config: MediaConfig,
  db: { schema: 'media', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  async create(ctx) {
    const storage = storageFromConfig(ctx.config, () => ctx.clock.now().getTime());
    if (ctx.config.STORAGE_DRIVER === 'local') reportStoreDisk(ctx.metrics, localStorageDir(ctx.config));
    const job = (name: string, run: (now: Date) => Promise<number>) =>
      createScheduledJob({
        db: ctx.db,
        table: jobs,
        job: name,
        log: ctx.log,
        clock: ctx.clock,
        intervalMs: ctx.config.MEDIA_JOB_INTERVAL_SECONDS * 1000,
        pollMs: ctx.config.MEDIA_JOB_POLL_MS,
        claimTimeoutMs: CLAIM_TIMEOUT_MS,
        run,
        metrics: ctx.metrics,
      });
    const purge = job('purge', (now) =>
      purgeDeleted(ctx.db, storage, now, ctx.config.MEDIA_PURGE_AFTER_SECONDS * 1000),
    );
    const expiry = job('expire-uploads', (now) => expireUploads(ctx.db, storage, now));
    const strip = job('strip-metadata', () => stripMetadataFromCopies(ctx.db, storage));
    return {
      handlers: [
        processUpload(ctx, storage),
        presignUpload(ctx, storage),
        completeUpload(ctx, storage),
        getFile(ctx, storage),
        listPlantFiles(ctx, storage),
        deleteFile(ctx),
        ownedFiles(ctx),
        photoCovers(ctx, storage),
        createIdentification(ctx, storage),
        createStreamedIdentification(ctx, storage),
        getIdentification(ctx),
      ],
      subscribers: [],
      start: async () => {
        await purge.start();
        await expiry.start();
        await strip.start();
      },
      stop: async () => {
        await purge.stop();
        await expiry.stop();
        await strip.stop();
        await storage.close();
      },
    };
  },
};
