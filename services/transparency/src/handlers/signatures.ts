import {
  AppError,
  type CallContext,
  KEY_CHALLENGE_TTL_SECONDS,
  paginate,
  type SignatureSubjectType,
  signatureKeyChallengeCreate,
  signatureKeyCreate,
  signatureKeyDelete,
  signatureKeyGet,
  signatureKeyList,
  signatureList,
  signatureStatementGet,
  signatureSubmit,
  signatureVerify,
} from '@rootline/contracts';
import { actingUser, assertOwnerOrAdmin } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import {
  findChallenge,
  findKey,
  insertChallenge,
  insertKey,
  insertSignature,
  type KeyRow,
  keyOfAnotherOwner,
  listKeys,
  listSignatures,
  revokeKey,
  type SignatureRow,
  subjectEntry,
  toSignatureKey,
  useChallenge,
} from '../db/signatures.repo.js';
import { usersConcerned } from '../domain/event-facts.js';
import {
  challengeRefusal,
  newChallenge,
  registrationMessage,
  registrationMessagePrefix,
} from '../domain/key-challenge.js';
import {
  BadKey,
  canonicalJson,
  keyFingerprint,
  parsePublicKey,
  sha256Hex,
  subjectEventKind,
  subjectStatement,
  verifyEd25519,
} from '../domain/signature-statement.js';

function publicKeyOf(input: string) {
  try {
    return parsePublicKey(input);
  } catch (err) {
    if (err instanceof BadKey) {
      throw new AppError('VALIDATION_ERROR', `publicKey: ${err.message}`, { reason: 'bad-public-key' });
    }
    throw err;
  }
}

/** The statement of a subject from the audit log, with the users it concerns; NOT_FOUND when none is recorded. */
async function statementOf(ctx: ServiceContext, type: SignatureSubjectType, id: string) {
  const found = await subjectEntry(ctx.db, subjectEventKind(type, id), id);
  if (!found?.entry.eventId) throw notFound(`Recorded ${type}`, id);
  const { entry, leafHash } = found;
  const statement = subjectStatement(type, id, {
    index: entry.index,
    leafHash,
    subject: entry.subject,
    eventId: entry.eventId as string,
    occurredAt: entry.occurredAt,
    data: entry.data,
  });
  const canonical = canonicalJson(statement);
  return {
    statement,
    canonical,
    sha256: sha256Hex(canonical),
    parties: usersConcerned(entry.actor ?? undefined, entry.data),
  };
}

/** A key the caller owns (ADMIN may read any: `read`); NOT_FOUND or FORBIDDEN otherwise. */
async function keyFor(ctx: ServiceContext, keyId: string, call: CallContext, read: boolean): Promise<KeyRow> {
  const key = await findKey(ctx.db, keyId);
  if (!key) throw notFound('Signing key', keyId);
  if (read) assertOwnerOrAdmin(call, key.ownerId);
  else if (actingUser(call).id !== key.ownerId) {
    throw new AppError('FORBIDDEN', 'Only the owner of a key may use or delete it', { reason: 'not-owner' });
  }
  return key;
}

/** Expired challenges are kept this long (so a late answer reads `challenge-expired`), then dropped. */
const KEEP_EXPIRED_CHALLENGES_MS = 24 * 60 * 60 * 1000;

const CHALLENGE_MESSAGES = {
  'challenge-unknown': 'challenge: no such challenge; ask for one at POST /api/transparency/signatures/keys/challenge',
  'challenge-not-yours': 'challenge: it was issued to another user',
  'challenge-used': 'challenge: it was used already; ask for a new one',
  'challenge-expired': `challenge: it expired (challenges last ${KEY_CHALLENGE_TTL_SECONDS} s); ask for a new one`,
} as const;

/** transparency.signing-key-challenge.create: a random single-use challenge bound to the caller. */
export const createKeyChallenge = (ctx: ServiceContext) =>
  handle(signatureKeyChallengeCreate, async (_input, call) => {
    const actor = actingUser(call);
    const now = ctx.clock.now();
    const challenge = newChallenge();
    const expiresAt = new Date(now.getTime() + KEY_CHALLENGE_TTL_SECONDS * 1000);
    await insertChallenge(
      ctx.db,
      { challenge, ownerId: actor.id, createdAt: now, expiresAt, usedAt: null },
      KEEP_EXPIRED_CHALLENGES_MS,
    );
    return {
      challenge,
      expiresAt: expiresAt.toISOString(),
      messagePrefix: registrationMessagePrefix(challenge, actor.id),
    };
  });

/**
 * transparency.signing-key.create: registers a key only with proof of possession (ADR 103): an Ed25519 signature
 * with its private key over `rootline-key-registration:<challenge>:<userId>:<publicKey>`, the challenge the caller's
 * own, unused and unexpired; it is used up with the registration. A key another user registered is refused.
 */
export const createSigningKey = (ctx: ServiceContext) =>
  handle(signatureKeyCreate, async ({ publicKey, label, challenge, proof }, call) => {
    const actor = actingUser(call);
    const { raw, key } = publicKeyOf(publicKey);
    const now = ctx.clock.now();
    const refusal = challengeRefusal(await findChallenge(ctx.db, challenge), actor.id, now);
    if (refusal) {
      throw new AppError(
        refusal === 'challenge-not-yours' ? 'FORBIDDEN' : 'VALIDATION_ERROR',
        CHALLENGE_MESSAGES[refusal],
        {
          field: 'challenge',
          reason: refusal,
        },
      );
    }
    if (!verifyEd25519(key, registrationMessage(challenge, actor.id, raw), proof)) {
      throw new AppError(
        'VALIDATION_ERROR',
        'proof: not a signature of rootline-key-registration:<challenge>:<userId>:<publicKey> by this key',
        { field: 'proof', reason: 'proof-invalid' },
      );
    }
    const fingerprint = keyFingerprint(raw);
    return ctx.db.transaction(async (tx) => {
      if (await keyOfAnotherOwner(tx, fingerprint, actor.id)) {
        throw new AppError('DUPLICATE', 'This key is registered by another user', {
          field: 'publicKey',
          reason: 'key-of-another-user',
        });
      }
      const row = await insertKey(tx, {
        ownerId: actor.id,
        publicKey: raw,
        fingerprint,
        label: label ?? null,
        createdAt: now,
      });
      if (!row) throw new AppError('DUPLICATE', 'You registered this key already', { field: 'publicKey' });
      if (!(await useChallenge(tx, challenge, now))) {
        throw new AppError('VALIDATION_ERROR', CHALLENGE_MESSAGES['challenge-used'], {
          field: 'challenge',
          reason: 'challenge-used',
        });
      }
      return toSignatureKey(row);
    });
  });

/** transparency.signing-key.list */
export const listSigningKeys = (ctx: ServiceContext) =>
  handle(signatureKeyList, async ({ page, limit }, call) => {
    const { items, total } = await listKeys(ctx.db, actingUser(call).id, page, limit);
    return { items, pagination: paginate(page, limit, total) };
  });

/** transparency.signing-key.get */
export const getSigningKey = (ctx: ServiceContext) =>
  handle(signatureKeyGet, async ({ keyId }, call) => toSignatureKey(await keyFor(ctx, keyId, call, true)));

/** transparency.signing-key.delete: revokes; the key stays so that past signatures keep verifying. */
export const deleteSigningKey = (ctx: ServiceContext) =>
  handle(signatureKeyDelete, async ({ keyId }, call) => {
    const key = await keyFor(ctx, keyId, call, false);
    if (key.revokedAt) return toSignatureKey(key);
    // Revoked by a concurrent request meanwhile: answered as stored, with the first revocation's time.
    const row = (await revokeKey(ctx.db, keyId, ctx.clock.now())) ?? (await keyFor(ctx, keyId, call, false));
    return toSignatureKey(row);
  });

/** Subject types private to their parties: an ownership transfer is an accepted offer (buyer, quantity, price). */
const PARTIES_ONLY: ReadonlySet<SignatureSubjectType> = new Set(['ownership-transfer']);

function assertParty(call: CallContext, type: SignatureSubjectType, parties: readonly string[]): void {
  const actor = actingUser(call);
  if (actor.role !== 'ADMIN' && !parties.includes(actor.id)) {
    throw new AppError('FORBIDDEN', `Only a party to this ${type} may sign it or read its statement`, {
      reason: 'not-a-party',
    });
  }
}

/** transparency.signature-statement.get: what to sign for a subject; an ownership transfer's to its parties only. */
export const getSignatureStatement = (ctx: ServiceContext) =>
  handle(signatureStatementGet, async ({ subjectType, subjectId }, call) => {
    const { statement, canonical, sha256, parties } = await statementOf(ctx, subjectType, subjectId);
    if (PARTIES_ONLY.has(subjectType)) assertParty(call, subjectType, parties);
    return { statement, canonical, sha256 };
  });

function toSignature(s: SignatureRow, k: KeyRow, status: 'valid' | 'invalid' | 'key-revoked') {
  return {
    id: s.id,
    subjectType: s.subjectType as SignatureSubjectType,
    subjectId: s.subjectId,
    keyId: s.keyId,
    signerId: s.signerId,
    publicKey: k.publicKey,
    signature: s.signature,
    statementSha256: s.statementHash,
    createdAt: s.createdAt.toISOString(),
    status,
  };
}

/**
 * transparency.signature.create: a party to the subject (a user the event names or who caused it; or an ADMIN)
 * signs its statement with one of their own keys. The signature is verified before it is stored.
 */
export const submitSignature = (ctx: ServiceContext) =>
  handle(signatureSubmit, async ({ subjectType, subjectId, keyId, signature }, call) => {
    const actor = actingUser(call);
    const key = await keyFor(ctx, keyId, call, false);
    if (key.revokedAt) {
      throw new AppError('VALIDATION_ERROR', 'keyId: this key was deleted', { field: 'keyId', reason: 'key-revoked' });
    }
    const { canonical, sha256, parties } = await statementOf(ctx, subjectType, subjectId);
    assertParty(call, subjectType, parties);
    if (!verifyEd25519(parsePublicKey(key.publicKey).key, canonical, signature)) {
      throw new AppError(
        'VALIDATION_ERROR',
        'signature: does not verify against the canonical statement with this key',
        { field: 'signature', reason: 'signature-invalid', statementSha256: sha256 },
      );
    }
    const row = await insertSignature(ctx.db, {
      subjectType,
      subjectId,
      keyId,
      signerId: actor.id,
      signature: signature.replace(/=+$/, ''),
      statement: canonical,
      statementHash: sha256,
      createdAt: ctx.clock.now(),
    });
    if (!row) throw new AppError('DUPLICATE', `This key has signed this ${subjectType} already`, { field: 'keyId' });
    return toSignature(row, key, 'valid');
  });

/**
 * transparency.signature.list: each stored signature verified again over the bytes it was verified on; an ownership
 * transfer's to its parties only.
 */
export const listSubjectSignatures = (ctx: ServiceContext) =>
  handle(signatureList, async ({ subjectType, subjectId, page, limit }, call) => {
    if (PARTIES_ONLY.has(subjectType)) {
      assertParty(call, subjectType, (await statementOf(ctx, subjectType, subjectId)).parties);
    }
    const { rows, total } = await listSignatures(ctx.db, subjectType, subjectId, page, limit);
    const items = rows.map(({ s, k }) => {
      const ok =
        sha256Hex(s.statement) === s.statementHash &&
        verifyEd25519(parsePublicKey(k.publicKey).key, s.statement, s.signature);
      return toSignature(s, k, !ok ? 'invalid' : k.revokedAt ? 'key-revoked' : 'valid');
    });
    return { items, pagination: paginate(page, limit, total) };
  });

/** transparency.signature.verify: any statement, signature and key; nothing is stored. */
export const verifySignature = (_ctx: ServiceContext) =>
  handle(signatureVerify, async ({ statement, signature, publicKey }) => {
    const { key } = publicKeyOf(publicKey);
    let canonical: string;
    try {
      canonical = canonicalJson(statement);
    } catch (err) {
      throw new AppError('VALIDATION_ERROR', `statement: ${(err as Error).message}`, { field: 'statement' });
    }
    return { valid: verifyEd25519(key, canonical, signature), canonical, sha256: sha256Hex(canonical) };
  });
