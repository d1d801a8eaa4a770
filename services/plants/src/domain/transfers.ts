import { AppError } from '@rootline/contracts/errors';
import { type Actor, type OrgRole, orgRoleAtLeast } from '@rootline/contracts/roles';
import type { TransferSigner, TransferStatus } from '@rootline/contracts/transfers';

/** The organization role that gives or accepts a transfer for the organization (docs/organizations.md). */
export const TRANSFER_ROLE: OrgRole = 'manager';

/** The party an actor stands for on one side of a transfer, and who signed for it. */
export function signerOf(actor: Actor, partyId: string): TransferSigner {
  return actor.org && actor.org.id === partyId && actor.id !== partyId
    ? { accountId: actor.id, organizationId: actor.org.id, role: actor.org.role }
    : { accountId: actor.id, organizationId: null, role: null };
}

/**
 * Whether `actor` may act for the party `partyId` on a transfer: it is the person, or an owner or manager of the
 * organization `partyId` who acts for it. An ADMIN is no exception: a transfer is its parties' act. FORBIDDEN with
 * `details.reason` `org-role` (a weaker role in that organization) or `reason` otherwise.
 */
export function assertSide(
  actor: Actor,
  partyId: string,
  reason: 'not-owner' | 'not-recipient' | 'not-giver',
): TransferSigner {
  if (actor.id === partyId) return signerOf(actor, partyId);
  if (actor.org?.id === partyId) {
    if (orgRoleAtLeast(actor.org.role, TRANSFER_ROLE)) return signerOf(actor, partyId);
    throw new AppError(
      'FORBIDDEN',
      `This needs the role ${TRANSFER_ROLE} or above in the organization; you are ${actor.org.role}`,
      { reason: 'org-role', required: TRANSFER_ROLE, role: actor.org.role },
    );
  }
  const says = {
    'not-owner': 'Only the owner (or an owner or manager of the owning organization, acting for it) may transfer it',
    'not-recipient':
      'Only the recipient (or an owner or manager of the receiving organization, acting for it) may answer',
    'not-giver': 'Only the giving side (or an owner or manager of the giving organization, acting for it) may cancel',
  } as const;
  throw new AppError('FORBIDDEN', says[reason], { reason });
}

/** Whether `actor` may read a transfer: one of its sides (a person, or any member of the organization acting for it), or an ADMIN. */
export function mayReadTransfer(actor: Actor, t: { from: { id: string }; to: { id: string } }): boolean {
  if (actor.role === 'ADMIN') return true;
  const ids = [actor.id, ...(actor.org ? [actor.org.id] : [])];
  return ids.includes(t.from.id) || ids.includes(t.to.id);
}

/** The party whose transfers a caller lists: the organization acted for, else the account. */
export function listingParty(actor: Actor): string {
  return actor.org?.id ?? actor.id;
}

/** CONFLICT for an answer to a transfer that is no longer pending (`details.status` says what it is now). */
export function notPending(status: TransferStatus): AppError {
  return new AppError('CONFLICT', `This transfer is ${status}, no longer pending`, { reason: 'not-pending', status });
}
