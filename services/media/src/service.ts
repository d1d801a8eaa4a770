import { statfs } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { MEDIA_LIMITS } from '@rootline/contracts';
import { createScheduledJob, type ServiceMetrics, type ServiceModule, withBase } from '@rootline/host';
import { localStorageDir, StorageConfigProperties, storageFromConfig } from '@rootline/storage';
import { type Static, Type } from '@sinclair/typebox';
import { jobs, outbox } from './db/schema.js';
import { deleteFile, getFile, listPlantFiles, ownedFiles } from './handlers/files.js';
import { createIdentification, createStreamedIdentification, getIdentification } from './handlers/identification.js';
import { completeUpload, presignUpload, processUpload } from './handlers/upload.js';
import { expireUploads, purgeDeleted } from './purge.js';

export const MediaConfig = withBase({
  ...StorageConfigProperties,
  MEDIA_MAX_PIXELS: Type.Integer({
    minimum: 1,
    maximum: 268_402_689,
    default: MEDIA_LIMITS.maxPixels,
    description: 'Most pixels (width × height) an image may have; more is refused as a decompression bomb',
  }),
  MEDIA_PRESIGN_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 604_800,
    default: MEDIA_LIMITS.presignSeconds,
    description: 'Lifetime of a presigned upload URL; an upload not completed by then is removed',
  }),
  MEDIA_PURGE_AFTER_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 31_536_000,
    default: 604_800,
    description: 'How long a deleted file stays recoverable in storage before the purge removes it',
  }),
  MEDIA_JOB_INTERVAL_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 3600,
    description: 'Time between two runs of the purge and of the expiry of presigned uploads',
  }),
  PLANT_ID_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'Base URL of a service speaking the Pl@ntNet identification API (e.g. https://my-api.plantnet.org); none: ' +
        'POST /api/plants/identify answers 503',
    }),
  ),
  PLANT_ID_API_KEY: Type.Optional(Type.String({ minLength: 1, description: 'API key of that service' })),
  PLANT_ID_PROJECT: Type.String({
    pattern: '^[a-z0-9-]{1,40}$',
    default: 'all',
    description: 'The flora the provider searches (Pl@ntNet project; `all` for every one)',
  }),
  PLANT_ID_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 120_000,
    default: 30_000,
    description: 'How long to wait for the identification provider',
  }),
  MEDIA_JOB_POLL_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 5000,
    description: 'How often each replica checks whether a job is due',
  }),
});
export type MediaConfig = Static<typeof MediaConfig>;

/** A claim older than this belongs to a replica that died mid-run and is taken over. */
const CLAIM_TIMEOUT_MS = 10 * 60 * 1000;

/** media: uploads (images processed to WebP and thumbnails, documents), presigned uploads, storage, purge. */
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
    return {
      handlers: [
        processUpload(ctx, storage),
        presignUpload(ctx, storage),
        completeUpload(ctx, storage),
        getFile(ctx, storage),
        listPlantFiles(ctx, storage),
        deleteFile(ctx),
        ownedFiles(ctx),
        createIdentification(ctx, storage),
        createStreamedIdentification(ctx, storage),
        getIdentification(ctx),
      ],
      subscribers: [],
      start: async () => {
        await purge.start();
        await expiry.start();
      },
      stop: async () => {
        await purge.stop();
        await expiry.stop();
        await storage.close();
      },
    };
  },
};
