import { readFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';

/** The machine a benchmark ran on, as written next to its figures. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  /** 1-minute load average when the benchmark started: other work on the machine skews the figures. */
  loadAverage: number;
}

async function readOptional(path: string): Promise<string> {
  return readFile(path, 'utf8').catch(() => '');
}

/** Describes this machine: CPU model (from /proc/cpuinfo), cores, memory, Node version and OS. */
export async function machineInfo(): Promise<MachineInfo> {
  const cpuinfo = await readOptional('/proc/cpuinfo');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const osRelease = await readOptional('/etc/os-release');
  const distro = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(osRelease)?.[1] ?? type();
  return {
    cpuModel: model.trim(),
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${distro}, kernel ${release()}`,
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

/** One line for the results file. */
export function describeMachine(m: MachineInfo): string {
  return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB; Node ${m.node}; ${m.os}`;
}
