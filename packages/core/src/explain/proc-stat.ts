/** Jiffies one CPU spent in each state since boot (`/proc/stat`'s `cpuN` lines). */
export interface CpuTimes {
  readonly cpu: number;
  readonly user: number;
  readonly nice: number;
  readonly system: number;
  readonly idle: number;
  readonly iowait: number;
  readonly irq: number;
  readonly softirq: number;
  readonly steal: number;
}

const CPU_LINE_RE = /^cpu(\d+)\s+(.*)$/;

/** Every `cpuN` line (not the `cpu` total); missing trailing fields (old kernels) count as 0. */
export function parseProcStat(text: string): CpuTimes[] {
  const cpus: CpuTimes[] = [];
  for (const line of text.split('\n')) {
    const match = CPU_LINE_RE.exec(line.trim());
    if (!match) continue;
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = match[2]!.trim().split(/\s+/).map(Number);
    if (![user, nice, system, idle].every(Number.isFinite)) continue;
    cpus.push({ cpu: Number(match[1]), user, nice, system, idle, iowait, irq, softirq, steal });
  }
  return cpus;
}
