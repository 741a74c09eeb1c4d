// Public entry of @netbench/results: the results store, the statistics over
// it, chart specifications from samples, and import of raw outputs measured
// elsewhere. Named re-exports only, no side effects.

// The store: open it, the engine's sink, list/show/export/delete/add/publish runs.
export {
  addResults, defaultStorePath, deleteResults, exportResults, listResults, openStore, parseLabelConditions,
  parseSettings, parseTimeBound, publishStoredRun, ResultsStore, runShow, showResult, StoreError, studyResults, summariseSamples, withStore
} from './store/index.js';
/** `netbench results study ID`: the stored shards of one study, read as one. */
export type { StudyRun, StudySummary } from './store/index.js';
export type {
  AddResultsOptions, DeleteResultsOptions, ExportResultsOptions, IngestResult, LabelCondition, ListResultsOptions,
  OpenStoreOptions, PublishStoredRunOptions, RunFilter, RunHeadline, RunList, RunShow, SelectedRun, ShownMetric, ShownTrial, TrialSummary, Quantity,
  ShowResultOptions, StoredLabelKey, StoredRunPublished, StoredRunRef, StoredRunSummary
} from './store/index.js';
/** A latency-under-load trial's headline: total goodput, idle → loaded RTT, increase, RPM (every view shows it). */
export { loadHeadline } from './store/index.js';
export type { LoadHeadline } from './store/index.js';
/** The results store as `runSpec`'s `store` option: where a finished run is ingested. */
export { runStore } from './store/run-store.js';
/** The store's schema version and migrations (for tools that read the SQLite file directly). */
export { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './store/index.js';

// Statistics: compare two selections, trends and regressions, the tests behind them.
export {
  bootstrapMedianDiff, betterDirection, CHANGE_DEFAULTS, compareSamples, describeSeries, detectChange, isBookkeeping,
  compareCounters, mad, runDifferences, shortDiagnosis, mannWhitneyU, median, quantileSorted, seriesKey, seriesLabels, welchLogT
} from './stats/index.js';
export type {
  BootstrapInterval, BootstrapOptions, ComparedCounter, ConfigurationCounters, CounterSide, LimitSummary, SideTrial, ChangeOptions, ChangeVerdict, ComparedSide, CompareOptions,
  Comparison, ComparisonRow, Difference, Direction, MannWhitneyResult, SeriesKeyOptions, Verdict,
  WelchLogRefusal, WelchLogResult
} from './stats/index.js';
/** `netbench compare` and `results trend`: statistics over runs read from the store. */
export { compareResults, REGRESSION_EXIT_CODE, resultsTrend, trendChart, TREND_LINES } from './store/index.js';
export type { TrendChartOptions, TrendChartResult } from './store/index.js';
export type {
  CompareResultsOptions, ComparisonResult, ComparisonSelection, SideSummary, Trend, TrendFlag, TrendOptions, TrendPoint
} from './store/index.js';
/** `netbench check`: candidate paths against a baseline path within one stored run (k8s-netperf's pass/fail). */
export { checkPaths, DEFAULT_CHECK_METRICS } from './stats/index.js';
export type { PathCheck, PathCheckOptions, PathCheckRow } from './stats/index.js';
export { checkRun, CHECK_FAILED_EXIT_CODE } from './store/index.js';
export type { CheckRunOptions } from './store/index.js';

/** A trial's hosts as tables print them, with the path through a tunnel (`a → b via wg`). */
export { trialPath } from './paths/trial-path.js';

// Chart specifications from run results (renderer-agnostic JSON; packages/report draws them).
export {
  barCharts, cdfCharts, ChartIds, chartsFor, headlineMetric, heatmapCharts, histogramCharts, meanInterval,
  intervalSweepCharts, sweepCharts, timeSeriesCharts
} from './charts/index.js';
export type {
  Bar, BarChart, BarSeries, Box, BoxChart, BoxSeries, Better, CategoryAxis, CdfChart, CdfSeries, ChartInput, ChartKind, ChartOptions,
  ChartSpec, HeatmapCell, HeatmapChart, HistogramChart, HistogramSeries, MeanInterval, MetricInfo, MetricRole,
  SweepChart, SweepPoint, SweepSeries, TimeSeriesChart, TimeSeriesSeries, TrendChart, TrendChartPoint, TrendSeries, ValueAxis
} from './charts/index.js';

// Import of raw outputs measured elsewhere (`netbench import`).
export { detectTools, ImportError, importFiles, SNIFF_BYTES, sniffHead } from './import/index.js';
export type { ImportedFile, ImportFilesOptions, ImportOutcome } from './import/index.js';
