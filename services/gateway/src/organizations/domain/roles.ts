import { type OrgRole, orgRoleAtLeast } from '@rootline/contracts/organizations';

/** Why a change of membership is refused: a reason code the error's details carry. */
export type MembershipRefusal = 'LAST_OWNER' | 'OWNER_ONLY' | 'NOT_A_MEMBER';

/**
 * Whether `actor` may give `target` (holding `current`, or null for a newcomer) the role `next` (null: remove them).
 * An owner may do anything; a manager manages members below owner only and cannot make owners; others nothing.
 * Leaving (actor = target) is checked by `mayLeave`.
 */
export function mayChangeMember(actor: OrgRole, current: OrgRole | null, next: OrgRole | null): boolean {
  if (actor === 'owner') return true;
  if (actor !== 'manager') return false;
  if (current === 'owner' || next === 'owner') return false;
  return true;
}

/** Whether an invitation with `role` may be sent by someone holding `actor`: managers invite below owner. */
export function mayInvite(actor: OrgRole, role: OrgRole): boolean {
  return mayChangeMember(actor, null, role);
}

/**
 * Whether the organization would be left without an owner if the member now holding `current` got `next` (null:
 * removed or left), given how many owners it has.
 */
export function leavesNoOwner(owners: number, current: OrgRole, next: OrgRole | null): boolean {
  return current === 'owner' && next !== 'owner' && owners <= 1;
}

/** The role a route's object rule asks for, met by the caller's role. */
export function meetsRole(role: OrgRole | null, floor: OrgRole): boolean {
  return role !== null && orgRoleAtLeast(role, floor);
}

/** Status of an invitation at `now`: its outcome once closed, else pending until it expires. */
export function invitationStatus(
  row: { outcome: 'accepted' | 'declined' | 'revoked' | null; expiresAt: Date },
  now: Date,
): 'pending' | 'accepted' | 'declined' | 'revoked' | 'expired' {
  if (row.outcome) return row.outcome;
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

/** Fields of an update that change something, by name (for the audit event). */
export function changedFields(update: Record<string, unknown>): string[] {
  return Object.keys(update)
    .filter((k) => update[k] !== undefined)
    .sort();
}
