import type { MachineInfo } from './machine.js';
import type { Scope } from './scope.js';

/** Settings given on the command line, shared by every benchmark. */
export interface BenchSettings {
  /** Seconds of measured load per configuration. */
  durationSeconds: number;
  /** Seconds of load sent first and not counted. */
  warmupSeconds: number;
  connections: number;
  /** Times each configuration is measured; comparisons alternate which side goes first. */
  rounds: number;
  /** Profile the processes under test (a sampling CPU profiler, same on both sides of a comparison). */
  profile: boolean;
  /** Show the output of the processes under test. */
  verbose: boolean;
  /** Where to keep the raw CPU profiles (`.cpuprofile`, for Chrome DevTools); not kept when unset. */
  keepProfilesIn?: string;
}

/** What a benchmark gets to run with. */
export interface BenchContext {
  settings: BenchSettings;
  machine: MachineInfo;
  /** Everything started goes here, so it is stopped at the end whatever happens. */
  scope: Scope;
  /** Progress line on the terminal. */
  log(message: string): void;
}

/** What a benchmark hands back: a summary for the terminal and its section of the results file. */
export interface BenchReport {
  text: string;
  /** Markdown below the common heading lines (command, date, machine), written between the markers. */
  markdown: string;
}

/** One benchmark: `pnpm bench <name>`. */
export interface Benchmark {
  name: string;
  title: string;
  /** Upper bound of its run time, after which it is stopped. */
  timeLimitSeconds(settings: BenchSettings): number;
  run(ctx: BenchContext): Promise<BenchReport>;
}
