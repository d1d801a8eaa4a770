// The error and role modules alone, not the package's root: loading every contract costs a unit test seconds.
import type { CallContext } from '@rootline/contracts/context';
import { AppError } from '@rootline/contracts/errors';
import type { Actor, OrgRole } from '@rootline/contracts/roles';
import { isOwnerOrAdmin } from '@rootline/contracts/roles';

/** The user a call acts as; UNAUTHORIZED when the call carries none (a route open to the public). */
export function actingUser(call: CallContext): Actor {
  if (!call.actor)
    throw new AppError('UNAUTHORIZED', 'This action needs a signed-in user', { reason: 'sign-in-required' });
  return call.actor;
}

/** Who owns a new record, and whether an ADMIN created it for someone else (to be recorded as such). */
export interface ActingOwner {
  /** The caller's account, or the organization the call acts for (ADR 237). */
  ownerId: string;
  /** The acting user, e.g. stored as `registeredBy`. */
  actor: Actor;
  /** True when the owner is neither the acting user nor the organization it acts for (only an ADMIN may do that). */
  onBehalf: boolean;
}

/** FORBIDDEN for a caller acting for the owning organization with too weak a role, else for not being the owner. */
function notOwner(actor: Actor, ownerId: string, floor: OrgRole, message: string, field?: string): AppError {
  if (actor.org?.id === ownerId) {
    return new AppError(
      'FORBIDDEN',
      `This needs the role ${floor} or above in the organization; you are ${actor.org.role}`,
      {
        ...(field ? { field } : {}),
        reason: 'org-role',
        required: floor,
        role: actor.org.role,
      },
    );
  }
  return new AppError('FORBIDDEN', message, { ...(field ? { field } : {}), reason: 'not-owner' });
}

/**
 * The owner of a record the call creates: the caller, or the organization the call acts for (`actor.org`, whose role
 * must be at least `floor`). A request naming an owner (`requestedOwnerId`) is accepted when it names one of those,
 * or when the caller is an ADMIN acting for that owner; any other owner is FORBIDDEN. Without an acting user:
 * UNAUTHORIZED.
 */
export function actingOwner(call: CallContext, requestedOwnerId?: string, floor: OrgRole = 'member'): ActingOwner {
  const actor = actingUser(call);
  const ownerId = requestedOwnerId ?? actor.org?.id ?? actor.id;
  if (!isOwnerOrAdmin(actor, ownerId, floor)) {
    throw notOwner(
      actor,
      ownerId,
      floor,
      'A record can only be created for yourself or the organization you act for',
      'owner.id',
    );
  }
  return { ownerId, actor, onBehalf: ownerId !== actor.id && ownerId !== actor.org?.id };
}

/**
 * Allows touching an existing record only to its owner, an ADMIN, or a caller acting for the owning organization with
 * at least the role `floor` (member by default; viewer for reads, manager for deleting, transferring, running a farm):
 * FORBIDDEN for anyone else, UNAUTHORIZED without an acting user.
 */
export function assertOwnerOrAdmin(call: CallContext, ownerId: string, floor: OrgRole = 'member'): Actor {
  const actor = actingUser(call);
  if (!isOwnerOrAdmin(actor, ownerId, floor)) {
    throw notOwner(actor, ownerId, floor, 'Only the owner or an administrator may change this record');
  }
  return actor;
}
