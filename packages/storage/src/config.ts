import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { createLocalStorage } from './local.js';
import { createS3Storage } from './s3.js';
import type { Storage } from './types.js';

/** Storage settings, shared by the gateway and the media service (spread into each one's config). */
export const StorageConfigProperties = {
  STORAGE_DRIVER: Type.Union([Type.Literal('local'), Type.Literal('s3')], {
    default: 'local',
    description: 'Where uploaded files are kept: local files under STORAGE_DIR, or an S3-compatible bucket',
  }),
  STORAGE_DIR: Type.Optional(
    Type.String({ minLength: 1, description: 'Folder of local storage; default <DATA_DIR>/media' }),
  ),
  STORAGE_SIGNING_SECRET: Type.Optional(
    Type.String({ minLength: 32, description: 'HMAC key of local signed URLs; the same in the gateway and media' }),
  ),
  STORAGE_PUBLIC_URL: Type.String({
    default: '',
    pattern: '^(https?://.*[^/])?$',
    description: 'Prefix of local signed URLs (the public address of the API); empty: paths on the API host',
  }),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://', description: 'S3-compatible endpoint' })),
  S3_PUBLIC_ENDPOINT: Type.Optional(
    Type.String({ pattern: '^https?://', description: 'Endpoint presigned URLs are signed for; default S3_ENDPOINT' }),
  ),
  S3_REGION: Type.String({ default: 'us-east-1', minLength: 1, description: 'Region of the bucket' }),
  S3_BUCKET: Type.String({
    default: 'rootline-media',
    minLength: 3,
    maxLength: 63,
    description: 'Bucket uploads are kept in',
  }),
  S3_ACCESS_KEY_ID: Type.Optional(
    Type.String({ minLength: 1, description: 'Access key id; unset: the AWS SDK default chain' }),
  ),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1, description: 'Secret of S3_ACCESS_KEY_ID' })),
  S3_FORCE_PATH_STYLE: Type.Boolean({
    default: true,
    description: 'Address the bucket in the path, not the host name (MinIO and most S3-compatible stores)',
  }),
  S3_CREATE_BUCKET: Type.Boolean({ default: false, description: 'Create the bucket at first use if missing' }),
};

export interface StorageSettings {
  DATA_DIR: string;
  STORAGE_DRIVER: 'local' | 's3';
  STORAGE_DIR?: string | undefined;
  STORAGE_SIGNING_SECRET?: string | undefined;
  STORAGE_PUBLIC_URL: string;
  S3_ENDPOINT?: string | undefined;
  S3_PUBLIC_ENDPOINT?: string | undefined;
  S3_REGION: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE: boolean;
  S3_CREATE_BUCKET: boolean;
}

/** The folder of the local store: STORAGE_DIR, else `media` under DATA_DIR. */
export function localStorageDir(c: Pick<StorageSettings, 'STORAGE_DIR' | 'DATA_DIR'>): string {
  return c.STORAGE_DIR ?? join(c.DATA_DIR, 'media');
}

/** The storage the settings choose; `now` is the caller's clock (expiry of signed URLs). */
export function storageFromConfig(c: StorageSettings, now: () => number): Storage {
  if (c.STORAGE_DRIVER === 's3') {
    return createS3Storage({
      endpoint: c.S3_ENDPOINT,
      publicEndpoint: c.S3_PUBLIC_ENDPOINT,
      region: c.S3_REGION,
      bucket: c.S3_BUCKET,
      accessKeyId: c.S3_ACCESS_KEY_ID,
      secretAccessKey: c.S3_SECRET_ACCESS_KEY,
      forcePathStyle: c.S3_FORCE_PATH_STYLE,
      createBucket: c.S3_CREATE_BUCKET,
    });
  }
  return createLocalStorage({
    dir: localStorageDir(c),
    secret: c.STORAGE_SIGNING_SECRET,
    publicUrl: c.STORAGE_PUBLIC_URL,
    now,
  });
}
