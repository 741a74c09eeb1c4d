import type { Sample, TrialRecord } from '@netbench/plugin-api';
import { ChartIds } from './chart-id.js';
import { runNames } from './observations.js';
import { trialStart } from './trial-clock.js';
import { setupText, trialName } from './trial-setup.js';
import type { ChartInput, ChartOptions, TimeSeriesChart, TimeSeriesSeries } from './types.js';

/** Core's `CpuSeries` (`TrialRecord.explain.hosts[].cpuSeries`) as far as the chart reads it. */
interface StoredCpuSeries {
  readonly start: number;
  readonly t: readonly number[];
  readonly cpus: readonly { readonly cpu: number; readonly idle: readonly number[] }[];
  readonly machine?: string;
}

interface End {
  readonly role: string;
  readonly host: string;
  readonly series: StoredCpuSeries;
}

/** CPUs drawn per machine: the busiest ones, so a 64-CPU VM stays readable. */
export const CPU_LINES_PER_MACHINE = 8;
/** More per-trial CPU charts than this are folded away (`detail`). */
const SHOWN_AT_MOST = 6;

const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => typeof n === 'number' && Number.isFinite(n));

/** A stored series, checked (results.json is read from disk; an older or foreign one may lack it or differ). */
export function storedCpuSeries(host: unknown): StoredCpuSeries | undefined {
  const series = (host as { cpuSeries?: unknown } | undefined)?.cpuSeries as Partial<StoredCpuSeries> | undefined;
  if (!series || typeof series.start !== 'number' || !isNumbers(series.t) || !Array.isArray(series.cpus)) return undefined;
  const n = series.t.length;
  if (n === 0 || !series.cpus.every((c) => typeof c?.cpu === 'number' && isNumbers(c.idle) && c.idle.length === n)) return undefined;
  return series as StoredCpuSeries;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
const isInterval = (s: Sample) =>
  typeof s.labels['interval_end'] === 'number' && typeof s.labels['interval_start'] === 'number' && s.labels['stream'] === undefined && s.labels['flow'] === undefined;
const isFlowInterval = (s: Sample) => typeof s.labels['flow'] === 'string' && s.labels['series'] === 'interval';
const RATE_RE = /bits?\/s(ec)?$|^bps$/i;

/**
 * The trial's own clock and its throughput line: an ordinary trial counts
 * from its tool's start (each interval sample's time less its `interval_end`),
 * as `timeSeriesCharts` draws it; a synchronized one from `trialStart`, as
 * `flowTimeSeriesCharts`. The tool started after the first CPU read, so a
 * start dated to the whole second (iperf3's JSON) is moved up to that read.
 */
function trialClock(samples: readonly Sample[], firstRead: number) {
  const intervals = samples.filter(isInterval);
  if (intervals.length > 0) {
    const metrics = [...new Set(intervals.map((s) => s.metric))];
    const metric = metrics.find((m) => intervals.some((s) => s.metric === m && RATE_RE.test(s.unit))) ?? metrics[0]!;
    const line = intervals.filter((s) => s.metric === metric);
    const zero = Math.max(firstRead, Math.min(...intervals.map((s) => s.timestamp - 1000 * Number(s.labels['interval_end']))));
    const points = line.map((s) => [Number(s.labels['interval_end']), s.value] as const).sort((a, b) => a[0] - b[0]);
    return { zero, source: 'tool', line: { metric, unit: line[0]!.unit, points } };
  }
  const flows = samples.filter(isFlowInterval);
  if (flows.length > 0) return { zero: trialStart(flows, flows[0]!.labels['load_test'] !== undefined ? 0 : 1), source: 'flows' };
  return { zero: firstRead, source: 'first-read' };
}

/** One line per CPU of each machine (ends sharing a machine share their CPUs), the busiest `CPU_LINES_PER_MACHINE`. */
function cpuLines(ends: readonly End[], zero: number, runId: string): { series: TimeSeriesSeries[]; left: number } {
  const machines = new Map<string, End[]>();
  for (const end of ends) {
    const key = end.series.machine ?? `${end.role}:${end.host}`;
    machines.set(key, [...(machines.get(key) ?? []), end]);
  }
  const series: TimeSeriesSeries[] = [];
  let left = 0;
  for (const group of machines.values()) {
    const who = group.length > 1 ? group.map((e) => e.role).join('+') : `${group[0]!.role} ${group[0]!.host}`;
    const { series: stored } = group[0]!;
    const offset = (stored.start - zero) / 1000;
    const lines = stored.cpus
      .map((column) => {
        const points = column.idle.map((idle, i) => [round(stored.t[i]! + offset), Math.round(10 * Math.max(0, 100 - idle)) / 10] as const).filter(([x]) => x >= 0);
        return { name: `${who} cpu${column.cpu}`, runId, points, mean: mean(points.map((p) => p[1])) };
      })
      .filter((line) => line.points.length > 0);
    const busiest =
      lines.length > CPU_LINES_PER_MACHINE
        ? [...lines]
            .sort((a, b) => b.mean - a.mean)
            .slice(0, CPU_LINES_PER_MACHINE)
            .sort((a, b) => lines.indexOf(a) - lines.indexOf(b))
        : lines;
    left += lines.length - busiest.length;
    series.push(...busiest);
  }
  return { series, left };
}

/**
 * Per trial with per-interval CPU reads (trials of 10 s or more;
 * docs/explain.md): each end's CPUs' busy share (%) over time, on the
 * trial's time axis, with the trial's throughput on the same chart (left
 * axis; the CPUs on the right) where it has interval samples — whether the
 * rate fell when a CPU filled up is read off one picture.
 */
export function cpuTimeSeriesCharts(results: ChartInput, _options: ChartOptions = {}, ids = new ChartIds()): TimeSeriesChart[] {
  const names = runNames(results);
  const charts: TimeSeriesChart[] = [];
  results.forEach(({ run, samples }, runIndex) => {
    const withSeries = run.trials.filter((t) => (t.explain?.hosts ?? []).some((h) => storedCpuSeries(h)));
    if (withSeries.length === 0) return;
    const byTrial = new Map<string, Sample[]>();
    for (const s of samples) if (s.trialId !== undefined && withSeries.some((t) => t.id === s.trialId)) byTrial.set(s.trialId, [...(byTrial.get(s.trialId) ?? []), s]);
    for (const trial of withSeries) charts.push(cpuChart(trial, byTrial.get(trial.id) ?? [], run.runId, results.length > 1 ? names[runIndex]! : undefined, ids));
  });
  return charts.length > SHOWN_AT_MOST ? charts.map((c) => ({ ...c, detail: true })) : charts;
}

function cpuChart(trial: TrialRecord, samples: readonly Sample[], runId: string, runName: string | undefined, ids: ChartIds): TimeSeriesChart {
  const ends: End[] = (trial.explain?.hosts ?? []).flatMap((h) => {
    const series = storedCpuSeries(h);
    return series ? [{ role: h.role, host: h.host, series }] : [];
  });
  const firstRead = Math.min(...ends.map((e) => e.series.start));
  const clock = trialClock(samples, firstRead);
  const { series: cpus, left } = cpuLines(ends, clock.zero, runId);
  const throughput =
    clock.line && clock.line.points.length >= 2 ? { name: clock.line.metric, runId, points: clock.line.points, mean: mean(clock.line.points.map((p) => p[1])) } : undefined;
  const end = Math.max(...[...cpus, ...(throughput ? [throughput] : [])].flatMap((s) => s.points.map((p) => p[0])), 0);
  const name = [trialName(trial.id, trial, samples[0]?.labels), samples[0] ? setupText(samples[0].labels) : '', runName].filter(Boolean).join(' · ');
  const cpuAxis = { label: 'CPU busy', unit: '%', scale: 'linear' as const };
  const notes = [
    "Each CPU's busy share (user, system, irq, softirq and steal: all but idle and iowait) between two reads of /proc/stat, at the end of each interval.",
    clock.source === 'tool'
      ? "Time counts from the tool's start, as its interval samples do; the CPU reads are on the controller's clock, placed on the same axis."
      : clock.source === 'flows'
        ? "Time counts from the trial's start, as its per-flow charts do."
        : 'The trial has no interval samples: time counts from the first CPU read.',
    ...(ends.length > 1 && new Set(ends.map((e) => e.series.machine ?? e.host)).size === 1 ? ['Both ends run on one machine (one boot id): their CPUs are drawn once.'] : []),
    ...(left > 0 ? [`The ${CPU_LINES_PER_MACHINE} busiest CPUs of each machine are drawn; ${left} others are left out.`] : []),
  ];
  return {
    kind: 'timeseries',
    id: ids.next('cpu', trial.id),
    title: `CPU busy${throughput ? ` and ${throughput.name}` : ''} over time: ${name}`,
    subtitle: `${cpus.length} CPU line${cpus.length === 1 ? '' : 's'}, a read every ${Number(((ends[0]!.series.t.at(-1) ?? 0) / ends[0]!.series.t.length).toPrecision(2))} s`,
    notes,
    runIds: [runId],
    metric: 'cpu_busy',
    x: { label: 'time since start', unit: 's', scale: 'linear' },
    ...(throughput
      ? { y: { label: throughput.name, unit: clock.line!.unit, scale: 'linear' as const }, y2: cpuAxis, series: [throughput, ...cpus.map((s) => ({ ...s, axis: 2 as const }))] }
      : { y: cpuAxis, series: cpus }),
    span: [0, round(end)],
  };
}
