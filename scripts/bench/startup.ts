// pnpm bench:startup [--runtime node|tsx|both] [--embedded-only] [--no-write]
// Measures time to ready and resident memory (RSS) of the two ways of running Rootline: embedded (first start on
// an empty DATA_DIR, then a warm restart on the same one, each also after a walkthrough of 200 requests: an
// account, registrations and reads) and cluster (every process after the same walkthrough), each against its
// target. `tsx` runs the TypeScript sources as development does; `node` runs the compiled JavaScript (built
// first) with the V8 flags of `pnpm start` and `pnpm start:cluster`, embedded from its bundle as `pnpm start` runs
// it (ADR 241); for node, a third embedded start runs
// `pnpm start` itself on the built checkout, its build steps skipped (ADR 187). Rewrites its section of
// docs/benchmarks.md (not with --embedded-only, which leaves the cluster and the stack floor out).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createTestDatabase, freePort, startNatsServer } from '@rootline/testing';
import { NODE_FLAGS, serviceNodeFlags } from '../src/node-flags.js';
import { describeMachine, machineInfo } from './lib/machine.js';
import { fmt, markdownTable, type Table, textTable, writeSection } from './lib/markdown.js';
import { REPO_ROOT, RESULTS_FILE, SCRIPTS_DIR } from './lib/paths.js';
import { codeRevision } from './lib/revision.js';
import { WALKTHROUGH_REQUESTS, walkthrough } from './lib/walkthrough.js';

/** The targets of the operations page: MiB and seconds. */
const TARGETS = { embeddedMiB: 280, serviceMiB: 90, warmStartS: 2 };

/**
 * The walkthrough's 200 requests come from one client within seconds: the per-client rate limits (100 a minute by
 * default) would answer most of them 429, which is not what a memory figure should measure.
 */
const BENCH_ENV = {
  RATE_LIMIT_PER_MINUTE: '100000000',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000000',
  RATE_LIMIT_SESSION_PER_MINUTE: '100000000',
  RATE_LIMIT_PER_HOUR_PER_USER: '100000000',
};

type Runtime = 'tsx' | 'node';

const { values } = parseArgs({
  options: {
    runtime: { type: 'string', default: 'both' },
    write: { type: 'boolean', default: true },
    'embedded-only': { type: 'boolean', default: false },
  },
  allowNegative: true,
});
const runtimes: Runtime[] = values.runtime === 'both' ? ['tsx', 'node'] : [values.runtime as Runtime];

/** The command of each runtime, run in scripts/ as the package scripts do; embedded node runs what `pnpm start` runs. */
function command(runtime: Runtime, entry: 'embedded' | 'cluster'): string[] {
  return runtime === 'node'
    ? [process.execPath, ...NODE_FLAGS, entry === 'embedded' ? 'dist/bundle/embedded.js' : `dist/${entry}.js`]
    : [join(SCRIPTS_DIR, 'node_modules', '.bin', 'tsx'), '--conditions=development', `src/${entry}.ts`];
}

/** Parent pid of every process, from /proc. */
function processTable(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // The process ended meanwhile.
    }
  }
  return parents;
}

function descendants(pid: number, parents = processTable()): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    for (const [child, parent] of parents) if (parent === out[i]) out.push(child);
  }
  return out;
}

/**
 * Resident memory of a process, split: `rss` in all; `anon`, the part that is its own (heaps, stacks, malloc), the
 * rest being pages of files (the node binary, shared libraries) that every process running them shares; `pss`, its
 * proportional share (each shared page divided among the processes that map it), which sums to the machine's use.
 */
interface Resident {
  rss: number;
  anon: number;
  pss: number;
}

function residentMiB(pid: number): Resident {
  const kb = (text: string, key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB$`, 'm').exec(text)?.[1] ?? 0);
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return { rss: kb(status, 'VmRSS') / 1024, anon: kb(status, 'RssAnon') / 1024, pss: kb(rollup, 'Pss') / 1024 };
  } catch {
    return { rss: 0, anon: 0, pss: 0 };
  }
}

const addResident = (a: Resident, b: Resident): Resident => ({
  rss: a.rss + b.rss,
  anon: a.anon + b.anon,
  pss: a.pss + b.pss,
});
const NO_MEMORY: Resident = { rss: 0, anon: 0, pss: 0 };

/** `residentMiB` of a process and everything it started (the tsx CLI runs the program in a child). */
const treeResidentMiB = (pid: number) => descendants(pid).map(residentMiB).reduce(addResident, NO_MEMORY);

/** Polls `probe` until it answers 200; fails when the child exits first or the time is up. */
async function waitReady(probe: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode} before it was ready`);
    const ok = await fetch(probe)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not ready after ${timeoutMs} ms`);
}

/** The walkthrough, failing the run if any answer was not 2xx (a figure after errors would mislead). */
async function walk(url: string): Promise<void> {
  const result = await walkthrough(url);
  if (result.failures.length > 0) {
    throw new Error(
      `the walkthrough had ${result.failures.length} failures:\n${result.failures.slice(0, 5).join('\n')}`,
    );
  }
  // Let the writes' events settle (outbox relays, subscribers) before the memory is read.
  await new Promise((r) => setTimeout(r, 1000));
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

interface EmbeddedRun {
  runtime: Runtime;
  /** `pnpm`: a warm restart through `pnpm start` on the built checkout, its build included (every step skipped). */
  start: 'first' | 'warm' | 'pnpm';
  readyMs: number;
  rssReady: number;
  rssAfter: number;
}

async function embeddedRun(runtime: Runtime, start: EmbeddedRun['start'], dataDir: string): Promise<EmbeddedRun> {
  const port = await freePort();
  const viaPnpm = start === 'pnpm';
  const [cmd, ...args] = viaPnpm ? ['pnpm', 'start'] : command(runtime, 'embedded');
  const t0 = performance.now();
  const child = spawn(cmd!, args, {
    cwd: viaPnpm ? REPO_ROOT : SCRIPTS_DIR,
    env: { ...process.env, ...BENCH_ENV, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    // `pnpm start` is stopped as a terminal stops it: Ctrl-C to its process group.
    detached: viaPnpm,
  });
  // Through pnpm, the memory is Rootline's process (and its children), not pnpm's own.
  const rss = () =>
    viaPnpm
      ? descendants(child.pid!).slice(1).map(residentMiB).reduce(addResident, NO_MEMORY).rss
      : treeResidentMiB(child.pid!).rss;
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitReady(`${url}/api/health/ready`, child);
    const readyMs = performance.now() - t0;
    const rssReady = rss();
    await walk(url);
    return { runtime, start, readyMs, rssReady, rssAfter: rss() };
  } finally {
    if (viaPnpm && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGINT');
      await exited;
    } else await stop(child);
  }
}

interface ClusterRun {
  runtime: Runtime;
  readyMs: number;
  runnerRss: number;
  /** Service name → resident memory of its process (tree). */
  services: Map<string, Resident>;
}

async function clusterRun(runtime: Runtime): Promise<ClusterRun> {
  const [nats, db] = await Promise.all([startNatsServer(), createTestDatabase('rl_bench')]);
  const port = await freePort();
  const [cmd, ...args] = command(runtime, 'cluster');
  const t0 = performance.now();
  const child = spawn(cmd!, args, {
    cwd: SCRIPTS_DIR,
    env: {
      ...process.env,
      ...BENCH_ENV,
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitReady(`${url}/api/health/ready`, child);
    const readyMs = performance.now() - t0;
    await walk(url);
    const parents = processTable();
    // The runner is the process whose children run in services/<name>; with the tsx CLI it is one level down.
    const all = descendants(child.pid!, parents);
    const services = new Map<string, Resident>();
    let runnerRss = 0;
    for (const pid of all) {
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${pid}/cwd`);
      } catch {}
      const inService = cwd.includes(`${join(REPO_ROOT, 'services')}/`);
      const parentInService = (() => {
        try {
          return readlinkSync(`/proc/${parents.get(pid)}/cwd`).includes(`${join(REPO_ROOT, 'services')}/`);
        } catch {
          return false;
        }
      })();
      if (inService && !parentInService) {
        const name = basename(cwd);
        services.set(name, addResident(services.get(name) ?? NO_MEMORY, treeResidentMiB(pid)));
      } else if (!inService) runnerRss += residentMiB(pid).rss;
    }
    return { runtime, readyMs, runnerRss, services };
  } finally {
    await stop(child);
    await db.drop();
    await nats.stop();
  }
}

/** The stack floor (`minimal/stack-floor.mjs`): the services' libraries and none of Rootline's code. */
const STACK_FLOOR = join(SCRIPTS_DIR, 'bench', 'minimal', 'stack-floor.mjs');

/** A stack floor run with the V8 flags of one kind of service process: its memory after as many requests. */
interface FloorRun {
  /** Which services run with these flags. */
  kind: string;
  flags: readonly string[];
  memory: Resident;
}

/**
 * Starts the stack floor with `flags`, sends it WALKTHROUGH_REQUESTS requests one after another (each a NATS request
 * to its own subscriber and a query), waits as the walkthrough does and reads its resident memory.
 */
async function stackFloorRun(kind: string, flags: readonly string[]): Promise<FloorRun> {
  const [nats, db] = await Promise.all([startNatsServer(), createTestDatabase('rl_bench_floor')]);
  const port = await freePort();
  const child = spawn(process.execPath, [...flags, STACK_FLOOR], {
    cwd: SCRIPTS_DIR,
    env: { ...process.env, NATS_URL: nats.url, DATABASE_URL: db.url, PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    const url = `http://127.0.0.1:${port}/floor`;
    await waitReady(`${url}/0`, child, 60_000);
    for (let i = 1; i < WALKTHROUGH_REQUESTS; i++) {
      const res = await fetch(`${url}/${i}`);
      if (res.status !== 200) throw new Error(`the stack floor answered ${res.status}`);
      await res.arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, 1000));
    return { kind, flags, memory: residentMiB(child.pid!) };
  } finally {
    await stop(child);
    await db.drop();
    await nats.stop();
  }
}

const machine = await machineInfo();
if (runtimes.includes('node')) {
  process.stdout.write('building (pnpm build)\n');
  execFileSync('pnpm', ['build'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

const embedded: EmbeddedRun[] = [];
const cluster: ClusterRun[] = [];
for (const runtime of runtimes) {
  const dataDir = await mkdtemp(join(tmpdir(), 'rootline-bench-'));
  try {
    const starts = runtime === 'node' ? (['first', 'warm', 'pnpm'] as const) : (['first', 'warm'] as const);
    for (const start of starts) {
      const run = await embeddedRun(runtime, start, dataDir);
      process.stdout.write(`embedded ${runtime} ${start}: ready ${fmt(run.readyMs)} ms, ${fmt(run.rssAfter)} MiB\n`);
      embedded.push(run);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  if (values['embedded-only']) continue;
  const run = await clusterRun(runtime);
  process.stdout.write(`cluster ${runtime}: ready ${fmt(run.readyMs)} ms\n`);
  cluster.push(run);
}

const floors: FloorRun[] = [];
if (runtimes.includes('node') && !values['embedded-only']) {
  for (const [kind, service] of [
    ['small services', 'farm'],
    ['gateway and plants', 'gateway'],
  ] as const) {
    const run = await stackFloorRun(kind, serviceNodeFlags(service));
    process.stdout.write(`stack floor, flags of the ${kind}: ${fmt(run.memory.rss)} MiB\n`);
    floors.push(run);
  }
}

const met = (ok: boolean) => (ok ? 'met' : 'missed');
/** The embedded row against its targets: the warm start's time, and memory after the walkthrough. */
const embeddedReading = (r: EmbeddedRun) =>
  [
    r.start !== 'first' ? `ready ≤ ${TARGETS.warmStartS} s ${met(r.readyMs / 1000 <= TARGETS.warmStartS)}` : '',
    `≤ ${TARGETS.embeddedMiB} MiB ${met(r.rssAfter <= TARGETS.embeddedMiB)}`,
  ]
    .filter(Boolean)
    .join(', ');
const embeddedTable: Table = {
  head: ['runtime', 'start', 'time to ready (s)', 'RSS at ready (MiB)', 'RSS after walkthrough (MiB)', 'targets'],
  rows: embedded.map((r) => [
    r.runtime === 'node' ? 'node (compiled)' : 'tsx (sources)',
    r.start === 'first'
      ? 'first, empty DATA_DIR'
      : r.start === 'warm'
        ? 'warm restart'
        : 'warm `pnpm start`, build steps skipped',
    fmt(r.readyMs / 1000, 1),
    fmt(r.rssReady),
    fmt(r.rssAfter),
    embeddedReading(r),
  ]),
  right: [false, false, true, true, true, false],
};
const names = [...new Set(cluster.flatMap((r) => [...r.services.keys()]))].sort();
const compiled = cluster.find((r) => r.runtime === 'node');
const rssOf = (r: ClusterRun, n: string) => r.services.get(n)?.rss ?? 0;
/** The node run's own and proportional memory, beside the RSS the target is set on. */
const splitHead = compiled ? ['of it anonymous, node (MiB)', 'PSS, node (MiB)'] : [];
const split = (m: Resident | undefined) => (compiled ? [fmt(m?.anon ?? 0), fmt(m?.pss ?? 0)] : []);
const blank = (n: number) => Array.from({ length: n }, () => '');
const clusterTable: Table = {
  head: [
    'process',
    ...cluster.map((r) => `RSS, ${r.runtime === 'node' ? 'node' : 'tsx'} (MiB)`),
    ...splitHead,
    ...(compiled ? [`≤ ${TARGETS.serviceMiB} MiB (node)`] : []),
  ],
  rows: [
    ...names.map((n) => [
      n,
      ...cluster.map((r) => fmt(rssOf(r, n))),
      ...split(compiled?.services.get(n)),
      ...(compiled ? [met(rssOf(compiled, n) <= TARGETS.serviceMiB)] : []),
    ]),
    [
      'runner (`start:cluster`)',
      ...cluster.map((r) => fmt(r.runnerRss)),
      ...blank(splitHead.length + (compiled ? 1 : 0)),
    ],
    [
      'all processes',
      ...cluster.map((r) => fmt(r.runnerRss + [...r.services.values()].reduce((a, b) => a + b.rss, 0))),
      ...(compiled ? split([...compiled.services.values()].reduce(addResident, NO_MEMORY)) : []),
      ...(compiled ? [''] : []),
    ],
    [
      'time to ready (s)',
      ...cluster.map((r) => fmt(r.readyMs / 1000, 1)),
      ...blank(splitHead.length + (compiled ? 1 : 0)),
    ],
  ],
};

const floorTable: Table = {
  head: ['stack floor, with the V8 flags of', 'flags', 'RSS (MiB)', 'of it anonymous (MiB)', 'PSS (MiB)'],
  rows: floors.map((f) => [
    f.kind,
    `\`${f.flags.join(' ')}\``,
    fmt(f.memory.rss),
    fmt(f.memory.anon),
    fmt(f.memory.pss),
  ]),
  right: [false, false, true, true, true],
};

process.stdout.write(
  `\n${textTable(embeddedTable)}\n${cluster.length ? `\n${textTable(clusterTable)}\n` : ''}${floors.length ? `\n${textTable(floorTable)}\n` : ''}`,
);

const body = `## Start-up time and memory: embedded and cluster, tsx and compiled

Measured ${new Date().toISOString().slice(0, 10)} on ${describeMachine(machine)} (load average ${machine.loadAverage} at the
start), code ${codeRevision()}, with \`pnpm bench:startup\`. Time to ready runs from spawning the command to the first 200 from
\`/api/health/ready\`; RSS is the resident memory of the process and every process it started (the tsx CLI runs the
program in a child), at ready and after a walkthrough of ${WALKTHROUGH_REQUESTS} requests one after another (the OpenAPI
document and Swagger UI, an account and a session, 40 plant registrations each waiting for its block, then reads of
those plants, their lineage, nearby, search, chain statistics and the session), with the rate limits raised so that
none is refused. The node rows run with the V8 flags of \`pnpm start\` (\`${NODE_FLAGS.join(' ')}\`); the last one is
\`pnpm start\` itself on the checkout just built, so its time includes pnpm and the build finding every step's inputs
unchanged (ADR 187), and its memory is Rootline's process without pnpm's. Targets: embedded
at most ${TARGETS.embeddedMiB} MiB after the walkthrough, a service process at most ${TARGETS.serviceMiB} MiB, warm start
at most ${TARGETS.warmStartS} s (on a quiet machine).

Embedded (\`pnpm start\` runs the node rows):

${markdownTable(embeddedTable)}

Cluster (\`pnpm start:cluster\` runs the node column), one process per service, after the walkthrough. The target is set
on RSS; beside it, for the node run, the part of it that is the process's own (anonymous memory: heaps, stacks,
malloc; the rest is pages of the node binary and shared libraries, the same pages in every process) and its PSS (each
shared page divided among the processes that map it, so the PSS of all processes is what they take from the machine);
"all processes" sums the services:

${markdownTable(clusterTable)}
${
  floors.length
    ? `
The floor of the stack the services are built on (\`scripts/bench/minimal/stack-floor.mjs\`): a process that loads only
Fastify, nats.js, postgres.js, drizzle, TypeBox, pino, prom-client (with its default metrics) and OpenTelemetry's API,
and answers ${WALKTHROUGH_REQUESTS} requests one after another, each a NATS request to a subscriber of its own that runs
one drizzle query, with none of Rootline's code; read as the services are, one second after its last request:

${markdownTable(floorTable)}
`
    : ''
}`;
if (values.write && !values['embedded-only']) {
  await writeSection(RESULTS_FILE, 'startup', body, '# Benchmarks');
  process.stdout.write(`\nwritten to ${RESULTS_FILE}\n`);
}
