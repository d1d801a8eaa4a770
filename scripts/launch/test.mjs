// `pnpm test`: the type checks, lint and format check (turbo) run beside the tests (vitest) instead of before them,
// so a run costs the longer of the two, not their sum. The checks' output is held back and printed after the tests'
// summary; the command fails if either fails. Arguments go to vitest (`pnpm test -- --project shared`).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs a command from the repository root; resolves with its exit code and, when `capture`, its output. */
function run(command, args, capture) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (capture) {
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
    }
    children.push(child);
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

// pnpm passes a leading `--` through.
const vitestArgs = process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--'));
const children = [];
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

const [checks, tests] = await Promise.all([
  run('pnpm', ['exec', 'turbo', 'run', 'typecheck', 'lint', '--output-logs=errors-only'], true),
  run('pnpm', ['exec', 'vitest', 'run', ...vitestArgs], false),
]);
process.stdout.write(`\nType checks, lint and format check (turbo run typecheck lint):\n${checks.output}`);
if (checks.code !== 0) process.stderr.write('\nThe type checks, lint or format check failed (see above).\n');
if (tests.code !== 0) process.stderr.write('\nThe tests failed (see above).\n');
process.exit(checks.code !== 0 || tests.code !== 0 ? 1 : 0);
