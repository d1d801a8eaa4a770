import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver: an S3-protocol server (signature V4, multipart uploads, presigned URLs) that runs in this process.
import S3rver from 's3rver';

/** A private S3-protocol server on a free loopback port, with one empty bucket. */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The settings that point the gateway and media at it. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startTestS3(bucket = 'rootline-test'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'rootline-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const addr = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${addr.port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      // s3rver's fixed development credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
