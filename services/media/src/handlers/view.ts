import {
  type CallContext,
  type ExifData,
  type FileInfo,
  isOwnerOrAdmin,
  MEDIA_LIMITS,
  type PhotoThumbnails,
} from '@rootline/contracts';
import type { Clock } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import type { FileRow } from '../db/files.repo.js';
import { STORED_IMAGE_TYPE, servedExif, storedTypeOf } from '../domain/types.js';

/**
 * A file's information with signed URLs valid for `MEDIA_LIMITS.urlSeconds`; local URLs start with the public
 * address of the request (`caller.publicUrl`) unless STORAGE_PUBLIC_URL names one. `exif.gps` is the caller's only
 * when the file is theirs (or they are an ADMIN).
 */
export async function fileInfo(
  row: FileRow,
  storage: Storage,
  clock: Clock,
  caller: Pick<CallContext, 'publicUrl' | 'actor'>,
): Promise<FileInfo> {
  const expiresInSeconds = MEDIA_LIMITS.urlSeconds;
  const { publicUrl } = caller;
  // Served as what the stored bytes are (an image's original is WebP), not as what was uploaded.
  const contentType = storedTypeOf(row.kind, row.mimeType);
  const original = await storage.downloadUrl(row.originalKey, { expiresInSeconds, contentType, publicUrl });
  let thumbnails: Record<string, string> | null = null;
  if (row.thumbnails) {
    thumbnails = {};
    for (const [size, key] of Object.entries(row.thumbnails)) {
      thumbnails[size] = await storage.downloadUrl(key, {
        expiresInSeconds,
        contentType: STORED_IMAGE_TYPE,
        publicUrl,
      });
    }
  }
  return {
    id: row.id,
    kind: row.kind as FileInfo['kind'],
    mimeType: row.mimeType,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    originalName: row.originalName,
    category: row.category as FileInfo['category'],
    entityType: row.entityType as FileInfo['entityType'],
    entityId: row.entityId,
    ownerId: row.ownerId,
    exif: servedExif(row.exif as ExifData | null, isOwnerOrAdmin(caller.actor, row.ownerId)),
    urls: {
      original,
      thumbnails,
      expiresAt: urlsExpireAt(clock),
    },
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/**
 * An image's thumbnails with signed URLs valid for `MEDIA_LIMITS.urlSeconds`, as a list shows them (no original, no
 * EXIF: only the square copies, which carry no metadata).
 */
export async function photoThumbnails(
  row: FileRow,
  storage: Storage,
  clock: Clock,
  caller: Pick<CallContext, 'publicUrl'>,
): Promise<PhotoThumbnails> {
  const expiresInSeconds = MEDIA_LIMITS.urlSeconds;
  const thumbnails: Record<string, string> = {};
  for (const [size, key] of Object.entries(row.thumbnails ?? {})) {
    thumbnails[size] = await storage.downloadUrl(key, {
      expiresInSeconds,
      contentType: STORED_IMAGE_TYPE,
      publicUrl: caller.publicUrl,
    });
  }
  return {
    id: row.id,
    width: row.width,
    height: row.height,
    thumbnails,
    expiresAt: urlsExpireAt(clock),
  };
}

/** When URLs signed now expire, to the second. */
function urlsExpireAt(clock: Clock): string {
  return new Date(Math.floor(clock.now().getTime() / 1000) * 1000 + MEDIA_LIMITS.urlSeconds * 1000).toISOString();
}
