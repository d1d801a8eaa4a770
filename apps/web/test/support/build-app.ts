import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/**
 * Vitest global setup of the browser tests: builds the web app once per run, before any test file starts a
 * gateway that serves it (turbo answers from its cache when nothing changed).
 */
export default function buildWebApp(): void {
  execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@rootline/web', '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
