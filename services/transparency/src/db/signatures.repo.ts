import { type AuditEntry, newId, type SignatureKey } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, count, desc, eq, isNull, lt, ne } from 'drizzle-orm';
import { auditEntries, signingKeyChallenges, signingKeys, subjectSignatures } from './schema.js';

export type KeyRow = typeof signingKeys.$inferSelect;
export type SignatureRow = typeof subjectSignatures.$inferSelect;
export type ChallengeRow = typeof signingKeyChallenges.$inferSelect;

/** Stores a new challenge, and drops challenges that expired more than `keepExpiredMs` ago. */
export async function insertChallenge(db: Db, row: ChallengeRow, keepExpiredMs: number): Promise<void> {
  await db
    .delete(signingKeyChallenges)
    .where(lt(signingKeyChallenges.expiresAt, new Date(row.createdAt.getTime() - keepExpiredMs)));
  await db.insert(signingKeyChallenges).values(row);
}

export async function findChallenge(db: Db, challenge: string): Promise<ChallengeRow | undefined> {
  const [row] = await db.select().from(signingKeyChallenges).where(eq(signingKeyChallenges.challenge, challenge));
  return row;
}

/** Marks a challenge used, if it still was not; false when another request used it first. */
export async function useChallenge(db: Db, challenge: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(signingKeyChallenges)
    .set({ usedAt: at })
    .where(and(eq(signingKeyChallenges.challenge, challenge), isNull(signingKeyChallenges.usedAt)))
    .returning({ challenge: signingKeyChallenges.challenge });
  return rows.length > 0;
}

/** Whether a user other than `ownerId` registered the key (revoked or not). */
export async function keyOfAnotherOwner(db: Db, fingerprint: string, ownerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: signingKeys.id })
    .from(signingKeys)
    .where(and(eq(signingKeys.fingerprint, fingerprint), ne(signingKeys.ownerId, ownerId)))
    .limit(1);
  return row !== undefined;
}

export function toSignatureKey(r: KeyRow): SignatureKey {
  return {
    id: r.id,
    ownerId: r.ownerId,
    publicKey: r.publicKey,
    fingerprint: r.fingerprint,
    label: r.label,
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
  };
}

/** Stores a key; undefined when the owner registered the same key before (unique per owner and fingerprint). */
export async function insertKey(
  db: Db,
  k: { ownerId: string; publicKey: string; fingerprint: string; label: string | null; createdAt: Date },
): Promise<KeyRow | undefined> {
  const [row] = await db
    .insert(signingKeys)
    .values({ id: newId('sgk', k.createdAt.getTime()), ...k })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function findKey(db: Db, id: string): Promise<KeyRow | undefined> {
  const [row] = await db.select().from(signingKeys).where(eq(signingKeys.id, id));
  return row;
}

export async function listKeys(db: Db, ownerId: string, page: number, limit: number) {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(signingKeys)
      .where(eq(signingKeys.ownerId, ownerId))
      .orderBy(asc(signingKeys.createdAt), asc(signingKeys.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(signingKeys).where(eq(signingKeys.ownerId, ownerId)),
  ]);
  return { items: rows.map(toSignatureKey), total: counted?.n ?? 0 };
}

/**
 * Revokes a key (kept, so the signatures made with it still verify); answers the row after, or undefined when it
 * was revoked already (a concurrent revocation's time stands).
 */
export async function revokeKey(db: Db, id: string, at: Date): Promise<KeyRow | undefined> {
  const [row] = await db
    .update(signingKeys)
    .set({ revokedAt: at })
    .where(and(eq(signingKeys.id, id), isNull(signingKeys.revokedAt)))
    .returning();
  return row;
}

/**
 * The first audit entry of `kind` about `entity`, from this service's own log (never another service's
 * tables): the event that recorded the subject, with its leaf hash.
 */
export async function subjectEntry(
  db: Db,
  kind: string,
  entity: string,
): Promise<{ entry: AuditEntry; leafHash: string } | undefined> {
  const [row] = await db
    .select({ body: auditEntries.body, leafHash: auditEntries.leafHash })
    .from(auditEntries)
    .where(and(eq(auditEntries.entity, entity), eq(auditEntries.kind, kind)))
    .orderBy(asc(auditEntries.index))
    .limit(1);
  return row ? { entry: JSON.parse(row.body) as AuditEntry, leafHash: row.leafHash } : undefined;
}

/** Stores a verified signature; undefined when this key already signed this subject. */
export async function insertSignature(db: Db, s: Omit<SignatureRow, 'id'>): Promise<SignatureRow | undefined> {
  const [row] = await db
    .insert(subjectSignatures)
    .values({ id: newId('sig', s.createdAt.getTime()), ...s })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Signatures of a subject, oldest first, with their keys. */
export async function listSignatures(db: Db, subjectType: string, subjectId: string, page: number, limit: number) {
  const where = and(eq(subjectSignatures.subjectType, subjectType), eq(subjectSignatures.subjectId, subjectId));
  const [rows, [counted]] = await Promise.all([
    db
      .select({ s: subjectSignatures, k: signingKeys })
      .from(subjectSignatures)
      .innerJoin(signingKeys, eq(signingKeys.id, subjectSignatures.keyId))
      .where(where)
      .orderBy(asc(subjectSignatures.createdAt), desc(subjectSignatures.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(subjectSignatures).where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}
