import { INTERVAL_METHOD } from './confidence-interval.js';
import type { Sample, TrialRecord } from '@netbench/plugin-api';
import { ChartIds } from './chart-id.js';
import { runNames } from './observations.js';
import type { BarChart, ChartInput, ChartOptions, TimeSeriesChart } from './types.js';

const isFlow = (s: Sample) => s.trialId !== undefined && typeof s.labels['flow'] === 'string';
const isInterval = (s: Sample) => s.labels['series'] === 'interval';

/**
 * Per-flow time series of synchronized trials (docs/flows.md): one chart per
 * trial and metric, one stacked area per flow (and stream), on a shared grid
 * of the tool's interval since the trial's first interval began, so the top
 * edge is the aggregate over time. Intervals are placed on the grid by their
 * end (the controller's clock), which is what makes flows comparable.
 */
export function flowTimeSeriesCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): TimeSeriesChart[] {
  const maxSeries = options.maxSeries ?? 12;
  const charts: TimeSeriesChart[] = [];
  for (const { run, samples } of results) {
    const byTrialMetric = groupBy(samples.filter((s) => isFlow(s) && isInterval(s) && (!options.metrics || options.metrics.includes(s.metric))), (s) => `${s.trialId}\u0000${s.metric}\u0000${s.unit}`);
    for (const group of byTrialMetric.values()) {
      const first = group[0]!;
      const widths = group.map((s) => Number(s.labels['interval_seconds'])).filter((w) => Number.isFinite(w) && w > 0);
      const width = widths.length > 0 ? median(widths) : 1;
      const t0 = Math.min(...group.map((s) => s.timestamp - 1000 * (Number(s.labels['interval_seconds']) || width)));
      const lines = groupBy(group, (s) => `${String(s.labels['flow'])}${s.labels['stream'] !== undefined && s.labels['stream'] !== 0 ? ` stream ${String(s.labels['stream'])}` : ''}`);
      if (lines.size > maxSeries || [...lines.values()].every((l) => l.length < 2)) continue;
      const series = [...lines.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, line]) => {
        const bins = new Map<number, number>();
        for (const s of line) bins.set(Math.max(1, Math.round((s.timestamp - t0) / 1000 / width)), s.value);
        const points = [...bins.entries()].sort((a, b) => a[0] - b[0]).map(([bin, value]) => [round(bin * width), value] as const);
        return { name, runId: run.runId, points, mean: points.reduce((sum, p) => sum + p[1], 0) / points.length };
      });
      // Rates add up across flows; round-trip times and delays do not: those are drawn as lines side by side.
      const stacked = additive(first.metric, first.unit);
      charts.push({
        kind: 'timeseries',
        id: ids.next('flows', first.metric, first.trialId ?? ''),
        title: `${first.metric} per flow over time (${first.trialId})`,
        subtitle: `one point per ${round(width)} s interval, ${series.length} flows${stacked ? ' stacked' : ''}`,
        notes: [stacked
          ? 'Stacked: each band is one flow, the top edge their sum. Intervals are placed by their end on the controller clock, rounded to the interval grid.'
          : 'One line per flow (times do not add up across flows). Intervals are placed by their end on the controller clock, rounded to the interval grid.'],
        runIds: [run.runId],
        metric: first.metric,
        x: { label: 'time since start', unit: 's', scale: 'linear' },
        y: { label: first.metric, unit: first.unit, scale: 'linear' },
        series,
        ...(stacked ? { stack: 'flows' as const } : {}),
      });
    }
  }
  return charts;
}

const TIME_UNITS = new Set(['s', 'ms', 'us', 'µs', 'usec', 'ns', 'sec', 'seconds', 'milliseconds', 'microseconds']);

/** Whether a metric's values of several flows add up (rates, throughputs, counts) rather than being times. */
export function additive(metric: string, unit: string): boolean {
  if (TIME_UNITS.has(unit.toLowerCase())) return false;
  return !/rtt|latency|delay|jitter|ipdv/i.test(metric);
}

/**
 * Aggregate bars of synchronized trials: per metric the trials aggregated
 * (`flow: aggregate`), one bar per trial (and run), its value the sum (or
 * mean) over the flows. The flows' spread is in the notes, not drawn as an
 * interval: min..max across flows is not a confidence interval.
 */
export function flowBarCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): BarChart[] {
  const names = runNames(results);
  const comparing = results.length > 1;
  const aggregates = results.flatMap(({ run, samples }, runIndex) => samples
    .filter((s) => isFlow(s) && s.labels['flow'] === 'aggregate' && s.labels['aggregation'] !== undefined && (!options.metrics || options.metrics.includes(s.metric)))
    .map((s) => ({ s, run: run.runId, runIndex, trial: run.trials.find((t) => t.id === s.trialId) })));
  const charts: BarChart[] = [];
  for (const group of groupBy(aggregates, (a) => `${a.s.metric}\u0000${a.s.unit}`).values()) {
    const first = group[0]!.s;
    const categories = [...new Set(group.map((a) => category(a.trial, a.s)))];
    if (categories.length > (options.maxCategories ?? 30)) continue;
    const runs = [...new Set(group.map((a) => a.runIndex))];
    const series = runs.map((runIndex) => {
      const mine = group.filter((a) => a.runIndex === runIndex);
      return {
        name: comparing ? names[runIndex]! : 'aggregate',
        runId: mine[0]!.run,
        bars: categories.map((c) => {
          const found = mine.find((a) => category(a.trial, a.s) === c);
          return found ? { mean: found.s.value, n: Number(found.s.labels['flow_count']) || 1, basis: 'streams' as const } : null;
        }),
      };
    });
    const spreads = group.map((a) => `${category(a.trial, a.s)}: flows ${fmt(a.s.labels['flow_min'])}–${fmt(a.s.labels['flow_max'])} (median ${fmt(a.s.labels['flow_median'])})`);
    const how = first.labels['aggregation'] === 'mean_of_flows' ? 'mean over the flows' : 'sum over the flows';
    charts.push({
      kind: 'bar',
      id: ids.next('flows-aggregate', first.metric),
      title: `${first.metric}, all flows together`,
      subtitle: `${first.unit}, ${how}`,
      notes: [`Each bar is one synchronized trial's ${how}; n is the number of flows.`, ...spreads.slice(0, 12)],
      runIds: [...new Set(group.map((a) => a.run))],
      metric: first.metric,
      x: { label: 'trial', categories },
      y: { label: first.metric, unit: first.unit, scale: 'linear' },
      better: /latency/i.test(first.metric) ? 'lower' : 'higher',
      confidence: { level: options.confidenceLevel ?? 0.95, method: INTERVAL_METHOD },
      series,
    });
  }
  return charts;
}

/** `t0003 UDP_RR burst=4`: the trial and the parameters that tell it from its neighbours. */
function category(trial: TrialRecord | undefined, sample: Sample): string {
  const burst = trial?.params['burst'] ?? sample.labels['burst'];
  const streams = trial?.params['streams'];
  const parts = [sample.trialId ?? '', String(sample.labels['test'] ?? trial?.test ?? '')];
  if (burst !== undefined) parts.push(`burst=${String(burst)}`);
  if (typeof streams === 'number' && streams > 1) parts.push(`streams=${streams}`);
  return parts.filter(Boolean).join(' ');
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
const fmt = (value: unknown) => (typeof value === 'number' ? Number(value.toPrecision(4)).toLocaleString('en-US') : String(value));
