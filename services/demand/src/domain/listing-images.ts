import { AppError } from '@rootline/contracts/errors';

/** A file as the media service describes it. */
export interface FileFacts {
  id: string;
  ownerId: string;
  kind: string;
}

/**
 * Why a listing of `sellerId` may not carry the files `ids` (undefined when it may): each must be a file that exists
 * (processed, not deleted; NOT_FOUND), was uploaded by the seller and is an image (VALIDATION_ERROR,
 * `details.reason` not-an-image). Another's file is NOT_FOUND, as a file that does not exist, unless an ADMIN acts
 * (who may read every file: FORBIDDEN, `details.reason` not-owner), so naming ids tells nobody whose files exist.
 * `files` are those media knows of among `ids`.
 */
export function imagesRefusal(
  ids: readonly string[],
  files: readonly FileFacts[],
  sellerId: string,
  callerIsAdmin = false,
) {
  const byId = new Map(files.map((f) => [f.id, f]));
  for (const [i, id] of ids.entries()) {
    const field = `imageFileIds.${i}`;
    const file = byId.get(id);
    if (!file || (file.ownerId !== sellerId && !callerIsAdmin)) {
      return new AppError('NOT_FOUND', `File ${id} not found`, { field });
    }
    if (file.ownerId !== sellerId) {
      return new AppError('FORBIDDEN', `File ${id} is not the seller's: a listing shows its seller's own images`, {
        field,
        reason: 'not-owner',
      });
    }
    if (file.kind !== 'image') {
      return new AppError('VALIDATION_ERROR', `File ${id} is a ${file.kind}, not an image`, {
        field,
        reason: 'not-an-image',
      });
    }
  }
  return undefined;
}
