import { ChartIds } from './chart-id.js';
import { configNames, groupByParts, observe, runNames } from './observations.js';
import type { ChartInput, ChartOptions, TimeSeriesChart } from './types.js';

/**
 * Per-interval series (iperf3's `Interval Throughput`, any metric whose
 * samples carry numeric `interval_start`/`interval_end` labels): one chart
 * per metric, one line per trial configuration (and run), x the end of each
 * interval in seconds since the trial started. Intervals iperf3 omitted
 * (warm-up, `omit`) are drawn too: they show the ramp the totals leave out.
 */
export function timeSeriesCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): TimeSeriesChart[] {
  const maxSeries = options.maxSeries ?? 12;
  const names = runNames(results);
  const interval = observe(results).filter(
    (o) =>
      typeof o.sample.labels['interval_end'] === 'number' &&
      typeof o.sample.labels['interval_start'] === 'number' &&
      !o.perStream &&
      (!options.metrics || options.metrics.includes(o.sample.metric)),
  );
  const charts: TimeSeriesChart[] = [];
  for (const group of groupByParts(interval, (o) => [o.sample.metric, o.sample.unit])) {
    // One line per trial: repetitions of a configuration are separate lines, not averaged.
    // A line needs two intervals to be a line; one-interval trials (duration = interval) have only their total.
    const lines = groupByParts(group, (o) => [o.runIndex, o.sample.trialId, o.configKey]).filter((l) => l.length >= 2);
    if (lines.length === 0) continue;
    if (lines.length > maxSeries) continue;
    const labels = configNames(lines.map((l) => l[0]!.config));
    const comparing = new Set(group.map((o) => o.runIndex)).size > 1;
    const repeated = new Set(lines.map((l) => l[0]!.configKey)).size < lines.length;
    const first = group[0]!;
    const widths = group.map((o) => Number(o.sample.labels['interval_end']) - Number(o.sample.labels['interval_start']));
    const series = lines.map((line, i) => {
      const head = line[0]!;
      const points = line.map((o) => [Number(o.sample.labels['interval_end']), o.sample.value] as const).sort((a, b) => a[0] - b[0]);
      const repetition = head.trial?.params['repetition'];
      const which = repetition !== undefined ? `repetition ${String(repetition)}` : (head.sample.trialId ?? '');
      const parts = [labels[i]!, ...(repeated ? [which] : []), ...(comparing ? [names[head.runIndex]!] : [])];
      return { name: parts.filter(Boolean).join(' · '), runId: head.run.runId, points, mean: points.reduce((s, p) => s + p[1], 0) / points.length };
    });
    charts.push({
      kind: 'timeseries',
      id: ids.next('timeseries', first.sample.metric),
      title: `${first.sample.metric} over time`,
      // The axis names the unit, in the step its values fill (Gbit/s); the samples' unit here would contradict it.
      subtitle: `one point per ${formatSeconds(median(widths))} interval`,
      notes: ["Each point is the end of one report interval; dashed lines are each series' mean."],
      runIds: [...new Set(series.map((s) => s.runId))],
      metric: first.sample.metric,
      x: { label: 'time since start', unit: 's', scale: 'linear' },
      y: { label: first.sample.metric, unit: first.sample.unit, scale: 'linear' },
      series,
    });
  }
  return charts;
}

function median(values: readonly number[]): number {
  // A typed array sorts numerically and much faster than an array with a comparator.
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function formatSeconds(seconds: number): string {
  return `${Number(seconds.toPrecision(2))} s`;
}
