import type { ServiceContext } from '@rootline/host';
import { appendEntry, readHead } from '../db/audit.repo.js';
import { firstRecordedAt, listPlatformKeys, lockForKeyChange, recordCurrentKey } from '../db/platform-keys.repo.js';
import { configuredSigningKey, generateSigningKey, KEY_FILE, type SigningKey } from './signing-key.js';

/** Why the service refuses to start with the key it was given. */
export class SigningKeyError extends Error {}

/**
 * The key the service signs with, checked against the keys recorded in the database (ADR 121):
 * - nothing configured and nothing ever signed: a key is generated into DATA_DIR and recorded;
 * - nothing configured, but a key is recorded or the log has entries: refuse, naming AUDIT_SIGNING_KEY (a new key
 *   would silently orphan every checkpoint and certificate signed so far);
 * - the configured key is the current one: use it; a key never seen before: refuse unless AUDIT_SIGNING_KEY_ROTATE,
 *   which retires the current key (valid until now), records the new one and notes the rotation in the audit log;
 * - a retired key: refuse (a retired key does not come back).
 */
export async function establishSigningKey(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'log'>,
  config: { AUDIT_SIGNING_KEY?: string | undefined; AUDIT_SIGNING_KEY_ROTATE: boolean; DATA_DIR: string },
): Promise<SigningKey & { from?: string }> {
  const recorded = await listPlatformKeys(ctx.db);
  const current = recorded.find((k) => k.validUntil === null);
  let key = configuredSigningKey(config);
  if (!key) {
    const head = await readHead(ctx.db);
    if (current || head.size > 0) {
      throw new SigningKeyError(
        `AUDIT_SIGNING_KEY is not set and DATA_DIR holds no ${KEY_FILE}, but the audit log ` +
          (current ? `is signed with key ${current.keyId}` : `already holds ${head.size} entries`) +
          ': set AUDIT_SIGNING_KEY to that key (or to a new key together with AUDIT_SIGNING_KEY_ROTATE=true)',
      );
    }
    key = generateSigningKey(config.DATA_DIR);
  }
  if (current?.keyId === key.keyId) return key;
  const known = recorded.find((k) => k.keyId === key.keyId);
  if (known) {
    throw new SigningKeyError(
      `AUDIT_SIGNING_KEY is key ${key.keyId}, retired on ${known.validUntil}: set it to the current key ${current?.keyId}`,
    );
  }
  if (current && !config.AUDIT_SIGNING_KEY_ROTATE) {
    throw new SigningKeyError(
      `AUDIT_SIGNING_KEY is key ${key.keyId}, but the audit log is signed with key ${current.keyId}: set ` +
        'AUDIT_SIGNING_KEY back to that key, or set AUDIT_SIGNING_KEY_ROTATE=true to retire it and sign with the new one',
    );
  }
  const now = ctx.clock.now();
  const publicKeyPem = key.publicKey.export({ format: 'pem', type: 'spki' }).toString();
  const chosen = key;
  await ctx.db.transaction(async (tx) => {
    await lockForKeyChange(tx);
    const again = (await listPlatformKeys(tx)).find((k) => k.validUntil === null);
    if (again?.keyId === chosen.keyId) return;
    // A key recorded on a log that was signed before keys were recorded has signed since the log began.
    const from = again ? now.toISOString() : ((await firstRecordedAt(tx)) ?? now.toISOString());
    await recordCurrentKey(tx, { keyId: chosen.keyId, publicKeyPem }, from);
    if (again) {
      await appendEntry(
        tx,
        {
          source: 'admin',
          subject: 'admin.signing-key-rotated',
          kind: 'admin.signing-key-rotated',
          eventId: null,
          actor: null,
          entity: chosen.keyId,
          occurredAt: now.toISOString(),
          recordedAt: now.toISOString(),
          reason: 'The platform signing key was rotated (AUDIT_SIGNING_KEY_ROTATE)',
          data: { previousKeyId: again.keyId, keyId: chosen.keyId },
        },
        now,
      );
    }
  });
  if (current) ctx.log.warn({ previous: current.keyId, key: chosen.keyId }, 'the platform signing key was rotated');
  return key;
}
