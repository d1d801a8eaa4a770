import { MEDIA_LIMITS } from '@rootline/contracts';
import { withBase } from '@rootline/host';
import { StorageConfigProperties } from '@rootline/storage';
import { type Static, Type } from '@sinclair/typebox';

/** Settings of media: the shared base settings, where files are stored, their limits and the identification provider. */
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
