import { MEDIA_LIMITS } from '@rootline/contracts';
import type { Storage } from '@rootline/storage';
import type Sharp from 'sharp';
import { checkPixels, exifFrom, refused, STORED_IMAGE_TYPE } from '../domain/types.js';
import { loadSharp } from './load-sharp.js';

export interface ImageResult {
  width: number;
  height: number;
  exif: ReturnType<typeof exifFrom>;
  originalKey: string;
  thumbnails: Record<string, string>;
}

const WEBP = { quality: 82, effort: 2 } as const;

/** A decoder of the file that refuses more pixels than the limit and truncated data. */
function decode(sharp: typeof Sharp, file: string, maxPixels: number) {
  return sharp(file, { limitInputPixels: maxPixels, failOn: 'truncated', sequentialRead: true }).rotate();
}

/** The EXIF tags of the file, read in chunks by exifr; null when it has none or they are unreadable. */
async function readExif(file: string): Promise<ReturnType<typeof exifFrom>> {
  try {
    // Loaded by the first image, not when the platform starts.
    const { default: exifr } = await import('exifr');
    const raw = (await exifr.parse(file, { tiff: true, exif: true, gps: true, translateValues: false })) as
      | Record<string, unknown>
      | undefined;
    return exifFrom(raw);
  } catch {
    return null;
  }
}

/**
 * Checks and converts an image on disk: dimensions from the header against the pixel limit (before decoding),
 * one full decode to refuse truncated or corrupt data, then the full-size WebP and the square thumbnails, each
 * streamed from libvips into storage. Orientation is applied; every copy is written without any metadata (sharp
 * keeps none unless asked: no EXIF, so no GPS IFD, no XMP, no IPTC), whatever the privacy level of a plant it shows:
 * that level governs the plant's place, not where a photo was taken. The GPS read here is kept in the row only,
 * shown to the file's owner (ADR 179).
 */
export async function processImage(
  storage: Storage,
  file: string,
  opts: { fileId: string; maxPixels: number; written: string[] },
): Promise<ImageResult> {
  const sharp = await loadSharp();
  // The header only, without the pixel limit: a bomb is measured here and refused with its dimensions.
  const meta = await sharp(file, { limitInputPixels: false })
    .metadata()
    .catch((err: Error) => {
      throw refused('The image header is unreadable', 'corrupt', { decoder: err.message.split('\n')[0] });
    });
  checkPixels(meta.width, meta.height, opts.maxPixels);
  try {
    await decode(sharp, file, opts.maxPixels).resize(32, 32, { fit: 'inside' }).raw().toBuffer();
  } catch (err) {
    throw refused('The image could not be decoded: it is truncated or corrupt', 'corrupt', {
      decoder: (err as Error).message.split('\n')[0],
    });
  }
  const exif = await readExif(file);
  // Dimensions once the EXIF orientation is applied, as every copy is.
  const { width, height } = meta.autoOrient;

  const put = async (name: string, size: number | null) => {
    let img = decode(sharp, file, opts.maxPixels);
    if (size) img = img.resize(size, size, { fit: 'cover' });
    const key = `files/${opts.fileId}/${name}.webp`;
    opts.written.push(key);
    await storage.put(key, img.webp(WEBP), { contentType: STORED_IMAGE_TYPE });
    return key;
  };
  const originalKey = await put('original', null);
  const thumbnails: Record<string, string> = {};
  for (const size of MEDIA_LIMITS.thumbnailSizes) thumbnails[String(size)] = await put(`thumb-${size}`, size);
  return { width, height, exif, originalKey, thumbnails };
}
