import { randomBytes } from 'node:crypto';
import { KEY_REGISTRATION_PREFIX } from '@rootline/contracts/signatures';

/** A fresh challenge: 32 random bytes, base64url (43 characters). */
export function newChallenge(): string {
  return randomBytes(32).toString('base64url');
}

/** What a challenge is bound to: the user it was issued to. */
export function registrationMessagePrefix(challenge: string, userId: string): string {
  return `${KEY_REGISTRATION_PREFIX}:${challenge}:${userId}:`;
}

/**
 * The message a key-registration proof signs (ADR 103): `rootline-key-registration:<challenge>:<userId>:<publicKey>`,
 * the public key as raw base64url. Naming the user and the key, a proof made for one registration proves nothing
 * for another user or key.
 */
export function registrationMessage(challenge: string, userId: string, rawPublicKey: string): string {
  return `${registrationMessagePrefix(challenge, userId)}${rawPublicKey}`;
}

export type ChallengeRefusal = 'challenge-unknown' | 'challenge-not-yours' | 'challenge-used' | 'challenge-expired';

/** Why a stored challenge cannot be answered by `userId` at `now`, or null when it can. */
export function challengeRefusal(
  row: { ownerId: string; expiresAt: Date; usedAt: Date | null } | undefined,
  userId: string,
  now: Date,
): ChallengeRefusal | null {
  if (!row) return 'challenge-unknown';
  if (row.ownerId !== userId) return 'challenge-not-yours';
  if (row.usedAt) return 'challenge-used';
  if (row.expiresAt.getTime() <= now.getTime()) return 'challenge-expired';
  return null;
}
