import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A secret for local runs: `given` when set, else one generated once and kept in `file` under the data directory,
 * so it survives a restart without anyone having to invent one on first run.
 */
export function localSecret(dataDir: string, file: string, given: string | undefined): string {
  if (given) return given;
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path, secret, { mode: 0o600 });
  return secret;
}

/** JWT_SECRET for local runs (sessions survive a restart). */
export function localJwtSecret(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return localSecret(dataDir, 'jwt-secret', env.JWT_SECRET);
}

/** STORAGE_SIGNING_SECRET for local runs: the key of local storage's signed URLs, shared by gateway and media. */
export function localStorageSecret(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return localSecret(dataDir, 'storage-signing-secret', env.STORAGE_SIGNING_SECRET);
}
