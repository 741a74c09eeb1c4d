import { ChartIds } from './chart-id.js';
import { readableTimeUnit } from './histogram-buckets.js';
import { type LatencySeries, latencyGroups } from './latency-groups.js';
import type { CdfChart, CdfSeries, ChartInput, ChartOptions } from './types.js';

const MAX_POINTS = 400;

/**
 * Latency CDFs from the samples' HdrHistograms: one chart per tool and
 * metric, one line per configuration (and run). Log x axis when the values
 * span more than a factor of 20, so the tail stays visible.
 */
export function cdfCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): CdfChart[] {
  return latencyGroups(results, options).map((group) => {
    const typical = median(group.series.map((s) => s.histogram.percentile(50)));
    const { unit, factor } = readableTimeUnit(group.unit, typical);
    const series = group.series.map((s) => cdfSeries(s, factor));
    const min = Math.min(...group.series.map((s) => s.histogram.min));
    const max = Math.max(...group.series.map((s) => s.histogram.max));
    const total = series.reduce((sum, s) => sum + s.count, 0);
    return {
      kind: 'cdf',
      id: ids.next('cdf', group.metric, group.tool),
      title: `Latency CDF${group.tool ? ` (${group.tool})` : ''}`,
      subtitle: `${total.toLocaleString('en-US')} measurements in ${series.length} series`,
      notes: [`From the HdrHistograms of "${group.metric}" samples (3 significant digits), merged over repetitions.`],
      runIds: group.runIds,
      metric: group.metric,
      x: { label: 'latency', unit, scale: min > 0 && max / min > 20 ? 'log' : 'linear' },
      y: { label: 'measurements ≤ latency', unit: '%', scale: 'linear' },
      series,
    };
  });
}

function cdfSeries({ name, runId, histogram }: LatencySeries, factor: number): CdfSeries {
  // Start at 0 % at the smallest value, so every line rises from the axis.
  const first = histogram.buckets[0];
  const points: [number, number][] = first ? [[first.value * factor, 0]] : [];
  let seen = 0;
  for (const bucket of histogram.buckets) {
    seen += bucket.count;
    points.push([bucket.value * factor, (100 * seen) / histogram.count]);
  }
  const at = (p: number) => histogram.percentile(p) * factor;
  return {
    name,
    runId,
    count: histogram.count,
    points: thin(points),
    percentiles: { p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max: histogram.max * factor },
  };
}

/** At most ~MAX_POINTS points: every 0.25 % step below p99, every point of the tail above it. */
function thin(points: [number, number][]): [number, number][] {
  if (points.length <= MAX_POINTS) return points;
  const kept: [number, number][] = [];
  let lastStep = -1;
  points.forEach((point, i) => {
    const step = Math.floor(point[1] * 4);
    if (point[1] >= 99 || step !== lastStep || i === points.length - 1) {
      kept.push(point);
      lastStep = step;
    }
  });
  return kept;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
