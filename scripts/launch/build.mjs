// `pnpm build` and the build step of `pnpm start`: plain JavaScript, since it runs before anything is compiled.
// Each step prints one line saying what it does and how long it took; a tool's own output is shown only when
// the step fails.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file sits in scripts/launch). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

/** Plain JavaScript and WebAssembly loaded at run time beside the compiled code: tsc does not copy them. */
const RUNTIME_FILES = [
  ['packages/db/src/pglite-initdb.mjs', 'packages/db/dist/pglite-initdb.mjs'],
  ['services/chain-miner/src/jobs/mining/pow-worker.mjs', 'services/chain-miner/dist/jobs/mining/pow-worker.mjs'],
  ['services/chain-miner/src/domain/pow-search.mjs', 'services/chain-miner/dist/domain/pow-search.mjs'],
  ['services/chain-miner/src/jobs/mining/pow-kernel.mjs', 'services/chain-miner/dist/jobs/mining/pow-kernel.mjs'],
  ['services/chain-miner/src/jobs/mining/pow-kernel.wasm', 'services/chain-miner/dist/jobs/mining/pow-kernel.wasm'],
];

/** Thrown when a step ends on Ctrl-C: the caller stops quietly. */
export class Interrupted extends Error {}

/** Dependencies are missing or older than the lockfile (a fresh clone, or a pull that changed them). */
function installNeeded() {
  const installed = join(ROOT, 'node_modules', '.pnpm', 'lock.yaml');
  return !existsSync(installed) || statSync(installed).mtimeMs < statSync(join(ROOT, 'pnpm-lock.yaml')).mtimeMs;
}

let interrupted = false;
const onInterrupt = () => {
  // The step's process receives the same Ctrl-C (one process group) and ends; `run` reports it.
  interrupted = true;
};

/** Runs one command, its output kept; rejects with that output when it fails, or with Interrupted on Ctrl-C. */
function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const output = [];
    child.stdout.on('data', (c) => output.push(c));
    child.stderr.on('data', (c) => output.push(c));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (interrupted || signal === 'SIGINT') return reject(new Interrupted());
      if (code === 0) return resolve();
      const text = Buffer.concat(output).toString().trim();
      reject(new Error(`${[cmd, ...args].join(' ')} exited with ${signal ?? `code ${code}`}\n${text}`));
    });
  });
}

/** The build's steps, in order; each one a line of progress. */
function steps() {
  return [
    ...(installNeeded()
      ? [['Installing dependencies (pnpm install)', () => run('pnpm', ['install', '--frozen-lockfile'])]]
      : []),
    ['Generating the SDK from the API routes', () => run('pnpm', ['--filter', '@rootline/sdk', 'generate'])],
    [
      'Building packages and services (TypeScript)',
      async () => {
        await run(bin('tsc'), ['-b', 'tsconfig.build.json']);
        for (const [from, to] of RUNTIME_FILES) copyFileSync(join(ROOT, from), join(ROOT, to));
        // Each subject's reply serializer written ahead, so compiled services load no Ajv for them.
        await run(process.execPath, [join(ROOT, 'packages', 'host', 'dist', 'write-serializers.js')]);
      },
    ],
    [
      'Building the web app',
      () => run(bin('turbo'), ['run', 'build', '--filter=@rootline/web', '--output-logs=errors-only']),
    ],
  ];
}

/**
 * Builds the workspace, printing a line per step. Rejects with Interrupted on Ctrl-C, or with the failing
 * tool's output.
 */
export async function build(out = process.stdout) {
  interrupted = false;
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  try {
    const list = steps();
    for (const [i, [label, step]] of list.entries()) {
      out.write(`[${i + 1}/${list.length}] ${label}… `);
      const t0 = performance.now();
      try {
        await step();
      } catch (err) {
        out.write(err instanceof Interrupted ? 'stopped\n' : 'failed\n');
        throw err;
      }
      out.write(`${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}

/** `pnpm build`: exit code 0 when built, 1 with the failing tool's output, 0 when stopped with Ctrl-C. */
export async function buildCommand() {
  try {
    await build();
  } catch (err) {
    if (err instanceof Interrupted) process.exit(0);
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCommand();
