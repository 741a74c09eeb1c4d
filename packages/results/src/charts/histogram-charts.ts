import { median } from './cdf-charts.js';
import { ChartIds } from './chart-id.js';
import { readableTimeUnit } from './histogram-buckets.js';
import { latencyGroups } from './latency-groups.js';
import type { ChartInput, ChartOptions, HistogramChart } from './types.js';

const TARGET_BINS = 40;

/**
 * Latency histograms with bins shared by every series of a chart, in
 * percent of each series' measurements so runs of different length compare.
 * Bins run from the smallest value to the largest p99.9; the far tail above
 * it is counted as `overflow` (shown in the legend), not drawn.
 */
export function histogramCharts(results: ChartInput, options: ChartOptions = {}, ids = new ChartIds()): HistogramChart[] {
  return latencyGroups(results, options).map((group) => {
    const low = Math.min(...group.series.map((s) => s.histogram.min));
    const p999 = Math.max(...group.series.map((s) => s.histogram.percentile(99.9)));
    const width = binWidth(Math.max(p999 - low, 1) / TARGET_BINS);
    const start = Math.floor(low / width) * width;
    const binCount = Math.max(1, Math.floor((p999 - start) / width) + 1);
    const edges = Array.from({ length: binCount + 1 }, (_, i) => start + i * width);
    const end = edges.at(-1)!;
    const typical = median(group.series.map((s) => s.histogram.percentile(50)));
    const { unit, factor } = readableTimeUnit(group.unit, typical);
    const series = group.series.map(({ name, runId, histogram }) => {
      const counts = new Array<number>(binCount).fill(0);
      let overflow = 0;
      for (const bucket of histogram.buckets) {
        if (bucket.value >= end) overflow += bucket.count;
        else counts[Math.floor((bucket.value - start) / width)]! += bucket.count;
      }
      return { name, runId, count: histogram.count, percents: counts.map((c) => (100 * c) / histogram.count), overflow: (100 * overflow) / histogram.count };
    });
    return {
      kind: 'histogram',
      id: ids.next('histogram', group.metric, group.tool),
      title: `Latency histogram${group.tool ? ` (${group.tool})` : ''}`,
      subtitle: `${formatWidth(width * factor)} ${unit} bins; percent of each series' measurements`,
      notes: [`From the HdrHistograms of "${group.metric}" samples; bins up to the largest p99.9, the rest counted as overflow.`],
      runIds: group.runIds,
      metric: group.metric,
      x: { label: 'latency', unit, scale: 'linear' },
      y: { label: 'measurements', unit: '%', scale: 'linear' },
      edges: edges.map((e) => e * factor),
      series,
    };
  });
}

/** A round bin width (1, 2 or 5 × 10^k) of at least one unit: HdrHistogram values are integers. */
function binWidth(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * magnitude >= raw)! * magnitude;
  return Math.max(1, Math.round(step));
}

function formatWidth(width: number): string {
  return Number(width.toPrecision(3)).toString();
}
