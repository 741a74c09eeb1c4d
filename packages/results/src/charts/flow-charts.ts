import type { Sample, TrialRecord } from '@netbench/plugin-api';
import { ChartIds } from './chart-id.js';
import { INTERVAL_METHOD } from './confidence-interval.js';
import { runNames } from './observations.js';
import { coverGrid, trialStart } from './trial-clock.js';
import { setupText, trialName } from './trial-setup.js';
import type { BarChart, ChartInput, ChartOptions, TimeSeriesChart, TimeSeriesSeries } from './types.js';

const isFlow = (s: Sample) => s.trialId !== undefined && typeof s.labels['flow'] === 'string';
const isInterval = (s: Sample) => s.labels['series'] === 'interval';

/**
 * Per-flow time series of synchronized trials (docs/flows.md): one chart per
 * trial and metric. Rates are stacked areas, one band per flow (and
 * stream), resampled onto a shared grid of the tool's interval (each grid
 * point takes the interval covering it, every flow on every grid point), so
 * the top edge is the aggregate over time and the stack has no holes.
 * Times (RTTs, delays) are lines with every sample where it arrived. Every
 * chart of a trial counts time from the trial's start (the barrier of a
 * latency-under-load trial, as its "all scaled" plot) over the trial's whole span.
 */
export function flowTimeSeriesCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): TimeSeriesChart[] {
  const maxSeries = options.maxSeries ?? 12;
  const charts: TimeSeriesChart[] = [];
  for (const { run, samples } of results) {
    const byTrial = groupBy(
      samples.filter((s) => isFlow(s) && isInterval(s)),
      (s) => s.trialId!,
    );
    for (const [trialId, trialSamples] of byTrial) {
      const load = trialSamples[0]!.labels['load_test'] !== undefined;
      const widthOf = (group: readonly Sample[]) => median(group.map((s) => Number(s.labels['interval_seconds'])).filter((w) => Number.isFinite(w) && w > 0)) || 1;
      // A load trial's clock is its barrier, as in its "all scaled" plot (samples without a length reach back nothing there).
      const t0 = trialStart(trialSamples, load ? 0 : widthOf(trialSamples));
      const end = round((Math.max(...trialSamples.map((s) => s.timestamp)) - t0) / 1000);
      const record = run.trials.find((t) => t.id === trialId);
      const name = [trialName(trialId, record, trialSamples[0]!.labels), setupText(trialSamples[0]!.labels)].filter(Boolean).join(' · ');
      const mine = trialSamples.filter((s) => !options.metrics || options.metrics.includes(s.metric));
      for (const group of groupBy(mine, (s) => `${s.metric}\u0000${s.unit}`).values()) {
        const first = group[0]!;
        const width = widthOf(group);
        const lines = groupBy(
          group,
          (s) => `${String(s.labels['flow'])}${s.labels['stream'] !== undefined && s.labels['stream'] !== 0 ? ` stream ${String(s.labels['stream'])}` : ''}`,
        );
        if (lines.size > maxSeries || [...lines.values()].every((l) => l.length < 2)) continue;
        // Rates add up across flows; round-trip times and delays do not: those are drawn as lines side by side.
        const stacked = additive(first.metric, first.unit);
        const sorted = [...lines.entries()].sort(([a], [b]) => a.localeCompare(b));
        const series = stacked
          ? stackedSeries(sorted, t0, width, run.runId)
          : sorted.map(([flow, line]) => {
              const points = line.map((s) => [round((s.timestamp - t0) / 1000), s.value] as const).sort((a, b) => a[0] - b[0]);
              return { name: flow, runId: run.runId, points, mean: points.reduce((sum, p) => sum + p[1], 0) / points.length };
            });
        charts.push({
          kind: 'timeseries',
          id: ids.next('flows', first.metric, trialId),
          title: `${first.metric} per flow over time: ${name}`,
          subtitle: stacked ? `${series.length} flows stacked, resampled every ${round(width)} s` : `${series.length} flows, every sample`,
          notes: [
            stacked
              ? "Stacked: each band is one flow, the top edge their sum. Each flow's rate holds over its interval (ending when its line arrived on the controller clock); every grid point takes the interval covering it, 0 where the flow was not sending."
              : 'One line per flow (times do not add up across flows), a point per sample where it arrived on the controller clock.',
          ],
          runIds: [run.runId],
          metric: first.metric,
          x: { label: 'time since start', unit: 's', scale: 'linear' },
          y: { label: first.metric, unit: first.unit, scale: 'linear' },
          series,
          span: [0, end],
          ...(load ? { detail: true } : {}),
          ...(stacked ? { stack: 'flows' as const } : {}),
        });
      }
    }
  }
  return charts;
}

/** Every flow on the same grid points (the union of what the flows covered): a flow that sent nothing at a point is 0 there, not missing. */
function stackedSeries(lines: readonly (readonly [string, readonly Sample[]])[], t0: number, width: number, runId: string): TimeSeriesSeries[] {
  const grids = lines.map(([, line]) => coverGrid(line, t0, width));
  const bins = [...new Set(grids.flatMap((g) => [...g.keys()]))].sort((a, b) => a - b);
  return lines.map(([flow], i) => {
    const points = bins.map((bin) => [round(bin * width), grids[i]!.get(bin) ?? 0] as const);
    const measured = [...grids[i]!.values()];
    return { name: flow, runId, points, mean: measured.reduce((sum, v) => sum + v, 0) / Math.max(1, measured.length) };
  });
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
  const aggregates = results.flatMap(({ run, samples }, runIndex) =>
    samples
      .filter((s) => isFlow(s) && s.labels['flow'] === 'aggregate' && s.labels['aggregation'] !== undefined && (!options.metrics || options.metrics.includes(s.metric)))
      // A latency-under-load trial's aggregates (its probes' RTTs pooled, its flows summed) are summed up by its own charts and headline.
      .filter((s) => s.labels['load_test'] === undefined)
      .map((s) => ({ s, run: run.runId, runIndex, trial: run.trials.find((t) => t.id === s.trialId) })),
  );
  const charts: BarChart[] = [];
  for (const group of groupBy(aggregates, (a) => `${a.s.metric}\u0000${a.s.unit}`).values()) {
    const first = group[0]!.s;
    // Trials of one run that the name and parameters do not tell apart (repetitions) keep their ids.
    const trialsOf = new Map<string, Set<string>>();
    for (const a of group) {
      const key = `${a.runIndex}\u0000${category(a.trial, a.s)}`;
      trialsOf.set(key, (trialsOf.get(key) ?? new Set()).add(a.s.trialId ?? ''));
    }
    const label = (a: (typeof group)[number]) => {
      const c = category(a.trial, a.s);
      return trialsOf.get(`${a.runIndex}\u0000${c}`)!.size > 1 && !c.startsWith(a.s.trialId ?? '') ? `${c} ${a.s.trialId}` : c;
    };
    const categories = [...new Set(group.map(label))];
    if (categories.length > (options.maxCategories ?? 30)) continue;
    const runs = [...new Set(group.map((a) => a.runIndex))];
    const series = runs.map((runIndex) => {
      const mine = group.filter((a) => a.runIndex === runIndex);
      return {
        name: comparing ? names[runIndex]! : 'aggregate',
        runId: mine[0]!.run,
        bars: categories.map((c) => {
          const found = mine.find((a) => label(a) === c);
          return found ? { mean: found.s.value, n: Number(found.s.labels['flow_count']) || 1, basis: 'streams' as const } : null;
        }),
      };
    });
    const spreads = group.map((a) => `${label(a)}: flows ${fmt(a.s.labels['flow_min'])}–${fmt(a.s.labels['flow_max'])} (median ${fmt(a.s.labels['flow_median'])})`);
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

/** `mesh UDP_RR burst=4` (the spec's benchmark name), `t0003 UDP_RR burst=4` without one: the trial and the parameters that tell it from its neighbours. */
function category(trial: TrialRecord | undefined, sample: Sample): string {
  const burst = trial?.params['burst'] ?? sample.labels['burst'];
  const streams = trial?.params['streams'];
  const parts = [trialName(sample.trialId ?? '', trial ? { ...trial, test: String(sample.labels['test'] ?? trial.test) } : undefined, sample.labels)];
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
