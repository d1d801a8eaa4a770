import { type Actor, isOwnerOrAdmin } from '@rootline/contracts/roles';

/** The record a file belongs to, as stored with the file. */
export interface Attachment {
  ownerId: string;
  kind: string;
  entityType: string | null;
  entityId: string | null;
}

/**
 * Who reads a file (media.file.get), before any record is asked:
 * - `allow`: its owner (the uploader) or an ADMIN;
 * - `ask-record`: a file of a plant, a listing or a farm, readable by whoever the owning service shows that record
 *   to (plants and farm profiles to every signed-in user, a listing unless it is someone else's draft);
 * - `deny`: anyone else, for a file of no record or of a user (a profile photo is its uploader's only), unless a
 *   published listing shows it among its images (`mayBeListingImage`).
 * A refused reader is answered NOT_FOUND, as for a missing file (as a draft listing is refused to others).
 */
export function readAccess(file: Attachment, actor: Actor | undefined): 'allow' | 'ask-record' | 'deny' {
  if (isOwnerOrAdmin(actor, file.ownerId)) return 'allow';
  if (!actor || !file.entityId) return 'deny';
  if (file.entityType === 'plant' || file.entityType === 'listing' || file.entityType === 'farm') return 'ask-record';
  return 'deny';
}

/**
 * Whether a listing may make the file readable to a caller who may not read it otherwise: a signed-in caller, an
 * image (a listing's `imageFileIds` are its seller's images, shown to every signed-in user once it is published).
 */
export function mayBeListingImage(file: Attachment, actor: Actor | undefined): boolean {
  return actor !== undefined && file.kind === 'image';
}

/**
 * Who acts on a file otherwise than reading it (delete, complete an upload, send it to be identified): its owner or
 * an ADMIN. Anyone else is answered NOT_FOUND, as for a file that does not exist, even when they may read it: the
 * answer tells nobody that a private file exists, and asks no other service to decide.
 */
export function mayChange(file: Pick<Attachment, 'ownerId'>, actor: Actor | undefined): boolean {
  return isOwnerOrAdmin(actor, file.ownerId);
}

/**
 * Whether a file of `ownerId` may be attached to a record owned by `recordOwnerId`: the record must be the file
 * owner's, or the caller an ADMIN (attachments appear on the owner's record). A user record is oneself only,
 * ADMIN or not.
 */
export function mayAttach(
  entityType: string,
  recordOwnerId: string,
  ownerId: string,
  actor: Actor | undefined,
): boolean {
  if (entityType === 'user') return recordOwnerId === ownerId;
  return recordOwnerId === ownerId || actor?.role === 'ADMIN';
}
