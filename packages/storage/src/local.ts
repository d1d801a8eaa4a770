import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError } from '@rootline/contracts';
import { ByteLimit } from './limit.js';
import { grantQuery } from './signing.js';
import { assertKey, type Storage, type UrlBase } from './types.js';

/** Path under which the gateway serves local signed URLs (GET reads, PUT writes). */
export const LOCAL_URL_PATH = '/api/upload/local';

export interface LocalStorageOptions {
  /** Root folder of the objects. */
  dir: string;
  /** HMAC key of signed URLs, shared by the gateway (which verifies) and media (which signs). */
  secret: string | undefined;
  /**
   * Prefix of signed URLs (STORAGE_PUBLIC_URL); empty: the public address of the request a URL is made for, else
   * paths relative to the API host.
   */
  publicUrl: string;
  /** Milliseconds since the epoch (the service clock). */
  now: () => number;
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Objects as files under one folder; URLs signed with HMAC-SHA256 and served by the gateway. */
export function createLocalStorage(opts: LocalStorageOptions): Storage & { secret(): string } {
  const path = (key: string) => {
    assertKey(key);
    return join(opts.dir, ...key.split('/'));
  };
  const secret = () => {
    if (!opts.secret) throw new Error('STORAGE_SIGNING_SECRET is not set: local storage cannot sign URLs');
    return opts.secret;
  };
  const expiry = (seconds: number) => Math.floor(opts.now() / 1000) + seconds;
  const url = (key: string, query: string, base: UrlBase) =>
    `${opts.publicUrl || base.publicUrl?.replace(/\/+$/, '') || ''}${LOCAL_URL_PATH}/${key}?${query}`;

  return {
    driver: 'local',
    secret,
    async put(key, body, { maxBytes }) {
      const file = path(key);
      await mkdir(dirname(file), { recursive: true });
      // Written beside its final name and renamed once complete, so a failed write leaves nothing behind.
      const part = `${file}.part-${randomBytes(6).toString('hex')}`;
      const limit = new ByteLimit(maxBytes);
      try {
        await pipeline(body, limit, createWriteStream(part));
        await rename(part, file);
      } catch (err) {
        await rm(part, { force: true });
        throw err;
      }
      return { bytes: limit.bytes };
    },
    async get(key) {
      const file = path(key);
      try {
        await stat(file);
      } catch (err) {
        if (isMissing(err)) throw new AppError('NOT_FOUND', `No stored object ${key}`);
        throw err;
      }
      return createReadStream(file);
    },
    async head(key) {
      try {
        return { bytes: (await stat(path(key))).size };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async delete(keys) {
      for (const key of keys) await rm(path(key), { force: true });
    },
    async list(prefix) {
      let names: string[];
      try {
        names = await readdir(opts.dir, { recursive: true });
      } catch (err) {
        if (isMissing(err)) return [];
        throw err;
      }
      const keys: string[] = [];
      for (const name of names) {
        const key = name.split(sep).join('/');
        if (!key.startsWith(prefix) || key.includes('.part-')) continue;
        if ((await stat(join(opts.dir, name))).isFile()) keys.push(key);
      }
      return keys.sort();
    },
    async downloadUrl(key, { expiresInSeconds, contentType, ...base }) {
      assertKey(key);
      const g = { method: 'GET' as const, key, expires: expiry(expiresInSeconds), contentType };
      return url(key, grantQuery(secret(), g), base);
    },
    async uploadUrl(key, { expiresInSeconds, contentType, bytes, ...base }) {
      assertKey(key);
      const g = { method: 'PUT' as const, key, expires: expiry(expiresInSeconds), contentType, bytes };
      const target = url(key, grantQuery(secret(), g), base);
      return { url: target, method: 'PUT', headers: { 'content-type': contentType } };
    },
    async close() {},
  };
}

export type LocalStorage = ReturnType<typeof createLocalStorage>;
