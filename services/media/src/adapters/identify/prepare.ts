import type { Readable } from 'node:stream';
import { AppError } from '@rootline/contracts';
import { loadSharp } from '../load-sharp.js';

/** Longest side of a photo sent for identification: enough for the provider, and a small request. */
export const IDENTIFY_MAX_SIDE = 1600;

/** The whole of a stored object, refused past `maxBytes`. */
export async function readAll(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      throw new AppError('PAYLOAD_TOO_LARGE', `A photo is larger than the limit of ${maxBytes} bytes`, {
        reason: 'file-too-large',
        maxBytes,
      });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A photo as it may leave the system: decoded (within the pixel limit, truncated data refused), turned upright,
 * at most IDENTIFY_MAX_SIDE pixels a side, and encoded anew as JPEG. sharp writes no metadata unless asked, so
 * no EXIF, no GPS position, no camera serial and no XMP reach the provider.
 */
export async function photoForProvider(bytes: Buffer, maxPixels: number, field: string): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    return await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'truncated' })
      .rotate()
      .resize({ width: IDENTIFY_MAX_SIDE, height: IDENTIFY_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch {
    throw new AppError('VALIDATION_ERROR', 'A photo is not an image that can be read', { field });
  }
}
