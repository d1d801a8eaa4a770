import { type Db, prepared } from '@rootline/db';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { sessions, users } from './schema.js';
import type { UserRow } from './users.repo.js';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: Db, row: typeof sessions.$inferInsert): Promise<SessionRow> {
  const [created] = await db.insert(sessions).values(row).returning();
  return created!;
}

/** A session that is neither revoked nor expired, with its account; null otherwise. */
// Every authenticated request runs this lookup, so it is a prepared statement (no query building, no re-planning).
export async function findLiveSession(db: Db, id: string): Promise<{ session: SessionRow; user: UserRow } | null> {
  const live = prepared(db, 'identity_live_session', (d) =>
    d
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(eq(sessions.id, sql.placeholder('id')), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)),
      )
      .limit(1)
      .prepare('identity_live_session'),
  );
  const [row] = await live.execute({ id });
  return row ?? null;
}

/** Ends one session of the given account; true when a live one was ended. */
export async function revokeSession(db: Db, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Ends every live session of an account, except `keep` if given; returns how many were ended. */
export async function revokeUserSessions(db: Db, userId: string, keep?: string): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined))
    .returning({ id: sessions.id });
  return rows.length;
}
