import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type * as Presigner from '@aws-sdk/s3-request-presigner';
import { AppError } from '@rootline/contracts';
import { ByteLimit } from './limit.js';
import { assertKey, type Storage } from './types.js';

export interface S3StorageOptions {
  /** e.g. http://127.0.0.1:9000 for MinIO; absent for AWS itself. */
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /**
   * The endpoint clients reach for presigned URLs, when it differs from the one this process uses (MinIO inside
   * a compose network is `http://minio:9000` to the services, `http://localhost:9000` to a browser). The host is
   * part of the signature, so URLs are signed for it.
   */
  publicEndpoint?: string | undefined;
  /** Path-style addresses (`endpoint/bucket/key`), as MinIO and most S3-compatible servers want. */
  forcePathStyle: boolean;
  /** Creates the bucket at first use when it does not exist (development, tests). */
  createBucket?: boolean;
}

/** A part of a streamed upload: at most PART_SIZE × QUEUE_SIZE bytes are in memory per upload. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 1;

/**
 * The SDK is loaded when the S3 driver is chosen, so a process on local storage (every test of other domains, the
 * embedded mode) never pays its start-up.
 */
function loadSdk() {
  const require = createRequire(import.meta.url);
  return {
    ...(require('@aws-sdk/client-s3') as typeof ClientS3),
    ...(require('@aws-sdk/lib-storage') as typeof LibStorage),
    ...(require('@aws-sdk/s3-request-presigner') as typeof Presigner),
  };
}

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

/** Objects in an S3-compatible bucket through @aws-sdk/client-s3; URLs presigned (signature V4). */
export function createS3Storage(opts: S3StorageOptions): Storage {
  const {
    CreateBucketCommand,
    DeleteObjectsCommand,
    GetObjectCommand,
    HeadBucketCommand,
    HeadObjectCommand,
    ListObjectsV2Command,
    PutObjectCommand,
    S3Client,
    Upload,
    getSignedUrl,
  } = loadSdk();
  const clientFor = (endpoint: string | undefined) =>
    new S3Client({
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      ...(endpoint ? { endpoint } : {}),
      ...(opts.accessKeyId && opts.secretAccessKey
        ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
        : {}),
    });
  const client = clientFor(opts.endpoint);
  const signer = opts.publicEndpoint ? clientFor(opts.publicEndpoint) : client;
  const Bucket = opts.bucket;
  let ready: Promise<void> | undefined;
  const ensureBucket = () => {
    if (!opts.createBucket) return Promise.resolve();
    ready ??= client
      .send(new HeadBucketCommand({ Bucket }))
      .then(() => {})
      .catch(async () => {
        await client.send(new CreateBucketCommand({ Bucket }));
      })
      .catch((err: unknown) => {
        ready = undefined;
        throw err;
      });
    return ready;
  };

  return {
    driver: 's3',
    async put(key, body, { contentType, maxBytes }) {
      assertKey(key);
      await ensureBucket();
      const limit = new ByteLimit(maxBytes);
      body.on('error', (err) => limit.destroy(err));
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body.pipe(limit), ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        // A failed multipart upload is aborted, so its parts are not kept.
        leavePartsOnError: false,
      });
      await upload.done();
      return { bytes: limit.bytes };
    },
    async get(key) {
      assertKey(key);
      await ensureBucket();
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return out.Body as Readable;
      } catch (err) {
        if (statusOf(err) === 404) throw new AppError('NOT_FOUND', `No stored object ${key}`);
        throw err;
      }
    },
    async head(key) {
      assertKey(key);
      await ensureBucket();
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { bytes: out.ContentLength ?? 0 };
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw err;
      }
    },
    async delete(keys) {
      if (keys.length === 0) return;
      await ensureBucket();
      for (let i = 0; i < keys.length; i += 1000) {
        const Objects = keys.slice(i, i + 1000).map((Key) => ({ Key }));
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      }
    },
    async list(prefix) {
      await ensureBucket();
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const out = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
        );
        for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async downloadUrl(key, { expiresInSeconds, contentType }) {
      assertKey(key);
      const cmd = new GetObjectCommand({ Bucket, Key: key, ResponseContentType: contentType });
      return getSignedUrl(signer, cmd, { expiresIn: expiresInSeconds });
    },
    async uploadUrl(key, { expiresInSeconds, contentType, bytes }) {
      assertKey(key);
      await ensureBucket();
      // Content-Length and Content-Type are signed: the store refuses a body of another size or type.
      const cmd = new PutObjectCommand({ Bucket, Key: key, ContentType: contentType, ContentLength: bytes });
      const url = await getSignedUrl(signer, cmd, {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(['content-type', 'content-length']),
      });
      return { url, method: 'PUT', headers: { 'content-type': contentType, 'content-length': String(bytes) } };
    },
    async close() {
      client.destroy();
      if (signer !== client) signer.destroy();
    },
  };
}
