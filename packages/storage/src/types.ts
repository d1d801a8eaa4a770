import type { Readable } from 'node:stream';

/** Where a signed upload goes and how it must be sent. */
export interface UploadTarget {
  url: string;
  method: 'PUT';
  /** Headers the client must send as they are (they are part of the signature). */
  headers: Record<string, string>;
}

/** The public address of the API of the request a signed URL is made for (`CallContext.publicUrl`). */
export interface UrlBase {
  /**
   * Local storage prefixes its URLs with it when STORAGE_PUBLIC_URL is empty (without either, URLs are paths on
   * the API host); S3 presigns for its own endpoint and ignores it.
   */
  publicUrl?: string | undefined;
}

/**
 * An object store seen by the gateway and the media service: streams in, streams out, never a whole file in
 * memory. Keys are `/`-separated paths of `[A-Za-z0-9._-]` segments.
 */
export interface Storage {
  readonly driver: 'local' | 's3';
  /**
   * Streams `body` into `key`. Beyond `maxBytes` the write is abandoned (nothing is left under the key) and a
   * PAYLOAD_TOO_LARGE AppError is thrown.
   */
  put(key: string, body: Readable, opts: { contentType: string; maxBytes?: number }): Promise<{ bytes: number }>;
  /** A stream of the object; NOT_FOUND AppError when it does not exist. */
  get(key: string): Promise<Readable>;
  /** The object's size, or null when it does not exist. */
  head(key: string): Promise<{ bytes: number } | null>;
  /** Removes the objects; missing ones are ignored. */
  delete(keys: readonly string[]): Promise<void>;
  /** Every key under the prefix, sorted. */
  list(prefix: string): Promise<string[]>;
  /** A URL that reads the object until it expires. */
  downloadUrl(key: string, opts: { expiresInSeconds: number; contentType: string } & UrlBase): Promise<string>;
  /** A URL that writes the object (one PUT of exactly `bytes` bytes) until it expires. */
  uploadUrl(
    key: string,
    opts: { expiresInSeconds: number; contentType: string; bytes: number } & UrlBase,
  ): Promise<UploadTarget>;
  close(): Promise<void>;
}

const KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** Refuses keys that could leave the store's root (`..`, absolute paths, odd characters). */
export function assertKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`invalid storage key "${key}"`);
  }
}
