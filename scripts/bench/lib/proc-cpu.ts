import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times (USER_HZ); 100 on every mainstream Linux. */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds a process has used so far (all its threads), in user and in system (kernel) mode. */
export interface ProcessCpu {
  user: number;
  system: number;
}

/** The CPU time of a process so far, or undefined once it is gone. */
export function cpuOf(pid: number): ProcessCpu | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may itself contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / TICKS, system: Number(fields[12]) / TICKS };
  } catch {
    return undefined;
  }
}

/** Pids whose command line (arguments joined by spaces) satisfies `match`. */
export function findPids(match: (cmdline: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (cmdline && match(cmdline)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

interface MachineSeconds {
  busy: number;
  total: number;
  interrupts: number;
  steal: number;
}

/** CPU seconds of the whole machine (all cores) from /proc/stat. */
function machineSeconds(): MachineSeconds {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const v = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((x) => Number(x) / TICKS);
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  const at = (i: number) => v[i] ?? 0;
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - at(3) - at(4), total, interrupts: at(5) + at(6), steal: at(7) };
}

/** A named set of processes whose CPU time is added up; `pids` is asked again at each snapshot. */
export interface CpuGroup {
  name: string;
  pids: () => number[];
}

/** CPU seconds used per group between two snapshots. */
export interface CpuUsage {
  /** Per group: CPU seconds in all, and how many of them in the kernel (system calls: sockets, mostly). */
  groups: { name: string; seconds: number; systemSeconds: number }[];
  /** Busy CPU seconds of the whole machine, every process included. */
  machineBusy: number;
  /** CPU seconds the machine had (wall time × cores). */
  machineTotal: number;
  /** Of the busy time: serving hardware and software interrupts (network processing), outside any process. */
  machineInterrupts: number;
  /** Of the busy time: stolen by the hypervisor (the virtual CPU was ready but not running). */
  machineSteal: number;
}

interface Snapshot {
  perGroup: Map<string, Map<number, ProcessCpu>>;
  machine: MachineSeconds;
}

/** Measures the CPU time of process groups over a window: call `start()`, then `stop()`. */
export class CpuMeter {
  #groups: CpuGroup[];
  #start: Snapshot | undefined;

  constructor(groups: CpuGroup[]) {
    this.#groups = groups;
  }

  #snapshot(): Snapshot {
    const perGroup = new Map<string, Map<number, ProcessCpu>>();
    for (const g of this.#groups) {
      const times = new Map<number, ProcessCpu>();
      for (const pid of new Set(g.pids())) {
        const cpu = cpuOf(pid);
        if (cpu) times.set(pid, cpu);
      }
      perGroup.set(g.name, times);
    }
    return { perGroup, machine: machineSeconds() };
  }

  start(): void {
    this.#start = this.#snapshot();
  }

  /**
   * CPU used since `start()`. A process that appeared in the window (a new database connection) counts
   * whole; one that ended in it is lost, which the machine total still shows.
   */
  stop(): CpuUsage {
    const before = this.#start;
    if (!before) throw new Error('CpuMeter.stop() before start()');
    const after = this.#snapshot();
    const groups = this.#groups.map((g) => {
      const was = before.perGroup.get(g.name) ?? new Map<number, ProcessCpu>();
      let user = 0;
      let system = 0;
      for (const [pid, now] of after.perGroup.get(g.name) ?? []) {
        user += now.user - (was.get(pid)?.user ?? 0);
        system += now.system - (was.get(pid)?.system ?? 0);
      }
      return { name: g.name, seconds: user + system, systemSeconds: system };
    });
    return {
      groups,
      machineBusy: after.machine.busy - before.machine.busy,
      machineTotal: after.machine.total - before.machine.total,
      machineInterrupts: after.machine.interrupts - before.machine.interrupts,
      machineSteal: after.machine.steal - before.machine.steal,
    };
  }
}
