import type { CpuTimes } from './proc-stat.js';

/**
 * Each CPU's utilisation per interval of a long trial, as stored with the
 * trial (`HostExplain.cpuSeries`): columnar, so a CPU's name is stored once
 * and not once per point. Shares are percent of the interval, rounded to
 * 0.1; `idle` includes iowait, so the six add up to 100 (rounding aside).
 */
export interface CpuSeries {
  /** Milliseconds since the epoch, on the controller, of the first read: `t` counts from here. */
  readonly start: number;
  /** The interval asked for, in seconds (a skipped or slow read makes one longer). */
  readonly interval: number;
  /** When each interval ended (its read returned), seconds since `start`, ascending. */
  readonly t: readonly number[];
  readonly cpus: readonly CpuSeriesColumn[];
  /** Which machine the host is on (its boot id): ends with the same one share their CPUs (lab namespaces). */
  readonly machine?: string;
  /** Ticks left out because the previous read was still running. */
  readonly skipped?: number;
}

/** One CPU's shares, in percent, one per entry of `CpuSeries.t`. */
export interface CpuSeriesColumn {
  readonly cpu: number;
  readonly user: readonly number[];
  readonly system: readonly number[];
  readonly softirq: readonly number[];
  readonly irq: readonly number[];
  readonly steal: readonly number[];
  readonly idle: readonly number[];
}

/** One per-interval read: when it returned and the CPUs' jiffies then. */
export interface CpuRead {
  readonly at: number;
  readonly cpus: readonly CpuTimes[];
}

/** Trials this long get the per-interval series. */
export const SERIES_MIN_SECONDS = 10;

/** Seconds between reads: the trial's `interval` parameter (a tool's report interval) clamped to 1–60 s, else 1 s. */
export function seriesInterval(params: Readonly<Record<string, unknown>>): number {
  const interval = params['interval'];
  if (typeof interval !== 'number' || !Number.isFinite(interval)) return 1;
  return Math.min(60, Math.max(1, interval));
}

const pct = (n: number, total: number) => Math.round((1000 * n) / total) / 10;
// A counter that went down (a CPU taken offline and back) has an unknown increment, not a negative one.
const inc = (after: number, before: number) => Math.max(0, after - before);

/**
 * The series between consecutive reads: one point per pair of reads, for
 * each CPU present in both with any time elapsed; undefined with fewer than
 * two reads. A CPU missing from a read (hot-unplugged) gets no column.
 */
export function cpuSeriesOf(reads: readonly CpuRead[], interval: number, extra: { machine?: string; skipped?: number } = {}): CpuSeries | undefined {
  const sorted = [...reads].sort((a, b) => a.at - b.at);
  if (sorted.length < 2) return undefined;
  const start = sorted[0]!.at;
  const ids = sorted[0]!.cpus.map((c) => c.cpu).filter((id) => sorted.every((r) => r.cpus.some((c) => c.cpu === id)));
  const columns = ids.map((cpu) => ({
    cpu,
    user: [] as number[],
    system: [] as number[],
    softirq: [] as number[],
    irq: [] as number[],
    steal: [] as number[],
    idle: [] as number[],
  }));
  const t: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [before, after] = [sorted[i - 1]!, sorted[i]!];
    const deltas = ids.map((id) => {
      const a = after.cpus.find((c) => c.cpu === id)!;
      const b = before.cpus.find((c) => c.cpu === id)!;
      return {
        user: inc(a.user + a.nice, b.user + b.nice),
        system: inc(a.system, b.system),
        softirq: inc(a.softirq, b.softirq),
        irq: inc(a.irq, b.irq),
        steal: inc(a.steal, b.steal),
        idle: inc(a.idle + a.iowait, b.idle + b.iowait),
      };
    });
    const totals = deltas.map((d) => d.user + d.system + d.softirq + d.irq + d.steal + d.idle);
    // Two reads within one jiffy say nothing: leave the point out rather than divide by zero.
    if (totals.some((total) => total === 0)) continue;
    t.push(Math.round(after.at - start) / 1000);
    deltas.forEach((d, k) => {
      const column = columns[k]!;
      for (const key of ['user', 'system', 'softirq', 'irq', 'steal', 'idle'] as const) column[key].push(pct(d[key], totals[k]!));
    });
  }
  if (t.length === 0) return undefined;
  return { start, interval, t, cpus: columns, ...(extra.machine ? { machine: extra.machine } : {}), ...(extra.skipped ? { skipped: extra.skipped } : {}) };
}
