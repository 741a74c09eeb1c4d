import { bulkDirection, type LoadWindow, loadPhase, type OneWayMetric, PROBE_KINDS, type ProbeKind, percentile, probeOneWay, probeRtt } from '@netbench/core';
import type { Sample } from '@netbench/plugin-api';
import { ChartIds } from './chart-id.js';
import { runNames } from './observations.js';
import { coverGrid, trialStart } from './trial-clock.js';
import { setupText, trialName } from './trial-setup.js';
import type { Box, BoxChart, CdfChart, CdfSeries, ChartInput, ChartOptions, TimeSeriesChart, TimeSeriesSeries } from './types.js';

/**
 * Charts of latency-under-load trials (`tool: load`, docs/latency-under-load.md),
 * the ones flent users read: the "all scaled" time series (download, upload
 * and probe latency on one time axis), the latency CDF idle against loaded,
 * and box plots of the totals. A load trial's flows carry its layout as
 * labels (`load_test`, `load_idle`, `load_duration`, `load_step`,
 * `load_flows`), so the charts fill in while it runs; its flows' interval
 * samples share the controller's clock.
 */
interface LoadTrial {
  readonly runId: string;
  readonly runName: string;
  readonly trialId: string;
  /** The spec's benchmark name (`rrul-deep`), else `t0001 rrul`. */
  readonly name: string;
  /** Queue and congestion control (`100mbit tbf, 200ms queue · cubic`), empty when unknown. */
  readonly setup: string;
  readonly window: LoadWindow;
  readonly step: number;
  readonly hasLoad: boolean;
  readonly intervals: readonly Sample[];
}

function loadTrials(results: ChartInput): LoadTrial[] {
  const names = runNames(results);
  const trials: LoadTrial[] = [];
  results.forEach(({ run, samples }, runIndex) => {
    const byTrial = new Map<string, Sample[]>();
    for (const s of samples) {
      if (s.trialId && s.labels['series'] === 'interval' && s.labels['load_test'] !== undefined) byTrial.set(s.trialId, [...(byTrial.get(s.trialId) ?? []), s]);
    }
    const mine: LoadTrial[] = [];
    for (const [trialId, intervals] of byTrial) {
      const layout = intervals[0]!.labels;
      // The barrier: the first probe was sent then (a reply arrives one RTT later, an interval ends one interval later).
      const t0 = trialStart(intervals);
      const idle = Number(layout['load_idle']) || 0;
      const duration = Number(layout['load_duration']) || 0;
      const step = Number(layout['load_step']) || 0.2;
      const hasLoad = Number(layout['load_flows'] ?? 0) > 0;
      const name = trialName(
        trialId,
        run.trials.find((t) => t.id === trialId),
        layout,
      );
      mine.push({
        runId: run.runId,
        runName: names[runIndex]!,
        trialId,
        name,
        setup: setupText(layout),
        window: { t0, idleSeconds: idle, loadSeconds: duration },
        step,
        hasLoad,
        intervals,
      });
    }
    // Two trials of one benchmark (a matrix, repetitions) keep their ids apart.
    const counts = new Map<string, number>();
    for (const t of mine) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
    trials.push(...mine.map((t) => ((counts.get(t.name) ?? 0) > 1 && !t.name.startsWith(t.trialId) ? { ...t, name: `${t.name} ${t.trialId}` } : t)));
  });
  return trials;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
const seconds = (trial: LoadTrial, time: number) => round((time - trial.window.t0) / 1000);

/**
 * Sum over flows of a direction's throughput on the step grid. Each flow's
 * rate holds over its interval (ending when its line arrived), and each grid
 * point takes from every flow the interval that covers it — as flent
 * resamples its series before summing. Binning intervals by their end
 * instead would count two intervals of one flow in one bin and none in the
 * next whenever netperf's demo intervals run longer than the step (they
 * stretch on a busy machine), and the sum would zigzag.
 */
function directionSeries(trial: LoadTrial, direction: 'upload' | 'download'): (readonly [number, number])[] {
  const perFlow = new Map<string, Sample[]>();
  for (const s of trial.intervals) {
    if (bulkDirection(s) === direction) perFlow.set(String(s.labels['flow']), [...(perFlow.get(String(s.labels['flow'])) ?? []), s]);
  }
  const total = new Map<number, number>();
  for (const samples of perFlow.values()) {
    for (const [bin, value] of coverGrid(samples, trial.window.t0, trial.step)) total.set(bin, (total.get(bin) ?? 0) + value);
  }
  return [...total].sort((a, b) => a[0] - b[0]).map(([bin, value]) => [round(bin * trial.step), round(value)] as const);
}

/** How the charts name each probe kind. */
const PROBE_NAMES: Readonly<Record<ProbeKind, string>> = { icmp: 'ICMP', udp: 'UDP', irtt: 'irtt' };
const ONE_WAY_NAMES: Readonly<Record<OneWayMetric, string>> = { send_delay: 'irtt send delay', receive_delay: 'irtt receive delay' };

function probeSeries(trial: LoadTrial, probe: ProbeKind): (readonly [number, number])[] {
  return trial.intervals
    .flatMap((s) => {
      const rtt = probeRtt(s);
      return rtt?.probe === probe ? [[seconds(trial, s.timestamp), round(rtt.ms)] as const] : [];
    })
    .sort((a, b) => a[0] - b[0]);
}

function oneWaySeries(trial: LoadTrial, way: OneWayMetric): (readonly [number, number])[] {
  return trial.intervals
    .flatMap((s) => {
      const delay = probeOneWay(s);
      return delay?.way === way ? [[seconds(trial, s.timestamp), round(delay.ms)] as const] : [];
    })
    .sort((a, b) => a[0] - b[0]);
}

const meanOf = (points: readonly (readonly [number, number])[]) => points.reduce((sum, p) => sum + p[1], 0) / Math.max(1, points.length);

/** flent's "all scaled": download and upload totals (left axis) and probe RTTs (right axis) over one time axis. */
export function loadTimeSeriesCharts(results: ChartInput, _options: ChartOptions = {}, ids = new ChartIds()): TimeSeriesChart[] {
  return loadTrials(results).flatMap((trial) => {
    const series: TimeSeriesSeries[] = [];
    const rateUnit = trial.intervals.find((s) => bulkDirection(s))?.unit ?? 'Mbits/sec';
    for (const [name, direction] of [
      ['download', 'download'],
      ['upload', 'upload'],
    ] as const) {
      const points = directionSeries(trial, direction);
      if (points.length > 0) series.push({ name, runId: trial.runId, points, mean: meanOf(points) });
    }
    for (const probe of PROBE_KINDS) {
      const points = probeSeries(trial, probe);
      if (points.length > 0) series.push({ name: `${PROBE_NAMES[probe]} RTT`, runId: trial.runId, points, mean: meanOf(points), axis: 2 });
    }
    for (const way of ['send_delay', 'receive_delay'] as const) {
      const points = oneWaySeries(trial, way);
      if (points.length > 0) series.push({ name: ONE_WAY_NAMES[way], runId: trial.runId, points, mean: meanOf(points), axis: 2 });
    }
    if (series.length === 0) return [];
    const { idleSeconds, loadSeconds } = trial.window;
    return [
      {
        kind: 'timeseries' as const,
        id: ids.next('load', 'all-scaled', trial.trialId),
        title: `Latency under load over time: ${[trial.name, trial.setup].filter(Boolean).join(' · ')}`,
        subtitle: trial.hasLoad ? `load from ${idleSeconds} s to ${idleSeconds + loadSeconds} s; throughput per ${trial.step} s, every probe` : 'no load: probes only',
        notes: [
          "flent's \"all scaled\" plot: download and upload are the sums over the bulk flows per step (left axis); probe RTTs (and irtt's one-way delays) are every probe (right axis). Time is the controller's clock since the barrier.",
          'UDP RTT is derived from netperf UDP_RR intervals (1 / transactions per second, one transaction in flight).',
        ],
        runIds: [trial.runId],
        metric: 'latency_under_load',
        x: { label: 'time since start', unit: 's', scale: 'linear' as const },
        y: { label: 'throughput', unit: rateUnit, scale: 'linear' as const },
        y2: { label: 'round-trip time', unit: 'ms', scale: 'linear' as const },
        series,
        span: [0, round((Math.max(...trial.intervals.map((s) => s.timestamp)) - trial.window.t0) / 1000)] as const,
      },
    ];
  });
}

/** Probe RTTs of a trial split by phase (ramp and drain left out, as in the summary). */
function phaseRtts(trial: LoadTrial, probe: ProbeKind): { idle: number[]; loaded: number[] } {
  const out = { idle: [] as number[], loaded: [] as number[] };
  for (const s of trial.intervals) {
    const rtt = probeRtt(s);
    if (rtt?.probe !== probe) continue;
    const phase = loadPhase(trial.window, s.timestamp, trial.hasLoad);
    if (phase === 'idle' || phase === 'loaded') out[phase].push(rtt.ms);
  }
  return out;
}

function cdfSeries(name: string, runId: string, values: readonly number[]): CdfSeries {
  const sorted = [...values].sort((a, b) => a - b);
  const points = sorted.map((v, i) => [round(v), round((100 * (i + 1)) / sorted.length)] as const);
  return {
    name,
    runId,
    count: sorted.length,
    points,
    percentiles: { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), p999: percentile(sorted, 99.9), max: sorted.at(-1)! },
  };
}

/** Latency CDF, idle against loaded, per probe kind: one chart per run, a line per trial and phase. */
export function loadCdfCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): CdfChart[] {
  const charts: CdfChart[] = [];
  const byRun = groupBy(loadTrials(results), (t) => t.runId);
  for (const trials of byRun.values()) {
    for (const probe of PROBE_KINDS) {
      const label = PROBE_NAMES[probe];
      const series: CdfSeries[] = [];
      for (const trial of trials) {
        const { idle, loaded } = phaseRtts(trial, probe);
        const prefix = trials.length > 1 ? `${trial.name} ` : '';
        if (idle.length > 0) series.push(cdfSeries(`${prefix}idle`, trial.runId, idle));
        if (loaded.length > 0) series.push(cdfSeries(`${prefix}loaded`, trial.runId, loaded));
      }
      if (series.length === 0 || series.length > (options.maxSeries ?? 12)) continue;
      charts.push({
        kind: 'cdf',
        id: ids.next('load', 'cdf', probe, trials[0]!.runId),
        title: `${label} round-trip time, idle vs loaded (${trials[0]!.runName})${setups(trials).title}`,
        subtitle: [`${series.reduce((n, s) => n + s.count, 0)} probes`, setups(trials).subtitle].filter(Boolean).join('; '),
        notes: ['Idle: before the load and from 1 s after it; loaded: from 1 s into the load to its end (the first second is slow start filling the queue).'],
        runIds: [trials[0]!.runId],
        metric: `${probe}_rtt`,
        x: { label: 'round-trip time', unit: 'ms', scale: 'log' },
        y: { label: 'probes ≤ x', unit: '%', scale: 'linear' },
        series,
      });
    }
  }
  return charts;
}

function box(values: readonly number[]): Box | null {
  if (values.length === 0) return null;
  return { min: Math.min(...values), q1: percentile(values, 25), median: percentile(values, 50), q3: percentile(values, 75), max: Math.max(...values), n: values.length };
}

/** Box plots of the totals per trial: throughput per step while loaded (download, upload, total) and probe RTTs by phase. */
export function loadBoxCharts(results: ChartInput, _options: ChartOptions = {}, ids = new ChartIds()): BoxChart[] {
  const charts: BoxChart[] = [];
  for (const trials of groupBy(loadTrials(results), (t) => t.runId).values()) {
    const runId = trials[0]!.runId;
    const rate = { categories: [] as string[], boxes: [] as (Box | null)[] };
    const rtt = { categories: [] as string[], boxes: [] as (Box | null)[] };
    let unit = 'Mbits/sec';
    for (const trial of trials) {
      const prefix = trials.length > 1 ? `${trial.name} ` : '';
      const loaded = (points: readonly (readonly [number, number])[]) => points.filter(([t]) => loadPhase(trial.window, trial.window.t0 + t * 1000, true) === 'loaded');
      const down = loaded(directionSeries(trial, 'download'));
      const up = loaded(directionSeries(trial, 'upload'));
      unit = trial.intervals.find((s) => bulkDirection(s))?.unit ?? unit;
      const totals = new Map<number, number>();
      for (const [t, v] of [...down, ...up]) totals.set(t, (totals.get(t) ?? 0) + v);
      for (const [name, points] of [
        ['download', down],
        ['upload', up],
      ] as const) {
        if (points.length === 0) continue;
        rate.categories.push(`${prefix}${name}`);
        rate.boxes.push(box(points.map((p) => p[1])));
      }
      if (down.length > 0 && up.length > 0) {
        rate.categories.push(`${prefix}total`);
        rate.boxes.push(box([...totals.values()]));
      }
      for (const probe of PROBE_KINDS) {
        const phases = phaseRtts(trial, probe);
        for (const phase of ['idle', 'loaded'] as const) {
          if (phases[phase].length === 0) continue;
          rtt.categories.push(`${prefix}${PROBE_NAMES[probe]} ${phase}`);
          rtt.boxes.push(box(phases[phase]));
        }
      }
    }
    const notes = ['Whiskers: min and max; box: 25th to 75th percentile; line: median (linear between closest ranks).'];
    if (rate.categories.length > 0) {
      charts.push({
        kind: 'box',
        id: ids.next('load', 'box', 'throughput', runId),
        title: `Throughput while loaded (${trials[0]!.runName})${setups(trials).title}`,
        subtitle: ["per step, summed over each direction's flows", setups(trials).subtitle].filter(Boolean).join('; '),
        notes,
        runIds: [runId],
        metric: 'goodput',
        x: { label: 'trial and direction', categories: rate.categories },
        y: { label: 'throughput', unit, scale: 'linear' },
        series: [{ name: 'throughput', runId, boxes: rate.boxes }],
      });
    }
    if (rtt.categories.length > 0) {
      charts.push({
        kind: 'box',
        id: ids.next('load', 'box', 'rtt', runId),
        title: `Probe round-trip time by phase (${trials[0]!.runName})${setups(trials).title}`,
        subtitle: ['every probe', setups(trials).subtitle].filter(Boolean).join('; '),
        notes,
        runIds: [runId],
        metric: 'rtt',
        x: { label: 'trial, probe and phase', categories: rtt.categories },
        y: { label: 'round-trip time', unit: 'ms', scale: 'linear' },
        series: [{ name: 'round-trip time', runId, boxes: rtt.boxes }],
      });
    }
  }
  return charts;
}

/**
 * Queue and congestion control of a chart's trials: in the title when they
 * share one (` · 100mbit tbf, 5ms queue · cubic`), else per trial in the
 * subtitle (`rrul-shallow: …, rrul-deep: …`).
 */
function setups(trials: readonly LoadTrial[]): { title: string; subtitle: string } {
  const distinct = [...new Set(trials.map((t) => t.setup))];
  if (distinct.length === 1) return { title: distinct[0] ? ` · ${distinct[0]}` : '', subtitle: '' };
  return {
    title: '',
    subtitle: trials
      .filter((t) => t.setup)
      .map((t) => `${t.name}: ${t.setup}`)
      .join(', '),
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
