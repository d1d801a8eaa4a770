import type { Locale, Role } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, count, eq, gt, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { users } from './schema.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** Postgres' unique-violation code, raised when an email is registered twice at the same moment. */
const UNIQUE_VIOLATION = '23505';

/** True when a database error is a unique-constraint violation. */
export function isUniqueViolation(err: unknown): boolean {
  const code =
    (err as { code?: unknown; cause?: { code?: unknown } })?.code ??
    (err as { cause?: { code?: unknown } })?.cause?.code;
  return code === UNIQUE_VIOLATION;
}

export async function insertUser(db: Db, row: NewUser): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  return created!;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** The display names of those of `ids` that are accounts, by id: one primary-key read of them all. */
export async function findUserNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function setPasswordHash(db: Db, id: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.id, id));
}

/** Marks the address confirmed (keeps the first confirmation time); returns the updated row. */
export async function markEmailVerified(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}

export async function setRole(db: Db, id: string, role: Role): Promise<UserRow | null> {
  const [row] = await db.update(users).set({ role, updatedAt: sql`now()` }).where(eq(users.id, id)).returning();
  return row ?? null;
}

export async function setLocale(db: Db, id: string, locale: Locale | null): Promise<UserRow | null> {
  const [row] = await db.update(users).set({ locale, updatedAt: sql`now()` }).where(eq(users.id, id)).returning();
  return row ?? null;
}

export async function countByRole(db: Db, role: Role): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, role));
  return row?.n ?? 0;
}

/** What an administrator narrows the list of accounts by. */
export interface UserFilter {
  /** Text the email address or the name contains, any case. */
  q?: string | undefined;
  role?: Role | undefined;
}

/** `%` and `_` of the text match themselves, not any characters. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function userFilter({ q, role }: UserFilter): SQL | undefined {
  const text = q ? or(ilike(users.email, likePattern(q)), ilike(users.name, likePattern(q))) : undefined;
  return and(text, role ? eq(users.role, role) : undefined);
}

/** One page of accounts, oldest first, and the total, of those the filter keeps. */
export async function listUsers(
  db: Db,
  page: number,
  limit: number,
  filter: UserFilter = {},
): Promise<{ rows: UserRow[]; total: number }> {
  const where = userFilter(filter);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const offset = (page - 1) * limit;
  // A page far past the end is empty, not an offset too large for the database.
  if (!Number.isSafeInteger(offset) || offset >= (total?.n ?? 0)) return { rows: [], total: total?.n ?? 0 };
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(limit)
    .offset(offset);
  return { rows, total: total?.n ?? 0 };
}

/** Accounts in id order after `after` (keyset paging), for notify's resynchronisation of recipients. */
export async function usersAfter(db: Db, after: string | undefined, limit: number): Promise<UserRow[]> {
  const q = db.select().from(users);
  return (after === undefined ? q : q.where(gt(users.id, after))).orderBy(asc(users.id)).limit(limit);
}
