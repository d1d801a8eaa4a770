import { randomBytes } from 'node:crypto';
import type { GatewayConfig } from '../config.js';
import { hashPassword, needsRehash, type PasswordHashParams, verifyPassword } from './domain/password-hash.js';

/** Hashing with the configured scheme, plus a decoy so unknown accounts take as long as known ones. */
export interface Passwords {
  readonly params: PasswordHashParams;
  hash(password: string): Promise<string>;
  /** Verifies against a stored hash; with none (unknown account, provider-only account) burns the same time. */
  verify(password: string, hash: string | null): Promise<boolean>;
  needsRehash(hash: string): boolean;
}

/** The hashing parameters of the gateway's settings. */
export function hashParams(config: GatewayConfig): PasswordHashParams {
  return {
    scheme: config.PASSWORD_HASH,
    bcryptCost: config.BCRYPT_COST,
    argon2: { memoryKib: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST, parallelism: 1 },
  };
}

export function createPasswords(params: PasswordHashParams): Passwords {
  let decoy: Promise<string> | undefined;
  return {
    params,
    hash: (password) => hashPassword(password, params),
    async verify(password, hash) {
      if (hash) return verifyPassword(password, hash);
      // Same work as a real check, against a hash of a random password nobody knows.
      decoy ??= hashPassword(randomBytes(16).toString('hex'), params);
      await verifyPassword(password, await decoy);
      return false;
    },
    needsRehash: (hash) => needsRehash(hash, params),
  };
}
