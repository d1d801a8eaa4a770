// pnpm bench [name] [--duration 30] [--connections 64] [--warmup 5] [--rounds 1] [--no-profile]
//   [--keep-profiles DIR] [--verbose]
// Runs the named benchmark (every one by default), prints its figures and rewrites its section of
// docs/benchmarks.md. Everything a benchmark starts is stopped at the end, on failure, on Ctrl-C and when
// it overruns its time limit.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { analyticsBench } from './analytics.js';
import { auditLogBench } from './audit-log.js';
import { environmentSimilar } from './environment-similar.js';
import { exportBench } from './export.js';
import { farmReadings } from './farm-readings.js';
import { geocoderBench } from './geocoder.js';
import { getPlant } from './get-plant.js';
import { hashrate } from './hashrate.js';
import { importBench } from './import.js';
import { describeMachine, machineInfo } from './lib/machine.js';
import { writeSection } from './lib/markdown.js';
import { RESULTS_FILE } from './lib/paths.js';
import { codeRevision } from './lib/revision.js';
import { createScope, type Scope } from './lib/scope.js';
import type { Benchmark, BenchSettings } from './lib/types.js';
import { listingSearchBench } from './listing-search.js';
import { media } from './media.js';
import { nearby } from './nearby.js';
import { notifyBench } from './notify.js';
import { plantRead } from './plant-read.js';
import { readReplica } from './read-replica.js';
import { register } from './register.js';
import { registerOpen } from './register-open.js';
import { search } from './search.js';
import { transport } from './transport.js';
import { webhookFanout } from './webhook-fanout.js';
import { wsFanout } from './ws-fanout.js';

const BENCHMARKS: Benchmark[] = [
  getPlant,
  plantRead,
  register,
  registerOpen,
  hashrate,
  nearby,
  readReplica,
  search,
  listingSearchBench,
  media,
  environmentSimilar,
  farmReadings,
  transport,
  notifyBench,
  auditLogBench,
  wsFanout,
  webhookFanout,
  exportBench,
  importBench,
  analyticsBench,
  geocoderBench,
];

const HEADER = `# Benchmarks

Benchmarks measure how fast Rootline serves on one machine. They are not tests: nothing fails when a figure
is low, \`pnpm test\` does not run them, and CI does not either. Figures depend on the machine (CPU, cores,
memory, and whatever else runs on it meanwhile), so compare only figures taken on the same machine, ideally
in the same run; each section says where and when it was measured.

Run from the repository root:

\`\`\`sh
pnpm bench                    # every benchmark
pnpm bench get-plant          # one benchmark
pnpm bench get-plant --duration 30 --connections 64 --warmup 5
pnpm bench:startup           # start-up time and memory, embedded and cluster, tsx and compiled
\`\`\`

Options: \`--duration\` seconds of measured load per configuration (default 30: sustained load shows decay
that a short burst hides), \`--connections\` concurrent HTTP connections (default 64), \`--warmup\` seconds of
load sent first and not counted (default 5), \`--rounds\` to measure each configuration several times, alternating
which goes first (default 1; figures drift by 10–20 % between runs on a shared virtual machine, so a ratio from
several rounds is steadier), \`--no-profile\` to run without the CPU profiler,
\`--keep-profiles DIR\` to keep the raw CPU profiles (open them in Chrome DevTools), \`--verbose\` to show the
output of the processes under test.

A benchmark starts what it needs (a private nats-server, a fresh PostgreSQL database on the server of
\`TEST_DATABASE_URL\`, default \`postgres://postgres@127.0.0.1:5432/postgres\`, and the processes under test)
and removes it at the end. Load comes from autocannon in a process of its own. Each run rewrites its own
section below, between its markers; text outside the markers is kept.
`;

const USAGE = `usage: pnpm bench [${BENCHMARKS.map((b) => b.name).join('|')}] [--duration 30] [--connections 64] [--warmup 5] [--rounds 1] [--no-profile] [--keep-profiles DIR] [--verbose]`;

/** A whole-number option: above 0, except `--warmup`, which may be 0. */
function countOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || (n === 0 && name !== 'warmup')) {
    throw new Error(`--${name} must be a whole number${name === 'warmup' ? '' : ' above 0'} (got ${value})`);
  }
  return n;
}

function parse(argv: string[]): { selected: Benchmark[]; settings: BenchSettings } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      'no-profile': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      'keep-profiles': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const selected =
    positionals.length === 0
      ? BENCHMARKS
      : positionals.map((name) => {
          const found = BENCHMARKS.find((b) => b.name === name);
          if (!found) throw new Error(`unknown benchmark "${name}"\n${USAGE}`);
          return found;
        });
  return {
    selected,
    settings: {
      durationSeconds: countOption('duration', values.duration, 30),
      connections: countOption('connections', values.connections, 64),
      warmupSeconds: countOption('warmup', values.warmup, 5),
      rounds: countOption('rounds', values.rounds, 1),
      profile: !values['no-profile'],
      verbose: values.verbose,
      ...(values['keep-profiles']
        ? { keepProfilesIn: resolve(process.env.INIT_CWD ?? process.cwd(), values['keep-profiles']) }
        : {}),
    },
  };
}

const log = (message: string) => process.stderr.write(`${message}\n`);

/** What the running benchmark has started. */
let active: Scope | undefined;

/** Stops everything the running benchmark started, then exits; used on signals and on overrun. */
async function abort(reason: string): Promise<never> {
  log(`\nbench: ${reason}; stopping what was started`);
  const errors = (await active?.close()) ?? [];
  for (const err of errors) log(`bench: cleanup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
process.once('SIGINT', () => void abort('interrupted'));
process.once('SIGTERM', () => void abort('terminated'));

async function runOne(bench: Benchmark, settings: BenchSettings, command: string): Promise<void> {
  const machine = await machineInfo();
  const revision = codeRevision();
  const scope = createScope();
  active = scope;
  const limit = bench.timeLimitSeconds(settings);
  const timer = setTimeout(() => void abort(`${bench.name} ran past its limit of ${limit} s`), limit * 1000);
  log(`\n== ${bench.name}: ${bench.title}`);
  try {
    const started = new Date();
    const report = await bench.run({ settings, machine, scope, log });
    process.stdout.write(`\n${bench.title}\n\n${report.text}\n`);
    const body = [
      `## ${bench.title}`,
      '',
      `- Command: \`${command}\``,
      `- Date: ${started.toISOString()}`,
      `- Code: ${revision}`,
      `- Machine: ${describeMachine(machine)}; load average ${machine.loadAverage} at the start`,
      '',
      report.markdown,
    ].join('\n');
    await writeSection(RESULTS_FILE, bench.name, body, HEADER);
    log(`\nwritten to ${RESULTS_FILE}`);
  } finally {
    clearTimeout(timer);
    const errors = await scope.close();
    for (const err of errors) log(`bench: cleanup failed: ${err instanceof Error ? err.message : String(err)}`);
    active = undefined;
  }
}

try {
  const argv = process.argv.slice(2).filter((a) => a !== '--');
  const { selected, settings } = parse(argv);
  const command = ['pnpm bench', ...argv].join(' ');
  for (const bench of selected) await runOne(bench, settings, command);
  process.exit(0);
} catch (err) {
  log(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
}
