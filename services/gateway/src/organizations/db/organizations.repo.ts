import type { OrgRole } from '@rootline/contracts/organizations';
import type { Db } from '@rootline/db';
import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { organizationInvitations, organizationMembers, organizations, users } from '../../identity/db/schema.js';

export type OrganizationRow = typeof organizations.$inferSelect;
export type MemberRow = typeof organizationMembers.$inferSelect;
export type InvitationRow = typeof organizationInvitations.$inferSelect;
/** An organization with how many members it has. */
export type OrganizationWithCount = OrganizationRow & { memberCount: number };

const memberCount = sql<number>`(select count(*)::int from ${organizationMembers} m where m.organization_id = ${organizations.id})`;

export async function insertOrganization(db: Db, row: typeof organizations.$inferInsert): Promise<OrganizationRow> {
  const [created] = await db.insert(organizations).values(row).returning();
  return created!;
}

/** A live (not dissolved) organization with its member count; null otherwise. */
export async function findOrganization(db: Db, id: string): Promise<OrganizationWithCount | null> {
  const [row] = await db
    .select({ org: organizations, memberCount })
    .from(organizations)
    .where(and(eq(organizations.id, id), isNull(organizations.dissolvedAt)))
    .limit(1);
  return row ? { ...row.org, memberCount: row.memberCount } : null;
}

/** Locks a live organization's row for the rest of the transaction (membership changes of one organization queue). */
export async function lockOrganization(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.id, id), isNull(organizations.dissolvedAt)))
    .for('update');
  return rows.length > 0;
}

export async function updateOrganization(
  db: Db,
  id: string,
  set: Partial<typeof organizations.$inferInsert>,
  now: Date,
): Promise<void> {
  await db
    .update(organizations)
    .set({ ...set, updatedAt: now })
    .where(and(eq(organizations.id, id), isNull(organizations.dissolvedAt)));
}

export async function dissolveOrganization(db: Db, id: string, by: string, now: Date): Promise<void> {
  await db
    .update(organizations)
    .set({ dissolvedAt: now, dissolvedBy: by, updatedAt: now })
    .where(and(eq(organizations.id, id), isNull(organizations.dissolvedAt)));
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of live organizations (by name), and the total, matching the words and kind given. */
export async function listOrganizations(
  db: Db,
  filter: { q?: string | undefined; kind?: string | undefined },
  page: number,
  limit: number,
): Promise<{ rows: OrganizationWithCount[]; total: number }> {
  const text = filter.q
    ? or(ilike(organizations.name, likePattern(filter.q)), ilike(organizations.description, likePattern(filter.q)))
    : undefined;
  const where: SQL | undefined = and(
    isNull(organizations.dissolvedAt),
    text,
    filter.kind ? eq(organizations.kind, filter.kind as OrganizationRow['kind']) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(organizations).where(where);
  const n = total?.n ?? 0;
  const offset = (page - 1) * limit;
  if (!Number.isSafeInteger(offset) || offset >= n) return { rows: [], total: n };
  const rows = await db
    .select({ org: organizations, memberCount })
    .from(organizations)
    .where(where)
    .orderBy(asc(organizations.name), asc(organizations.id))
    .limit(limit)
    .offset(offset);
  return { rows: rows.map((r) => ({ ...r.org, memberCount: r.memberCount })), total: n };
}

/** The live organizations an account belongs to, with its role, by name. */
export async function listMemberships(db: Db, userId: string): Promise<(OrganizationWithCount & { role: OrgRole })[]> {
  const rows = await db
    .select({ org: organizations, memberCount, role: organizationMembers.role })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(eq(organizationMembers.userId, userId), isNull(organizations.dissolvedAt)))
    .orderBy(asc(organizations.name), asc(organizations.id));
  return rows.map((r) => ({ ...r.org, memberCount: r.memberCount, role: r.role }));
}

/** The account's role in a live organization, read afresh (never cached): null when it is not a member. */
export async function roleOf(db: Db, organizationId: string, userId: string): Promise<OrgRole | null> {
  return (await membershipOf(db, organizationId, userId))?.role ?? null;
}

/**
 * The account's role in a live organization with the organization's name, read afresh (never cached): null when it is
 * not a member or the organization is unknown or dissolved. One primary-key read joined to the organization.
 */
export async function membershipOf(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<{ role: OrgRole; name: string } | null> {
  const [row] = await db
    .select({ role: organizationMembers.role, name: organizations.name })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.userId, userId),
        isNull(organizations.dissolvedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The names of those of `ids` that are live organizations (a dissolved one keeps its name: records still name it). */
export async function organizationNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(inArray(organizations.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function insertMember(db: Db, row: typeof organizationMembers.$inferInsert): Promise<MemberRow> {
  const [created] = await db
    .insert(organizationMembers)
    .values(row)
    .onConflictDoUpdate({
      target: [organizationMembers.organizationId, organizationMembers.userId],
      set: { role: row.role },
    })
    .returning();
  return created!;
}

export async function setMemberRole(db: Db, organizationId: string, userId: string, role: OrgRole): Promise<void> {
  await db
    .update(organizationMembers)
    .set({ role })
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
}

export async function deleteMember(db: Db, organizationId: string, userId: string): Promise<void> {
  await db
    .delete(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
}

/** The members with their current names, strongest role first, then by joining time. */
export async function listMembers(
  db: Db,
  organizationId: string,
): Promise<{ userId: string; name: string; role: OrgRole; joinedAt: Date }[]> {
  const rows = await db
    .select({
      userId: organizationMembers.userId,
      name: users.name,
      role: organizationMembers.role,
      joinedAt: organizationMembers.joinedAt,
    })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(eq(organizationMembers.organizationId, organizationId))
    .orderBy(
      sql`array_position(array['owner','manager','member','viewer'], ${organizationMembers.role})`,
      asc(organizationMembers.joinedAt),
      asc(organizationMembers.userId),
    );
  return rows;
}

/** Account ids holding one of the roles in the organization. */
export async function membersWithRoles(db: Db, organizationId: string, roles: readonly OrgRole[]): Promise<string[]> {
  const rows = await db
    .select({ userId: organizationMembers.userId })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), inArray(organizationMembers.role, [...roles])))
    .orderBy(asc(organizationMembers.userId));
  return rows.map((r) => r.userId);
}

export async function insertInvitation(
  db: Db,
  row: typeof organizationInvitations.$inferInsert,
): Promise<InvitationRow> {
  const [created] = await db.insert(organizationInvitations).values(row).returning();
  return created!;
}

/** Pending (open and unexpired) invitations of an organization, newest first. */
export async function listPendingInvitations(db: Db, organizationId: string, now: Date): Promise<InvitationRow[]> {
  return db
    .select()
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        isNull(organizationInvitations.closedAt),
        gt(organizationInvitations.expiresAt, now),
      ),
    )
    .orderBy(desc(organizationInvitations.createdAt), desc(organizationInvitations.id));
}

/** The invitation matching `match` while it is open and unexpired; null otherwise. */
async function findOpen(db: Db, match: SQL, now: Date): Promise<InvitationRow | null> {
  const [row] = await db
    .select()
    .from(organizationInvitations)
    .where(and(match, isNull(organizationInvitations.closedAt), gt(organizationInvitations.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

/** An open, unexpired invitation by its id; null otherwise. */
export function findOpenInvitation(db: Db, id: string, now: Date): Promise<InvitationRow | null> {
  return findOpen(db, eq(organizationInvitations.id, id), now);
}

/** An open, unexpired invitation by the hash of its secret; null otherwise. */
export function findOpenInvitationByHash(db: Db, tokenHash: string, now: Date): Promise<InvitationRow | null> {
  return findOpen(db, eq(organizationInvitations.tokenHash, tokenHash), now);
}

/** Gives an open invitation a new secret (the previous link stops working); null when it is closed or expired. */
export async function rekeyInvitation(db: Db, id: string, tokenHash: string, now: Date): Promise<InvitationRow | null> {
  const [row] = await db
    .update(organizationInvitations)
    .set({ tokenHash })
    .where(
      and(
        eq(organizationInvitations.id, id),
        isNull(organizationInvitations.closedAt),
        gt(organizationInvitations.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Closes an open invitation once (accepted, declined or revoked); null when it was already closed. */
export async function closeInvitation(
  db: Db,
  id: string,
  outcome: 'accepted' | 'declined' | 'revoked',
  by: string,
  now: Date,
): Promise<InvitationRow | null> {
  const [row] = await db
    .update(organizationInvitations)
    .set({ closedAt: now, outcome, answeredBy: by })
    .where(and(eq(organizationInvitations.id, id), isNull(organizationInvitations.closedAt)))
    .returning();
  return row ?? null;
}
