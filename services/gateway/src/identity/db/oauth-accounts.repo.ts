import type { Db } from '@rootline/db';
import { and, eq } from 'drizzle-orm';
import { oauthAccounts } from './schema.js';

/** The local account linked to a provider identity, or null. */
export async function findLinkedUserId(db: Db, provider: string, providerAccountId: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: oauthAccounts.userId })
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.provider, provider), eq(oauthAccounts.providerAccountId, providerAccountId)))
    .limit(1);
  return row?.userId ?? null;
}

export async function linkOAuthAccount(
  db: Db,
  row: { provider: string; providerAccountId: string; userId: string; email: string | null },
): Promise<void> {
  await db.insert(oauthAccounts).values(row);
}
