import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file sits in scripts/src or, compiled, scripts/dist). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The local runners' data directory as an absolute path. pnpm runs a workspace script inside its package
 * (scripts/), so a relative DATA_DIR, and the default `./data`, are resolved against the directory the user
 * ran pnpm in (INIT_CWD, set by pnpm and npm), or the repository root when started another way.
 */
export function localDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.INIT_CWD || REPO_ROOT, env.DATA_DIR || './data');
}
