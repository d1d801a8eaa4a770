import type { Db } from '@rootline/db';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { apiTokens, users } from './schema.js';
import type { UserRow } from './users.repo.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

export async function insertApiToken(db: Db, row: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
  const [created] = await db.insert(apiTokens).values(row).returning();
  return created!;
}

const live = () =>
  and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql`now()`)));

/** The live (not revoked, not expired) token with this hash, with its owner; null otherwise. */
export async function findLiveApiToken(
  db: Db,
  tokenHash: string,
): Promise<{ token: ApiTokenRow; user: UserRow } | null> {
  const [row] = await db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, tokenHash), live()))
    .limit(1);
  return row ?? null;
}

/** The account's live tokens, newest first. */
export async function listLiveApiTokens(db: Db, userId: string): Promise<ApiTokenRow[]> {
  return db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), live()))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** Revokes one of the account's tokens; the revoked row, or null when it has none live with that id. */
export async function revokeApiToken(db: Db, userId: string, id: string): Promise<ApiTokenRow | null> {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning();
  return row ?? null;
}

/** Records use, at most once a minute per token, so busy tokens do not write on every request. */
export async function touchApiToken(db: Db, id: string): Promise<void> {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiTokens.id, id),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`now() - interval '1 minute'`)),
      ),
    );
}
