import {
  AppError,
  type CallContext,
  farmGet,
  isAppError,
  listingGet,
  listingShowingImage,
  plantGet,
} from '@rootline/contracts';
import { call, type ServiceContext } from '@rootline/host';
import type { FileRow } from '../db/files.repo.js';
import { mayBeListingImage, readAccess } from '../domain/access.js';

/** What media needs to know of the record a file is attached to. */
export interface RecordFacts {
  ownerId: string;
}

/**
 * The record a file is attached to, asked of the service that owns it with the caller's context (its tables are
 * never read here): a plant's owner, a listing's seller, a farm's owner; a user is itself. A record the caller
 * may not see (another's draft listing) is absent as for its service. NOT_FOUND and VALIDATION_ERROR name the
 * field entityId.
 */
export async function recordOf(
  ctx: ServiceContext,
  c: CallContext,
  entityType: string,
  entityId: string,
): Promise<RecordFacts> {
  try {
    switch (entityType) {
      case 'plant': {
        const plant = await call(ctx.bus, plantGet, { plantId: entityId }, c);
        return { ownerId: plant.owner.id };
      }
      case 'listing': {
        const listing = await call(ctx.bus, listingGet, { listingId: entityId }, c);
        return { ownerId: listing.sellerId };
      }
      case 'farm': {
        const farm = await call(ctx.bus, farmGet, { farmId: entityId }, c);
        return { ownerId: farm.ownerId };
      }
      case 'user':
        return { ownerId: entityId };
      default:
        throw new AppError('VALIDATION_ERROR', `Files cannot be attached to a ${entityType}`, {
          field: 'entityType',
          reason: 'attach-not-allowed',
        });
    }
  } catch (err) {
    if (isAppError(err) && (err.code === 'NOT_FOUND' || err.code === 'VALIDATION_ERROR') && entityType !== 'user') {
      const message = err.code === 'NOT_FOUND' ? `${entityType} ${entityId} not found` : err.message;
      throw new AppError(err.code, message, { field: 'entityId', entityType });
    }
    throw err;
  }
}

/**
 * Whether the caller may read the record: true when its service shows it to them, false when it answers NOT_FOUND
 * or FORBIDDEN (the record is gone, or private to its owner). Other errors (UNAVAILABLE) are thrown.
 */
export async function mayReadRecord(
  ctx: ServiceContext,
  c: CallContext,
  entityType: string,
  entityId: string,
): Promise<boolean> {
  try {
    await recordOf(ctx, c, entityType, entityId);
    return true;
  } catch (err) {
    if (isAppError(err) && ['NOT_FOUND', 'FORBIDDEN', 'VALIDATION_ERROR'].includes(err.code)) return false;
    throw err;
  }
}

/**
 * Whether a published listing shows the image among its `imageFileIds`, asked of demand (its tables are never read
 * here). Unsure is no: when demand does not answer, the file stays unread by anyone but its owner (who never asks).
 */
async function shownOnListing(ctx: ServiceContext, c: CallContext, fileId: string): Promise<boolean> {
  try {
    return (await call(ctx.bus, listingShowingImage, { fileId }, c)).listingId !== null;
  } catch (err) {
    if (!isAppError(err) || err.code !== 'UNAVAILABLE') throw err;
    ctx.log.warn({ fileId, err: err.message }, 'demand did not say whether a listing shows the image; refused');
    return false;
  }
}

/**
 * Whether the caller may read the file (see `readAccess`): its owner or an ADMIN; whoever may read the plant, listing
 * or farm it is attached to; for an image, every signed-in user once a published listing shows it.
 */
export async function mayReadFile(ctx: ServiceContext, c: CallContext, file: FileRow): Promise<boolean> {
  const access = readAccess(file, c.actor);
  if (access === 'allow') return true;
  if (access === 'ask-record' && (await mayReadRecord(ctx, c, file.entityType!, file.entityId!))) return true;
  return mayBeListingImage(file, c.actor) && (await shownOnListing(ctx, c, file.id));
}
