// The error and role modules alone, not the package's root: loading every contract costs a unit test seconds.
import type { CallContext } from '@rootline/contracts/context';
import { AppError } from '@rootline/contracts/errors';
import type { Actor } from '@rootline/contracts/roles';
import { isOwnerOrAdmin } from '@rootline/contracts/roles';

/** The user a call acts as; UNAUTHORIZED when the call carries none (a route open to the public). */
export function actingUser(call: CallContext): Actor {
  if (!call.actor) throw new AppError('UNAUTHORIZED', 'This action needs a signed-in user');
  return call.actor;
}

/** Who owns a new record, and whether an ADMIN created it for someone else (to be recorded as such). */
export interface ActingOwner {
  ownerId: string;
  /** The acting user, e.g. stored as `registeredBy`. */
  actor: Actor;
  /** True when the owner is not the acting user (only an ADMIN may do that). */
  onBehalf: boolean;
}

/**
 * The owner of a record the call creates: the caller. A request naming an owner (`requestedOwnerId`) is
 * accepted when it names the caller, or when the caller is an ADMIN acting for that owner; any other owner is
 * FORBIDDEN. Without an acting user: UNAUTHORIZED.
 */
export function actingOwner(call: CallContext, requestedOwnerId?: string): ActingOwner {
  const actor = actingUser(call);
  const ownerId = requestedOwnerId ?? actor.id;
  if (!isOwnerOrAdmin(actor, ownerId)) {
    throw new AppError('FORBIDDEN', 'A record can only be created for yourself', {
      field: 'owner.id',
      reason: 'not-owner',
    });
  }
  return { ownerId, actor, onBehalf: ownerId !== actor.id };
}

/**
 * Allows a change to an existing record only to its owner or an ADMIN: FORBIDDEN for anyone else,
 * UNAUTHORIZED without an acting user.
 */
export function assertOwnerOrAdmin(call: CallContext, ownerId: string): Actor {
  const actor = actingUser(call);
  if (!isOwnerOrAdmin(actor, ownerId)) {
    throw new AppError('FORBIDDEN', 'Only the owner or an administrator may change this record', {
      reason: 'not-owner',
    });
  }
  return actor;
}
