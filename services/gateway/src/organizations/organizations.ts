import { AppError, type CallContext, type EventDef, newId, type PayloadOf, type ReplyOf } from '@rootline/contracts';
import { APP_PAGES } from '@rootline/contracts/app-links';
import {
  type InvitationAnswer,
  type InvitationInput,
  type InvitationPreview,
  type MyOrganization,
  type Organization,
  type OrganizationInput,
  type OrganizationInvitation,
  type OrganizationMember,
  type OrganizationUpdate,
  type OrgRole,
  organizationCreated,
  organizationDissolved,
  organizationInvitationDeclined,
  type organizationInvitationIssue,
  organizationInvitationRevoked,
  organizationInvitationSent,
  organizationMemberAdded,
  organizationMemberLeft,
  organizationMemberRemoved,
  organizationMemberRoleChanged,
  organizationUpdated,
} from '@rootline/contracts/organizations';
import type { Db, Outbox } from '@rootline/db';
import { applyPrivacyLevel, secureRandom } from '@rootline/domain';
import type { Clock } from '@rootline/host';
import { findUserById } from '../identity/db/users.repo.js';
import { normalizeEmail } from '../identity/domain/email.js';
import { hashSecret, randomSecret } from '../identity/domain/secrets.js';
import {
  closeInvitation,
  deleteMember,
  dissolveOrganization,
  findOpenInvitation,
  findOpenInvitationByHash,
  findOrganization,
  type InvitationRow,
  insertInvitation,
  insertMember,
  insertOrganization,
  listMembers,
  listMemberships,
  listOrganizations,
  listPendingInvitations,
  lockOrganization,
  membershipOf,
  membersWithRoles,
  type OrganizationWithCount,
  organizationNames,
  rekeyInvitation,
  roleOf,
  setMemberRole,
  updateOrganization,
} from './db/organizations.repo.js';
import {
  changedFields,
  invitationStatus,
  leavesNoOwner,
  mayChangeMember,
  mayInvite,
  meetsRole,
} from './domain/roles.js';

export interface OrganizationDeps {
  db: Db;
  /** The gateway's outbox (identity schema): events reach the bus after their transaction commits. */
  outbox: Outbox;
  clock: Clock;
  /** How long an invitation link works. */
  invitationTtlMs: number;
}

export function organizationView(row: OrganizationWithCount): Organization {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    description: row.description,
    website: row.website,
    location: row.location ?? null,
    privacyLevel: row.privacyLevel,
    memberCount: row.memberCount,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function invitationView(row: InvitationRow, now: Date): OrganizationInvitation {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    status: invitationStatus(row, now),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

const notFound = (id: string) =>
  new AppError('NOT_FOUND', `Organization ${id} not found`, { reason: 'organization-not-found' });
const invalidInvitation = () =>
  new AppError('VALIDATION_ERROR', 'body/token is invalid, used, revoked or expired', [
    { field: 'body/token', message: 'is invalid, used, revoked or expired', reason: 'invitation-invalid' },
  ]);
const lastOwner = () =>
  new AppError('CONFLICT', 'An organization keeps at least one owner: make another member owner first', {
    reason: 'LAST_OWNER',
  });
const ownerOnly = () =>
  new AppError('FORBIDDEN', 'Only an owner may make owners or change an owner', { reason: 'OWNER_ONLY' });

/**
 * Organizations, their members and invitations. Every check of a caller's role reads the membership in the same
 * request (never a cache), so a removed member or a lowered role takes effect on the next request, whatever the
 * credential (ADR 235).
 */
export function createOrganizations(deps: OrganizationDeps) {
  const { db, outbox, clock } = deps;

  /** The caller's role in the organization; 404 when it does not exist (or is dissolved), 403 below `floor`. */
  async function requireRole(organizationId: string, userId: string, floor: OrgRole): Promise<OrgRole> {
    const role = await roleOf(db, organizationId, userId);
    if (role === null) {
      if (!(await findOrganization(db, organizationId))) throw notFound(organizationId);
      throw new AppError('FORBIDDEN', `You are not a member of organization ${organizationId}`, {
        reason: 'not-a-member',
        required: floor,
      });
    }
    if (!meetsRole(role, floor)) {
      throw new AppError('FORBIDDEN', `This needs the role ${floor} or above in the organization; you are ${role}`, {
        reason: 'org-role',
        required: floor,
        role,
      });
    }
    return role;
  }

  /** The event's common part: the organization and who hears of it (its owners and managers, after the change). */
  async function base(tx: Db, org: { id: string; name: string }) {
    return {
      organizationId: org.id,
      organizationName: org.name,
      audience: await membersWithRoles(tx, org.id, ['owner', 'manager']),
    };
  }

  async function emit<E extends EventDef>(tx: Db, def: E, payload: PayloadOf<E>, ctx: CallContext): Promise<void> {
    await outbox.enqueue(tx, def, payload, ctx);
  }

  async function current(id: string): Promise<OrganizationWithCount> {
    const org = await findOrganization(db, id);
    if (!org) throw notFound(id);
    return org;
  }

  return {
    requireRole,

    /** The caller's role in a live organization and its name, read afresh (ADR 235): acting for it (ADR 237). */
    membership(organizationId: string, userId: string): Promise<{ role: OrgRole; name: string } | null> {
      return membershipOf(db, organizationId, userId);
    },

    /** The names of those of `ids` that are organizations, dissolved ones too (records they owned still name them). */
    names(ids: readonly string[]): Promise<ReadonlyMap<string, string>> {
      const orgIds = ids.filter((id) => id.startsWith('org_'));
      return orgIds.length === 0 ? Promise.resolve(new Map()) : organizationNames(db, orgIds);
    },

    async create(userId: string, input: OrganizationInput, ctx: CallContext): Promise<MyOrganization> {
      const now = clock.now();
      const privacyLevel = input.privacyLevel ?? 'city';
      const id = newId('org', now.getTime());
      await db.transaction(async (tx) => {
        const row = await insertOrganization(tx, {
          id,
          name: input.name.trim(),
          kind: input.kind,
          description: input.description?.trim() ?? '',
          website: input.website ?? null,
          location: input.location ? applyPrivacyLevel(input.location, privacyLevel, secureRandom) : null,
          privacyLevel,
          createdBy: userId,
          createdAt: now,
          updatedAt: now,
        });
        await insertMember(tx, { organizationId: id, userId, role: 'owner', joinedAt: now });
        await emit(tx, organizationCreated, { ...(await base(tx, row)), kind: row.kind, createdBy: userId }, ctx);
      });
      return { ...organizationView(await current(id)), role: 'owner' };
    },

    async get(id: string): Promise<Organization> {
      return organizationView(await current(id));
    },

    async list(filter: { q?: string | undefined; kind?: string | undefined }, page: number, limit: number) {
      const { rows, total } = await listOrganizations(db, filter, page, limit);
      return { items: rows.map(organizationView), total };
    },

    async mine(userId: string): Promise<MyOrganization[]> {
      return (await listMemberships(db, userId)).map((r) => ({ ...organizationView(r), role: r.role }));
    },

    async update(userId: string, id: string, input: OrganizationUpdate, ctx: CallContext): Promise<Organization> {
      await requireRole(id, userId, 'manager');
      const now = clock.now();
      await db.transaction(async (tx) => {
        if (!(await lockOrganization(tx, id))) throw notFound(id);
        const before = (await findOrganization(tx, id)) as OrganizationWithCount;
        const privacyLevel = input.privacyLevel ?? before.privacyLevel;
        const set: Parameters<typeof updateOrganization>[2] = {};
        if (input.name !== undefined) set.name = input.name.trim();
        if (input.kind !== undefined) set.kind = input.kind;
        if (input.description !== undefined) set.description = input.description.trim();
        if (input.website !== undefined) set.website = input.website;
        if (input.privacyLevel !== undefined) set.privacyLevel = privacyLevel;
        if (input.location !== undefined) {
          set.location = input.location ? applyPrivacyLevel(input.location, privacyLevel, secureRandom) : null;
        } else if (input.privacyLevel !== undefined && before.location) {
          // The stored location is already coarsened: a level may only coarsen it further, never sharpen it back.
          set.location = applyPrivacyLevel(before.location, privacyLevel, secureRandom);
        }
        await updateOrganization(tx, id, set, now);
        await emit(
          tx,
          organizationUpdated,
          {
            ...(await base(tx, { id, name: set.name ?? before.name })),
            fields: changedFields(input),
            changedBy: userId,
          },
          ctx,
        );
      });
      return organizationView(await current(id));
    },

    /**
     * Dissolves an organization (owners only): the row stays, marked dissolved, so the audit log and the records it
     * will own keep naming it; it disappears from every read, its members lose their roles at once, and its open
     * invitations stop working.
     */
    async dissolve(userId: string, id: string, ctx: CallContext): Promise<Organization> {
      await requireRole(id, userId, 'owner');
      const org = await current(id);
      await db.transaction(async (tx) => {
        if (!(await lockOrganization(tx, id))) throw notFound(id);
        const payload = { ...(await base(tx, org)), dissolvedBy: userId };
        await dissolveOrganization(tx, id, userId, clock.now());
        await emit(tx, organizationDissolved, payload, ctx);
      });
      return organizationView(org);
    },

    async members(userId: string, id: string): Promise<OrganizationMember[]> {
      await requireRole(id, userId, 'viewer');
      return (await listMembers(db, id)).map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() }));
    },

    /** Changes a member's role; refuses what the caller's role may not do and leaving the organization without owner. */
    async changeRole(
      actorId: string,
      id: string,
      memberId: string,
      role: OrgRole,
      ctx: CallContext,
    ): Promise<OrganizationMember> {
      const actorRole = await requireRole(id, actorId, 'manager');
      await db.transaction(async (tx) => {
        if (!(await lockOrganization(tx, id))) throw notFound(id);
        const currentRole = await roleOf(tx, id, memberId);
        if (currentRole === null)
          throw new AppError('NOT_FOUND', `Account ${memberId} is not a member`, { reason: 'member-not-found' });
        if (currentRole === role) return;
        if (!mayChangeMember(actorRole, currentRole, role)) throw ownerOnly();
        const owners = (await membersWithRoles(tx, id, ['owner'])).length;
        if (leavesNoOwner(owners, currentRole, role)) throw lastOwner();
        await setMemberRole(tx, id, memberId, role);
        const org = (await findOrganization(tx, id)) as OrganizationWithCount;
        await emit(
          tx,
          organizationMemberRoleChanged,
          { ...(await base(tx, org)), userId: memberId, role, previousRole: currentRole, changedBy: actorId },
          ctx,
        );
      });
      const member = (await listMembers(db, id)).find((m) => m.userId === memberId);
      if (!member)
        throw new AppError('NOT_FOUND', `Account ${memberId} is not a member`, { reason: 'member-not-found' });
      return { ...member, joinedAt: member.joinedAt.toISOString() };
    },

    /** Removes a member (managers and owners), or lets the caller leave (`memberId` is then the caller). */
    async remove(
      actorId: string,
      id: string,
      memberId: string,
      ctx: CallContext,
      leaving = false,
    ): Promise<OrganizationMember> {
      const actorRole = await requireRole(id, actorId, leaving ? 'viewer' : 'manager');
      const members = await listMembers(db, id);
      const gone = members.find((m) => m.userId === memberId);
      if (!gone) throw new AppError('NOT_FOUND', `Account ${memberId} is not a member`, { reason: 'member-not-found' });
      await db.transaction(async (tx) => {
        if (!(await lockOrganization(tx, id))) throw notFound(id);
        const currentRole = await roleOf(tx, id, memberId);
        if (currentRole === null)
          throw new AppError('NOT_FOUND', `Account ${memberId} is not a member`, { reason: 'member-not-found' });
        if (!leaving && !mayChangeMember(actorRole, currentRole, null)) throw ownerOnly();
        const owners = (await membersWithRoles(tx, id, ['owner'])).length;
        if (leavesNoOwner(owners, currentRole, null)) throw lastOwner();
        await deleteMember(tx, id, memberId);
        const org = (await findOrganization(tx, id)) as OrganizationWithCount;
        const common = { ...(await base(tx, org)), userId: memberId, role: currentRole };
        if (leaving) await emit(tx, organizationMemberLeft, common, ctx);
        else await emit(tx, organizationMemberRemoved, { ...common, removedBy: actorId }, ctx);
      });
      return { ...gone, joinedAt: gone.joinedAt.toISOString() };
    },

    /**
     * Invites an address with a role (managers below owner). The email is asked of notify by an event that names
     * the invitation, never its secret: the secret is minted when the email is sent (`issueLink`).
     */
    async invite(
      actorId: string,
      id: string,
      input: InvitationInput,
      ctx: CallContext,
    ): Promise<OrganizationInvitation> {
      const actorRole = await requireRole(id, actorId, 'manager');
      if (!mayInvite(actorRole, input.role)) throw ownerOnly();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + deps.invitationTtlMs);
      const inviter = await findUserById(db, actorId);
      const row = await db.transaction(async (tx) => {
        if (!(await lockOrganization(tx, id))) throw notFound(id);
        const org = (await findOrganization(tx, id)) as OrganizationWithCount;
        const created = await insertInvitation(tx, {
          id: newId('oin', now.getTime()),
          organizationId: id,
          email: normalizeEmail(input.email),
          role: input.role,
          invitedBy: actorId,
          // The hash of a secret nobody knows until the email is sent.
          tokenHash: hashSecret(randomSecret()),
          createdAt: now,
          expiresAt,
        });
        await emit(
          tx,
          organizationInvitationSent,
          {
            ...(await base(tx, org)),
            invitationId: created.id,
            role: created.role,
            invitedBy: actorId,
            invitedByName: inviter?.name ?? 'A member',
            expiresAt: expiresAt.toISOString(),
          },
          ctx,
        );
        return created;
      });
      return invitationView(row, now);
    },

    async invitations(actorId: string, id: string): Promise<OrganizationInvitation[]> {
      await requireRole(id, actorId, 'manager');
      const now = clock.now();
      return (await listPendingInvitations(db, id, now)).map((r) => invitationView(r, now));
    },

    async revoke(actorId: string, id: string, invitationId: string, ctx: CallContext): Promise<OrganizationInvitation> {
      await requireRole(id, actorId, 'manager');
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const open = await findOpenInvitation(tx, invitationId, now);
        if (!open || open.organizationId !== id) {
          throw new AppError('NOT_FOUND', `No pending invitation ${invitationId} in organization ${id}`, {
            reason: 'invitation-invalid',
          });
        }
        const closed = await closeInvitation(tx, invitationId, 'revoked', actorId, now);
        if (!closed)
          throw new AppError('NOT_FOUND', `No pending invitation ${invitationId} in organization ${id}`, {
            reason: 'invitation-invalid',
          });
        const org = (await findOrganization(tx, id)) as OrganizationWithCount;
        await emit(
          tx,
          organizationInvitationRevoked,
          { ...(await base(tx, org)), invitationId, revokedBy: actorId },
          ctx,
        );
        return closed;
      });
      return invitationView(row, now);
    },

    /** What the invitation page shows for a link's secret. */
    async preview(token: string): Promise<InvitationPreview> {
      const row = await findOpenInvitationByHash(db, hashSecret(token), clock.now());
      const org = row && (await findOrganization(db, row.organizationId));
      if (!row || !org) throw invalidInvitation();
      const inviter = await findUserById(db, row.invitedBy);
      return {
        invitationId: row.id,
        organization: organizationView(org),
        role: row.role,
        invitedByName: inviter?.name ?? 'A member',
        expiresAt: row.expiresAt.toISOString(),
      };
    },

    /**
     * Accepts (or declines) an invitation with its link's secret, once, as the signed-in caller: the link reached the
     * invited mailbox, so whoever holds it may answer it with the account they choose (ADR 236). A member already in
     * the organization keeps the stronger of the two roles.
     */
    async answer(userId: string, token: string, accept: boolean, ctx: CallContext): Promise<InvitationAnswer> {
      const now = clock.now();
      const result = await db.transaction(async (tx) => {
        const open = await findOpenInvitationByHash(tx, hashSecret(token), now);
        if (!open || !(await lockOrganization(tx, open.organizationId))) throw invalidInvitation();
        const closed = await closeInvitation(tx, open.id, accept ? 'accepted' : 'declined', userId, now);
        if (!closed) throw invalidInvitation();
        const org = (await findOrganization(tx, open.organizationId)) as OrganizationWithCount;
        if (!accept) {
          await emit(
            tx,
            organizationInvitationDeclined,
            { ...(await base(tx, org)), invitationId: open.id, role: open.role, userId },
            ctx,
          );
          return { orgId: org.id, role: null };
        }
        const had = await roleOf(tx, org.id, userId);
        const role = had !== null && meetsRole(had, open.role) ? had : open.role;
        if (had !== role) await insertMember(tx, { organizationId: org.id, userId, role, joinedAt: now });
        await emit(tx, organizationMemberAdded, { ...(await base(tx, org)), userId, role, invitationId: open.id }, ctx);
        return { orgId: org.id, role };
      });
      return { organization: organizationView(await current(result.orgId)), role: result.role };
    },

    /**
     * The secret of an invitation's link, for the email that sends it: a new secret on each call (the previous one
     * stops working); NOT_FOUND when the invitation is closed or expired. The secret lives only in this reply.
     */
    /** The account ids of its owners and managers now (none for an unknown or dissolved organization). */
    async audience(id: string): Promise<string[]> {
      return membersWithRoles(db, id, ['owner', 'manager']);
    },

    async issueLink(invitationId: string): Promise<ReplyOf<typeof organizationInvitationIssue>> {
      const token = randomSecret();
      const row = await rekeyInvitation(db, invitationId, hashSecret(token), clock.now());
      if (!row)
        throw new AppError('NOT_FOUND', 'The invitation is answered, revoked or expired', {
          reason: 'invitation-invalid',
        });
      return {
        invitationId,
        email: row.email,
        token,
        expiresAt: row.expiresAt.toISOString(),
        linkPath: `${APP_PAGES.organizationInvitation}?token=${encodeURIComponent(token)}`,
      };
    },
  };
}

export type Organizations = ReturnType<typeof createOrganizations>;
