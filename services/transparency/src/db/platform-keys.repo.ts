import type { Db } from '@rootline/db';
import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { auditEntries, auditHead, platformKeys } from './schema.js';

export interface PlatformKeyRow {
  keyId: string;
  publicKeyPem: string;
  validFrom: string;
  validUntil: string | null;
}

const iso = (t: string) => new Date(t).toISOString();
const toRow = (r: typeof platformKeys.$inferSelect): PlatformKeyRow => ({
  keyId: r.keyId,
  publicKeyPem: r.publicKeyPem,
  validFrom: iso(r.validFrom),
  validUntil: r.validUntil ? iso(r.validUntil) : null,
});

/** Every recorded key, newest first. */
export async function listPlatformKeys(db: Db): Promise<PlatformKeyRow[]> {
  const rows = await db.select().from(platformKeys).orderBy(desc(platformKeys.validFrom), desc(platformKeys.keyId));
  return rows.map(toRow);
}

/** Locks the audit head, so two replicas starting at once record or rotate the key one after the other. */
export async function lockForKeyChange(tx: Db): Promise<void> {
  await tx.execute(sql`select 1 from ${auditHead} where ${auditHead.id} = 1 for update`);
}

/** When the log's first entry was recorded (a key recorded on an older log has signed since then). */
export async function firstRecordedAt(db: Db): Promise<string | undefined> {
  const [row] = await db
    .select({ body: auditEntries.body })
    .from(auditEntries)
    .orderBy(asc(auditEntries.index))
    .limit(1);
  return row ? (JSON.parse(row.body) as { recordedAt: string }).recordedAt : undefined;
}

/** Records a key as current from `from`, retiring the one that was current (valid until `from`). */
export async function recordCurrentKey(tx: Db, key: { keyId: string; publicKeyPem: string }, from: string) {
  await tx
    .update(platformKeys)
    .set({ validUntil: from })
    .where(and(isNull(platformKeys.validUntil), ne(platformKeys.keyId, key.keyId)));
  await tx
    .insert(platformKeys)
    .values({ keyId: key.keyId, publicKeyPem: key.publicKeyPem, validFrom: from, validUntil: null })
    .onConflictDoNothing();
}

/** One recorded key by id. */
export async function platformKey(db: Db, keyId: string): Promise<PlatformKeyRow | undefined> {
  const [row] = await db.select().from(platformKeys).where(eq(platformKeys.keyId, keyId));
  return row ? toRow(row) : undefined;
}
