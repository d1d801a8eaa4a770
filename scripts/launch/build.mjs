// `pnpm build` and the build step of `pnpm start`: plain JavaScript, since it runs before anything is compiled.
// Each step prints one line saying what it does and how long it took; a tool's own output is shown only when
// the step fails. A step whose inputs (file contents) are those of its last successful run, and whose outputs are
// still there, is skipped: its line says `unchanged, skipped` (ADR 187). `--force` (or ROOTLINE_BUILD_FORCE=1)
// runs every step.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

/** Where each step's last successful inputs are recorded (inside node_modules, so never committed). */
export const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'rootline-build');

/** Folders never read as inputs: installed packages, build outputs, caches. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.turbo', 'coverage', 'test-results', '.git']);

/** Every file under `path` (a file or a folder), relative to `root`; missing paths give none. */
function listFiles(root, path, into = []) {
  const full = join(root, path);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return into;
  }
  if (stat.isFile()) {
    into.push(path);
    return into;
  }
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    if (entry.isDirectory() || entry.isFile()) listFiles(root, join(path, entry.name), into);
  }
  return into;
}

/**
 * Content digests of the files read in this process, by path, size and modification time: the steps share most
 * of their inputs, and a file a step rewrites gets a new modification time, so it is read again.
 */
const fileDigests = new Map();

function fileDigest(full) {
  const { size, mtimeMs } = statSync(full);
  const key = `${full}\0${size}\0${mtimeMs}`;
  let digest = fileDigests.get(key);
  if (!digest) {
    digest = createHash('sha256').update(readFileSync(full)).digest('hex');
    fileDigests.set(key, digest);
  }
  return digest;
}

/** SHA-256 over the names and contents of every file under `paths` (relative to `root`). */
export function hashInputs(root, paths) {
  const files = [...new Set(paths.flatMap((p) => listFiles(root, p)))].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0${fileDigest(join(root, file))}\n`);
  return hash.digest('hex');
}

/**
 * Runs `steps` in order, printing a line per step. A step is `{ label, run, inputs?, outputs? }`: with `inputs`
 * (paths under `root`, files or folders), it is skipped when their hash equals the one recorded under `cacheDir`
 * after its last successful run and every path of `outputs` exists; the hash is taken right before the step runs,
 * after the steps before it wrote their files. Rejects with Interrupted on Ctrl-C, or with the failing step's error.
 */
export async function runSteps(steps, { root = ROOT, cacheDir = CACHE_DIR, force = false, out = process.stdout } = {}) {
  for (const [i, step] of steps.entries()) {
    out.write(`[${i + 1}/${steps.length}] ${step.label}… `);
    const t0 = performance.now();
    const record = step.inputs ? join(cacheDir, `${step.id}.sha256`) : undefined;
    const digest = step.inputs ? hashInputs(root, step.inputs) : undefined;
    const outputsThere = (step.outputs ?? []).every((p) => existsSync(join(root, p)));
    if (!force && record && outputsThere && existsSync(record) && readFileSync(record, 'utf8') === digest) {
      out.write('unchanged, skipped\n');
      continue;
    }
    try {
      await step.run();
    } catch (err) {
      out.write(err instanceof Interrupted ? 'stopped\n' : 'failed\n');
      throw err;
    }
    if (record) {
      // The inputs the step ran on: a file edited while it ran makes the next build run it again.
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(record, digest);
    }
    out.write(`${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
}

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

/** The folders of the TypeScript projects `tsc -b tsconfig.build.json` builds. */
function projects() {
  const { references } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8'));
  return references.map((r) => dirname(r.path));
}

/** The embedded runner and the bundle of it that `pnpm start` runs (ADR 241), relative to the root. */
export const EMBEDDED_BUNDLE = { entry: 'scripts/dist/embedded.js', output: 'scripts/dist/bundle/embedded.js' };

/** Files every step depends on: the installed dependencies and the shared compiler settings. */
const SHARED_INPUTS = ['pnpm-lock.yaml', 'package.json', 'tsconfig.base.json', 'tsconfig.build-base.json'];

/** The build's steps, in order; each one a line of progress. */
export function steps() {
  const dirs = projects();
  const sources = dirs.flatMap((d) => [`${d}/src`, `${d}/package.json`, `${d}/tsconfig.build.json`]);
  return [
    ...(installNeeded()
      ? [
          {
            id: 'install',
            label: 'Installing dependencies (pnpm install)',
            run: () => run('pnpm', ['install', '--frozen-lockfile']),
          },
        ]
      : []),
    {
      id: 'sdk',
      label: 'Generating the SDK from the API routes',
      run: () => run('pnpm', ['--filter', '@rootline/sdk', 'generate']),
      // The gateway's routes and everything they import; not the SDK's own sources, which it writes.
      inputs: [
        ...SHARED_INPUTS,
        ...sources.filter((p) => !p.startsWith('packages/sdk/') && !p.startsWith('scripts/')),
        // Read by the gateway when it writes the document: the answers the example walk recorded.
        'services/gateway/openapi',
        'packages/sdk/codegen',
        'packages/sdk/package.json',
      ],
      outputs: ['packages/sdk/openapi.json', 'packages/sdk/src/generated/schema.ts'],
    },
    {
      id: 'typescript',
      label: 'Building packages and services (TypeScript)',
      run: async () => {
        await run(bin('tsc'), ['-b', 'tsconfig.build.json']);
        for (const [from, to] of RUNTIME_FILES) copyFileSync(join(ROOT, from), join(ROOT, to));
        // Each subject's reply serializer written ahead, so compiled services load no Ajv for them.
        await run(process.execPath, [join(ROOT, 'packages', 'host', 'dist', 'write-serializers.js')]);
      },
      inputs: [...SHARED_INPUTS, 'tsconfig.build.json', ...sources],
      outputs: [
        ...dirs.map((d) => `${d}/dist/.tsbuildinfo`),
        ...RUNTIME_FILES.map(([, to]) => to),
        'packages/host/dist/serializers',
      ],
    },
    {
      id: 'bundle',
      label: 'Bundling the embedded server',
      // Loaded here, not at the top: a warm start that skips the step does not load esbuild.
      run: async () => {
        const { bundle } = await import('./bundle.mjs');
        await bundle({ entry: join(ROOT, EMBEDDED_BUNDLE.entry), outDir: join(ROOT, dirname(EMBEDDED_BUNDLE.output)) });
      },
      // What the compiled code was built from (the TypeScript step's inputs), the installed packages it takes in,
      // and the bundler.
      inputs: [...SHARED_INPUTS, 'tsconfig.build.json', ...sources, 'scripts/launch/bundle.mjs'],
      outputs: [EMBEDDED_BUNDLE.output],
    },
    {
      id: 'web',
      label: 'Building the web app',
      run: () => run(bin('turbo'), ['run', 'build', '--filter=@rootline/web', '--output-logs=errors-only']),
      // turbo.json's inputs of the web app's build, and the SDK it imports.
      inputs: [
        ...SHARED_INPUTS,
        ...['src', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json'].map(
          (p) => `apps/web/${p}`,
        ),
        'packages/sdk/src',
        'packages/sdk/package.json',
        'turbo.json',
      ],
      outputs: ['apps/web/dist/index.html'],
    },
  ];
}

/**
 * Builds the workspace, printing a line per step. Rejects with Interrupted on Ctrl-C, or with the failing
 * tool's output.
 */
export async function build(out = process.stdout, { force = false } = {}) {
  interrupted = false;
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  try {
    await runSteps(steps(), { out, force: force || process.env.ROOTLINE_BUILD_FORCE === '1' });
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}

/** `pnpm build`: exit code 0 when built, 1 with the failing tool's output, 0 when stopped with Ctrl-C. */
export async function buildCommand() {
  try {
    await build(process.stdout, { force: process.argv.includes('--force') });
  } catch (err) {
    if (err instanceof Interrupted) process.exit(0);
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCommand();
