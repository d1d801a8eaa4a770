import argon2 from 'argon2';
import bcrypt from 'bcryptjs';

export type PasswordScheme = 'bcrypt' | 'argon2id';

/** How new password hashes are made. Hashes of either scheme always verify. */
export interface PasswordHashParams {
  scheme: PasswordScheme;
  /** bcrypt cost (log2 rounds); the spec's 12 by default. */
  bcryptCost: number;
  argon2: { memoryKib: number; timeCost: number; parallelism: number };
}

/** The scheme of a stored hash, from its PHC / modular-crypt prefix; null for anything else. */
export function schemeOf(hash: string): PasswordScheme | null {
  if (/^\$2[aby]\$\d{2}\$/.test(hash)) return 'bcrypt';
  if (hash.startsWith('$argon2id$')) return 'argon2id';
  return null;
}

/** Hashes a password with the configured scheme and cost (salted by the scheme). */
export async function hashPassword(password: string, params: PasswordHashParams): Promise<string> {
  if (params.scheme === 'bcrypt') return bcrypt.hash(password, params.bcryptCost);
  return argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: params.argon2.memoryKib,
    timeCost: params.argon2.timeCost,
    parallelism: params.argon2.parallelism,
  });
}

/**
 * Verifies a password against a stored hash of either scheme. Both libraries compare digests in constant
 * time. An unknown or malformed hash never verifies.
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    switch (schemeOf(hash)) {
      case 'bcrypt':
        return await bcrypt.compare(password, hash);
      case 'argon2id':
        return await argon2.verify(hash, password);
      default:
        return false;
    }
  } catch {
    return false;
  }
}

/** True when a stored hash was made with another scheme or other parameters than the configured ones. */
export function needsRehash(hash: string, params: PasswordHashParams): boolean {
  const scheme = schemeOf(hash);
  if (scheme !== params.scheme) return true;
  if (scheme === 'bcrypt') return bcrypt.getRounds(hash) !== params.bcryptCost;
  return argon2.needsRehash(hash, {
    memoryCost: params.argon2.memoryKib,
    timeCost: params.argon2.timeCost,
    parallelism: params.argon2.parallelism,
  });
}
