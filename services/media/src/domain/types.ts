import { AppError } from '@rootline/contracts/errors';
import {
  DOCUMENT_TYPES,
  type ExifData,
  type FileCategory,
  type FileKind,
  IMAGE_TYPES,
  MEDIA_LIMITS,
  type MediaType,
} from '@rootline/contracts/media';
import type { RefusalReason } from '@rootline/contracts/refusal-reasons';

/** A refusal of a file's content, with the reason in `details.reason` for clients and tests. */
export function refused(message: string, reason: RefusalReason, extra: Record<string, unknown> = {}): AppError {
  return new AppError('VALIDATION_ERROR', message, { field: 'file', reason, ...extra });
}

/**
 * The category of a new file: the one given, else what the file plainly is: an image attached to a plant is a
 * plant photo, anything else `other`.
 */
export function categoryOf(input: { kind: FileKind; category?: FileCategory; entityType?: string }): FileCategory {
  if (input.category) return input.category;
  return input.kind === 'image' && input.entityType === 'plant' ? 'plant-photo' : 'other';
}

/** The types a kind of upload accepts. */
export function acceptedTypes(kind: FileKind): readonly MediaType[] {
  return kind === 'image' ? IMAGE_TYPES : DOCUMENT_TYPES;
}

/** The media type of the bytes as file-type names it, mapped to ours: a compound file (OLE2) is a Word 97 DOC. */
export function mediaTypeOf(detected: { mime: string; ext: string } | undefined): string | undefined {
  if (!detected) return undefined;
  if (detected.ext === 'cfb') return 'application/msword';
  return detected.mime;
}

/**
 * The accepted media type of a file whose bytes were detected as `detected` (undefined: no known signature), or a
 * VALIDATION_ERROR saying what the bytes are. The name and the type the client declared are never consulted.
 */
export function decideType(kind: FileKind, detected: string | undefined): MediaType {
  const accepted = acceptedTypes(kind);
  if (detected && (accepted as readonly string[]).includes(detected)) return detected as MediaType;
  const what = detected ? `its bytes are ${detected}` : 'its bytes match no known file type';
  throw refused(`The file is not an accepted ${kind} (${accepted.join(', ')}): ${what}`, 'type', {
    detected: detected ?? null,
    accepted,
  });
}

/** The size limit of a kind. */
export function maxBytesOf(kind: FileKind): number {
  return kind === 'image' ? MEDIA_LIMITS.imageMaxBytes : MEDIA_LIMITS.documentMaxBytes;
}

/** Refuses an image whose header announces more pixels than the limit (a decompression bomb) before decoding. */
export function checkPixels(width: number | undefined, height: number | undefined, maxPixels: number): void {
  if (!width || !height) throw refused('The image has no readable dimensions', 'unreadable');
  if (width * height > maxPixels) {
    throw refused(`The image has ${width} × ${height} pixels, more than the limit of ${maxPixels}`, 'pixel-limit', {
      width,
      height,
      maxPixels,
    });
  }
}

/** The media type an image is stored in: every copy, the original included, is converted to WebP (images.ts). */
export const STORED_IMAGE_TYPE = 'image/webp';

/**
 * The media type of a file's stored original, which its URL is served with: an image's original is the WebP it was
 * converted to, whatever was uploaded; a document is kept as uploaded.
 */
export function storedTypeOf(kind: string, uploaded: string): string {
  return kind === 'image' ? STORED_IMAGE_TYPE : uploaded;
}

/** Extension of a stored document by its type. */
export function extensionOf(type: MediaType): string {
  switch (type) {
    case 'application/pdf':
      return 'pdf';
    case 'application/msword':
      return 'doc';
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return 'docx';
    default:
      return 'webp';
  }
}

const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : v instanceof Date ? v.toISOString() : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The EXIF fields kept, from what the EXIF parser read; GPS only with both coordinates. */
export function exifFrom(raw: Record<string, unknown> | undefined): ExifData | null {
  if (!raw) return null;
  const lat = num(raw.latitude);
  const lon = num(raw.longitude);
  const gps =
    lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180
      ? { latitude: lat, longitude: lon, altitude: num(raw.GPSAltitude) }
      : null;
  const orientation = num(raw.Orientation);
  return {
    takenAt: text(raw.DateTimeOriginal),
    make: text(raw.Make),
    model: text(raw.Model),
    orientation: orientation !== null && Number.isInteger(orientation) ? orientation : null,
    exposureTime: num(raw.ExposureTime),
    fNumber: num(raw.FNumber),
    iso: num(raw.ISO),
    focalLength: num(raw.FocalLength),
    gps,
  };
}

/**
 * EXIF as answered: the GPS read from the original only to who may see it (the file's owner and ADMINs), null to
 * everyone else. The served bytes never carry it (images.ts).
 */
export function servedExif(exif: ExifData | null, showGps: boolean): ExifData | null {
  if (!exif) return null;
  return showGps ? exif : { ...exif, gps: null };
}
