import { type AuditEntry, newId, type SignatureKey } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { auditEntries, signingKeys, subjectSignatures } from './schema.js';

export type KeyRow = typeof signingKeys.$inferSelect;
export type SignatureRow = typeof subjectSignatures.$inferSelect;

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
    .values({ id: newId('sgk'), ...k })
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

/** Revokes a key (kept, so the signatures made with it still verify); answers the row after. */
export async function revokeKey(db: Db, id: string, at: Date): Promise<KeyRow | undefined> {
  const [row] = await db.update(signingKeys).set({ revokedAt: at }).where(eq(signingKeys.id, id)).returning();
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
    .values({ id: newId('sig'), ...s })
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
