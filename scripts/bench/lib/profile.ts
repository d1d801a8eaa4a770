import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPO_ROOT } from './paths.js';
import { sleep } from './scope.js';

const PRELOAD = fileURLToPath(new URL('./cpu-profiler.mjs', import.meta.url));

/**
 * Environment that makes a Node process profilable: SIGUSR2 starts its CPU profiler, the next SIGUSR2 stops it
 * and writes `<dir>/<pid>.cpuprofile`. Only send SIGUSR2 to processes started with it.
 */
export function profilerEnv(dir: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const preload = `--import=${pathToFileURL(PRELOAD).href}`;
  return { NODE_OPTIONS: [base.NODE_OPTIONS, preload].filter(Boolean).join(' '), BENCH_PROFILE_DIR: dir };
}

/** Starts or stops the profiler of a process started with `profilerEnv`. */
export function toggleProfiler(pid: number): void {
  process.kill(pid, 'SIGUSR2');
}

/** The V8 CPU profile format (`.cpuprofile`), as much of it as is read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
}

/**
 * Waits for the profile a process writes when its profiler stops, reads it and deletes it; with `keep`, copies
 * it there as `<keep.name>.cpuprofile` first.
 */
export async function readProfile(
  dir: string,
  pid: number,
  keep?: { dir: string; name: string },
  timeoutMs = 15_000,
): Promise<CpuProfile> {
  const file = join(dir, `${pid}.cpuprofile`);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} wrote no CPU profile in ${timeoutMs} ms`);
    await sleep(100);
  }
  if (keep) {
    await mkdir(keep.dir, { recursive: true });
    await copyFile(file, join(keep.dir, `${keep.name}.cpuprofile`));
  }
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  // The next window of the same process writes the same name: this one must not be read twice.
  await rm(file);
  return profile;
}

/** Self time of one function or module, in milliseconds and as a share of the user-mode busy time. */
export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

/** Where one process spent its time while profiled. */
export interface ProfileSummary {
  wallMs: number;
  /** Sampled time not spent idle in the event loop. */
  busyMs: number;
  /** Of the busy time: inside a socket write (a system call; its CPU time is the kernel's, see /proc). */
  syscallMs: number;
  /** Self time of the rest (user-mode code), ranked; shares are of that rest. */
  functions: SelfTime[];
  modules: SelfTime[];
}

/**
 * Native bindings whose self time is a system call. The profiler samples wall time, so a write that wakes its
 * peer on a busy machine also collects the time the writer waits to be scheduled again: these samples say
 * little about CPU use and are set apart.
 */
const SYSCALLS = new Set(['writeBuffer', 'writev', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString']);

const PSEUDO: Record<string, string> = {
  '(garbage collector)': 'GC',
  '(program)': '(program: V8 and native code)',
};

/** A file URL or node: URL, made short: `pkg/path` inside node_modules, repo-relative otherwise. */
function shortLocation(url: string): string {
  if (!url.startsWith('file://')) return url;
  const path = fileURLToPath(url);
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) return path.slice(nm + '/node_modules/'.length);
  return relative(REPO_ROOT, path);
}

/** The package (or workspace part) a function belongs to. */
function moduleOf(functionName: string, url: string): string {
  if (!url) return PSEUDO[functionName] ?? 'V8 builtins';
  if (url.startsWith('node:')) return 'node core';
  const loc = shortLocation(url);
  if (url.includes('/node_modules/')) {
    const [scope, name] = loc.split('/');
    return scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? loc);
  }
  const [top, part] = loc.split('/');
  if (top === 'packages') return `@rootline/${part}`;
  if (top === 'services') return `services/${part}`;
  if (top === 'scripts') return `scripts/${part}`;
  return loc;
}

function ranked(totals: Map<string, number>, msPerSample: number, ofSamples: number): SelfTime[] {
  return [...totals]
    .map(([name, samples]) => ({ name, ms: samples * msPerSample, share: ofSamples ? samples / ofSamples : 0 }))
    .sort((a, b) => b.ms - a.ms);
}

/** Adds up self time per function and per module over the busy samples of a profile. */
export function summariseProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const wallMs = (profile.endTime - profile.startTime) / 1000;
  const msPerSample = profile.samples.length ? wallMs / profile.samples.length : 0;
  const functions = new Map<string, number>();
  const modules = new Map<string, number>();
  let busy = 0;
  let syscalls = 0;
  for (const id of profile.samples) {
    const frame = byId.get(id);
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(root)') continue;
    busy += 1;
    if (!frame.url && SYSCALLS.has(frame.functionName)) {
      syscalls += 1;
      continue;
    }
    // TypeScript runs transpiled (tsx), so its line numbers are not the source's: name the file only.
    const line = /\.[cm]?ts$/.test(frame.url) ? '' : `:${frame.lineNumber + 1}`;
    const where = frame.url ? ` ${shortLocation(frame.url)}${line}` : '';
    const fn = `${PSEUDO[frame.functionName] ?? (frame.functionName || '(anonymous)')}${where}`;
    functions.set(fn, (functions.get(fn) ?? 0) + 1);
    const mod = moduleOf(frame.functionName, frame.url);
    modules.set(mod, (modules.get(mod) ?? 0) + 1);
  }
  return {
    wallMs,
    busyMs: busy * msPerSample,
    syscallMs: syscalls * msPerSample,
    functions: ranked(functions, msPerSample, busy - syscalls),
    modules: ranked(modules, msPerSample, busy - syscalls),
  };
}
