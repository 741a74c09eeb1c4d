import type { RunResults } from '@netbench/plugin-api';

/**
 * Chart specifications: plain JSON data, independent of any renderer. The
 * report package draws them with ECharts (SVG/PNG/HTML); the desktop app
 * draws the same objects interactively. Every number a chart shows is in
 * the spec, already aggregated, with its unit: a renderer never looks at
 * samples.
 */
export type ChartSpec = HeatmapChart | BarChart | CdfChart | HistogramChart | TimeSeriesChart | SweepChart | BoxChart | TrendChart;
export type ChartKind = ChartSpec['kind'];

/** Whether smaller or larger values of a metric are better (latency vs throughput). */
export type Better = 'lower' | 'higher';

interface ChartBase {
  /** Stable and file-name safe, unique within one `chartsFor` result (`heatmap-average-latency`). */
  readonly id: string;
  readonly title: string;
  readonly subtitle?: string;
  /** How the numbers were obtained (aggregation, confidence method, what was left out). */
  readonly notes: readonly string[];
  /** Runs the chart draws from. */
  readonly runIds: readonly string[];
  /**
   * Detail behind another chart (the per-flow series of a latency-under-load
   * trial, whose "all scaled" plot shows them together): drawn after the
   * others, folded away by the app and the report.
   */
  readonly detail?: boolean;
}

export interface ValueAxis {
  readonly label: string;
  /** Unit of the values (`ms`, `Mbits/sec`, `%`); empty for plain counts. */
  readonly unit: string;
  readonly scale: 'linear' | 'log';
}

export interface CategoryAxis {
  readonly label: string;
  readonly categories: readonly string[];
}

/** Sending × receiving (zone or region) matrix of one metric, like PKB's inter-region figure. */
export interface HeatmapChart extends ChartBase {
  readonly kind: 'heatmap';
  readonly metric: string;
  /** Receiving side (PKB's `receiving_zone`), left to right. */
  readonly x: CategoryAxis;
  /** Sending side (PKB's `sending_zone`), top to bottom. */
  readonly y: CategoryAxis;
  readonly value: { readonly label: string; readonly unit: string; readonly better: Better; readonly min: number; readonly max: number };
  /** Only measured cells; `x`/`y` index the categories. `value` is the mean of `n` samples. */
  readonly cells: readonly HeatmapCell[];
}

export interface HeatmapCell {
  readonly x: number;
  readonly y: number;
  readonly value: number;
  readonly n: number;
}

/**
 * How intervals were computed: `bootstrap-percentile` (percentile bootstrap
 * of the mean, fixed seed; stays inside the values' range, so inside the
 * metric's domain). `student-t` is kept for charts made by older versions.
 */
export type IntervalMethod = 'bootstrap-percentile' | 'student-t';

/** Mean ± confidence interval of one metric per configuration (host pair, parameters), one series per run. */
export interface BarChart extends ChartBase {
  readonly kind: 'bar';
  readonly metric: string;
  readonly x: CategoryAxis;
  readonly y: ValueAxis;
  readonly better: Better;
  readonly confidence: { readonly level: number; readonly method: IntervalMethod };
  readonly series: readonly BarSeries[];
}

export interface BarSeries {
  readonly name: string;
  readonly runId: string;
  /** Aligned with `x.categories`; `null` where this run did not measure that configuration. */
  readonly bars: readonly (Bar | null)[];
}

export interface Bar {
  readonly mean: number;
  /** Confidence interval of the mean (see `IntervalMethod`); absent when n < 2. */
  readonly low?: number;
  readonly high?: number;
  readonly n: number;
  /** Why there is no interval (n = 1). */
  readonly noInterval?: string;
  readonly stddev?: number;
  /** What the n values are: trial-level samples of repeated trials/runs, or the streams of one trial. */
  readonly basis: 'repetitions' | 'streams';
}

/** Cumulative distribution of latency from the samples' HdrHistograms. */
export interface CdfChart extends ChartBase {
  readonly kind: 'cdf';
  readonly metric: string;
  readonly x: ValueAxis;
  /** Percent of measurements ≤ x (0–100). */
  readonly y: ValueAxis;
  readonly series: readonly CdfSeries[];
}

export interface CdfSeries {
  readonly name: string;
  readonly runId: string;
  /** Measurements in the merged histogram. */
  readonly count: number;
  /** `[value, percent ≤ value]`, value ascending, percent ending at 100. */
  readonly points: readonly (readonly [number, number])[];
  readonly percentiles: { readonly p50: number; readonly p90: number; readonly p99: number; readonly p999: number; readonly max: number };
}

/** Latency histogram with shared bins, in percent of each series' measurements. */
export interface HistogramChart extends ChartBase {
  readonly kind: 'histogram';
  readonly metric: string;
  readonly x: ValueAxis;
  readonly y: ValueAxis;
  /** Bin edges, ascending; bin i is [edges[i], edges[i+1]). */
  readonly edges: readonly number[];
  readonly series: readonly HistogramSeries[];
}

export interface HistogramSeries {
  readonly name: string;
  readonly runId: string;
  readonly count: number;
  /** Percent of the series' measurements per bin (length edges.length - 1). */
  readonly percents: readonly number[];
  /** Percent of measurements above the last edge (the far tail, left out of the bins). */
  readonly overflow: number;
}

/** A metric over time within a trial (iperf3 per-interval throughput). */
export interface TimeSeriesChart extends ChartBase {
  readonly kind: 'timeseries';
  readonly metric: string;
  /** Seconds since the start of the trial. */
  readonly x: ValueAxis;
  readonly y: ValueAxis;
  readonly series: readonly TimeSeriesSeries[];
  /**
   * `flows`: the series are the flows of one synchronized trial on a shared
   * time grid, drawn stacked (areas), so the top edge is their sum.
   */
  readonly stack?: 'flows';
  /** A second value axis on the right (flent's "all scaled": throughput left, latency right); series with `axis: 2` use it. */
  readonly y2?: ValueAxis;
  /**
   * The trial's time window `[start, end]` in seconds, when the chart is one
   * of several of one trial: they draw the same time axis, whatever part of
   * it each series covers.
   */
  readonly span?: readonly [number, number];
}

export interface TimeSeriesSeries {
  readonly name: string;
  readonly runId: string;
  /** `[seconds, value]` at the end of each interval, ascending. */
  readonly points: readonly (readonly [number, number])[];
  /** Mean over the intervals, for a reference line. */
  readonly mean: number;
  /** Drawn against `y2` (the chart's second axis). */
  readonly axis?: 2;
}

/** Box plots (min, quartiles, median, max) of a metric's values per category, one series per run (flent's box plots of totals). */
export interface BoxChart extends ChartBase {
  readonly kind: 'box';
  readonly metric: string;
  readonly x: CategoryAxis;
  readonly y: ValueAxis;
  readonly series: readonly BoxSeries[];
}

export interface BoxSeries {
  readonly name: string;
  readonly runId: string;
  /** Aligned with `x.categories`; `null` where this run has no values. */
  readonly boxes: readonly (Box | null)[];
}

/** Five numbers of `n` values (quartiles linear between closest ranks). */
export interface Box {
  readonly min: number;
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
  readonly max: number;
  readonly n: number;
}

/** A metric against a parameter that varies across trials (message size, streams, MSS, interval). */
export interface SweepChart extends ChartBase {
  readonly kind: 'sweep';
  readonly metric: string;
  /** The parameter's name is in `param`; the axis label says it for people. */
  readonly param: string;
  readonly x: ValueAxis;
  readonly y: ValueAxis;
  readonly better: Better;
  readonly confidence: { readonly level: number; readonly method: IntervalMethod };
  readonly series: readonly SweepSeries[];
}

export interface SweepSeries {
  readonly name: string;
  readonly runId: string;
  readonly points: readonly SweepPoint[];
  /** On latency against offered rate: the knee of this line (see `latencyKnee`), when it has one. */
  readonly knee?: SweepPoint;
}

export interface SweepPoint {
  readonly x: number;
  readonly mean: number;
  readonly low?: number;
  readonly high?: number;
  readonly n: number;
}

/**
 * One metric across stored runs by date (`netbench results trend`): a point
 * per run (the median of its samples of the series), a line per value of the
 * label the trend is split by (zone, spec, benchmark name…), and the runs
 * judged a change against the ones before them flagged.
 */
export interface TrendChart extends ChartBase {
  readonly kind: 'trend';
  readonly metric: string;
  readonly y: ValueAxis;
  /** The label the lines are split by, if any. */
  readonly splitBy?: string;
  readonly series: readonly TrendSeries[];
}

export interface TrendSeries {
  readonly name: string;
  readonly points: readonly TrendChartPoint[];
}

export interface TrendChartPoint {
  readonly runId: string;
  /** When the run started, ms since the epoch. */
  readonly at: number;
  readonly value: number;
  readonly n: number;
  /** Against the runs before it (see `resultsTrend`). */
  readonly flag: 'regression' | 'improvement' | 'change' | null;
}

export interface ChartOptions {
  /** Only chart these metrics (exact names); default: the headline metrics each chart kind picks. */
  readonly metrics?: readonly string[];
  /** Only these chart kinds. */
  readonly kinds?: readonly ChartKind[];
  /** Heatmap axes: `auto` uses regions when every zone is alone in its region (as PKB's figure). */
  readonly heatmapAxis?: 'auto' | 'zone' | 'region';
  /** A CDF, histogram, time series or sweep with more series than this is not drawn. Default 12. */
  readonly maxSeries?: number;
  /** A bar chart with more categories than this is not drawn (a heatmap shows such matrices). Default 30. */
  readonly maxCategories?: number;
  /** Confidence level of bars and sweeps. Default 0.95. */
  readonly confidenceLevel?: number;
}

/** Input of every chart function: one or more runs' `results.json`. */
export type ChartInput = readonly RunResults[];
