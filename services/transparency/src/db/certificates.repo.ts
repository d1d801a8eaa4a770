import type { CertificateRevocation } from '@rootline/contracts';
import { newId } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { auditEntries, certificates } from './schema.js';

/** The audit entry that recorded a plant's registration (`plant.registered` about it), if recorded yet. */
export function registrationEntry(db: Db, plantId: string): Promise<{ index: number; leafHash: string } | undefined> {
  return firstEntryAbout(db, 'plant.registered', plantId);
}

/** The first audit entry of `kind` about `entity` (a plant's registration, a journey event's record), if any yet. */
export async function firstEntryAbout(
  db: Db,
  kind: string,
  entity: string,
): Promise<{ index: number; leafHash: string } | undefined> {
  const [row] = await db
    .select({ index: auditEntries.index, leafHash: auditEntries.leafHash })
    .from(auditEntries)
    .where(and(eq(auditEntries.kind, kind), eq(auditEntries.entity, entity)))
    .orderBy(asc(auditEntries.index))
    .limit(1);
  return row;
}

/** The id of the plant's current (unrevoked) certificate, given on first issue. */
export async function currentCertificateId(db: Db, plantId: string, now: Date): Promise<string> {
  const current = () =>
    db
      .select({ id: certificates.id })
      .from(certificates)
      .where(and(eq(certificates.plantId, plantId), isNull(certificates.revokedAt)));
  const [found] = await current();
  if (found) return found.id;
  // Two first issues at once: the partial unique index keeps one, and both read it back.
  await db
    .insert(certificates)
    .values({ id: newId('cer', now.getTime()), plantId, createdAt: now.toISOString() })
    .onConflictDoNothing();
  const [made] = await current();
  if (!made) throw new Error(`no current certificate for ${plantId}`);
  return made.id;
}

export async function findCertificate(db: Db, id: string) {
  const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
  return row;
}

/** Marks a certificate revoked inside the caller's transaction; false when it was revoked already. */
export async function markRevoked(
  tx: Db,
  r: { id: string; by: string; reason: string; at: string; auditIndex: number },
): Promise<boolean> {
  const rows = await tx
    .update(certificates)
    .set({ revokedAt: r.at, revokedBy: r.by, reason: r.reason, auditIndex: r.auditIndex })
    .where(and(eq(certificates.id, r.id), isNull(certificates.revokedAt)))
    .returning({ id: certificates.id });
  return rows.length > 0;
}

/** Every revocation, oldest first. */
export async function listRevocations(db: Db): Promise<CertificateRevocation[]> {
  const rows = await db
    .select()
    .from(certificates)
    .where(isNotNull(certificates.revokedAt))
    .orderBy(asc(certificates.revokedAt), asc(certificates.id));
  return rows.map((r) => ({
    certificateId: r.id,
    plantId: r.plantId,
    revokedAt: new Date(r.revokedAt as string).toISOString(),
    reason: r.reason ?? '',
    auditIndex: r.auditIndex ?? 0,
  }));
}
