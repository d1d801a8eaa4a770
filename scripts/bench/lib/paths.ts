import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `scripts` package: child processes start here so `--import tsx` resolves to its dependency. */
export const SCRIPTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The repository root. */
export const REPO_ROOT = join(SCRIPTS_DIR, '..');

/** Where benchmark results are written. */
export const RESULTS_FILE = join(REPO_ROOT, 'docs', 'benchmarks.md');
