import { AppError, type CallContext, farmGet, isAppError, listingGet, plantGet } from '@rootline/contracts';
import { call, type ServiceContext } from '@rootline/host';

/** What media needs to know of the record a file is attached to. */
export interface RecordFacts {
  ownerId: string;
  /** Plants only: whether its owner shows its exact place (a photo's GPS may then be kept). */
  exact: boolean;
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
        return { ownerId: plant.owner.id, exact: plant.privacyLevel === 'exact' };
      }
      case 'listing': {
        const listing = await call(ctx.bus, listingGet, { listingId: entityId }, c);
        return { ownerId: listing.sellerId, exact: false };
      }
      case 'farm': {
        const farm = await call(ctx.bus, farmGet, { farmId: entityId }, c);
        return { ownerId: farm.ownerId, exact: false };
      }
      case 'user':
        return { ownerId: entityId, exact: false };
      default:
        throw new AppError('VALIDATION_ERROR', `Files cannot be attached to a ${entityType}`, { field: 'entityType' });
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
