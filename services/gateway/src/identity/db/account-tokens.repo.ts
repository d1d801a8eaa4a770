import type { Db } from '@rootline/db';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { type AccountTokenPurpose, accountTokens } from './schema.js';

/**
 * Stores a new one-time token and invalidates the account's earlier unused ones of the same purpose, so only
 * the latest email's link works.
 */
export async function replaceAccountToken(
  db: Db,
  row: { id: string; userId: string; purpose: AccountTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(eq(accountTokens.userId, row.userId), eq(accountTokens.purpose, row.purpose), isNull(accountTokens.usedAt)),
    );
  await db.insert(accountTokens).values(row);
}

/**
 * Gives an unused, unexpired token a new secret (its hash), so the previous secret stops working. Returns the
 * token's account, purpose and expiry, or null when the token is used, replaced or expired.
 */
export async function rekeyAccountToken(
  db: Db,
  id: string,
  tokenHash: string,
): Promise<{ userId: string; purpose: AccountTokenPurpose; expiresAt: Date } | null> {
  const [row] = await db
    .update(accountTokens)
    .set({ tokenHash })
    .where(and(eq(accountTokens.id, id), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, sql`now()`)))
    .returning({ userId: accountTokens.userId, purpose: accountTokens.purpose, expiresAt: accountTokens.expiresAt });
  return row ?? null;
}

/** The token with this hash and purpose, if it is unused and unexpired. */
const usable = (tokenHash: string, purpose: AccountTokenPurpose) =>
  and(
    eq(accountTokens.tokenHash, tokenHash),
    eq(accountTokens.purpose, purpose),
    isNull(accountTokens.usedAt),
    gt(accountTokens.expiresAt, sql`now()`),
  );

/**
 * Uses a one-time token: marks it used if it exists for this purpose, is unused and unexpired, in one
 * statement (two concurrent uses cannot both succeed). Returns the account id, or null.
 */
export async function consumeAccountToken(
  db: Db,
  tokenHash: string,
  purpose: AccountTokenPurpose,
): Promise<string | null> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(usable(tokenHash, purpose))
    .returning({ userId: accountTokens.userId });
  return row?.userId ?? null;
}

/** The unused, unexpired token with this hash and purpose (without using it), or null. */
export async function findAccountToken(
  db: Db,
  tokenHash: string,
  purpose: AccountTokenPurpose,
): Promise<{ userId: string } | null> {
  const [row] = await db
    .select({ userId: accountTokens.userId })
    .from(accountTokens)
    .where(usable(tokenHash, purpose))
    .limit(1);
  return row ?? null;
}
