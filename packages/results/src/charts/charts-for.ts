import { barCharts } from './bar-charts.js';
import { cdfCharts } from './cdf-charts.js';
import { ChartIds } from './chart-id.js';
import { cpuTimeSeriesCharts } from './cpu-charts.js';
import { flowBarCharts, flowTimeSeriesCharts } from './flow-charts.js';
import { heatmapCharts } from './heatmap-charts.js';
import { histogramCharts } from './histogram-charts.js';
import { intervalSweepCharts } from './interval-sweep-charts.js';
import { loadBoxCharts, loadCdfCharts, loadTimeSeriesCharts } from './load-charts.js';
import { rrLatencyCharts } from './rr-latency-charts.js';
import { sweepCharts } from './sweep-charts.js';
import { timeSeriesCharts } from './timeseries-charts.js';
import type { ChartInput, ChartKind, ChartOptions, ChartSpec } from './types.js';

type Maker = (results: ChartInput, options: ChartOptions, ids: ChartIds) => ChartSpec[];

// Report order: the matrix first (the whitepaper's figure), then latency under load's own plots (its key
// figure, flent's "all scaled", before the per-flow detail), then comparisons, sweeps, distributions, time.
const MAKERS: readonly (readonly [ChartKind, Maker])[] = [
  ['heatmap', heatmapCharts],
  // Latency under load (tool: load): flent's all-scaled time series, idle vs loaded CDF, box plots of totals.
  ['timeseries', loadTimeSeriesCharts],
  ['cdf', loadCdfCharts],
  ['box', loadBoxCharts],
  ['bar', barCharts],
  // netperf TCP_RR/UDP_RR latency: p50/p90/p99 (or 1/tps, labelled derived) per configuration.
  ['bar', rrLatencyCharts],
  ['bar', flowBarCharts],
  ['sweep', sweepCharts],
  // Latency percentiles against probe interval, every tool on one chart (ping -i, irtt -i).
  ['sweep', intervalSweepCharts],
  ['cdf', cdfCharts],
  ['histogram', histogramCharts],
  ['timeseries', timeSeriesCharts],
  ['timeseries', flowTimeSeriesCharts],
  // Per trial of 10 s or more: its CPUs' busy share over time beside its throughput (docs/explain.md).
  ['timeseries', cpuTimeSeriesCharts],
];

/**
 * The charts that suit these runs, chosen from what they contain: heatmaps
 * for zone/region matrices, bars with confidence intervals for comparisons
 * and repetitions, lines for parameter sweeps, CDFs and histograms where
 * samples carry latency histograms, time series for per-interval samples.
 * Pure: the same results give the same specs (ids included).
 */
export function chartsFor(results: ChartInput, options: ChartOptions = {}): ChartSpec[] {
  const ids = new ChartIds();
  return MAKERS.filter(([kind]) => !options.kinds || options.kinds.includes(kind)).flatMap(([, make]) => make(results, options, ids));
}
