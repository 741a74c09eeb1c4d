// Statistics over stored results: comparison, trend, and the tests behind them.

export type { BootstrapInterval, BootstrapOptions } from './bootstrap.js';
export { bootstrapMedianDiff } from './bootstrap.js';
export type { ChangeOptions, ChangeVerdict } from './change-point.js';
export { CHANGE_DEFAULTS, detectChange } from './change-point.js';
export type { ComparedSide, CompareOptions, Comparison, ComparisonRow, Verdict } from './compare.js';
export { compareSamples, describeSeries, isBookkeeping } from './compare.js';
export type { ComparedCounter, ConfigurationCounters, CounterSide, LimitSummary, SideTrial } from './compare-counters.js';
export { compareCounters, shortDiagnosis } from './compare-counters.js';
export type { Direction } from './direction.js';
export { betterDirection } from './direction.js';
export type { MannWhitneyResult } from './mann-whitney.js';
export { mannWhitneyU } from './mann-whitney.js';
export type { PathCheck, PathCheckOptions, PathCheckRow } from './path-check.js';
export { checkPaths, DEFAULT_CHECK_METRICS } from './path-check.js';
export { mad, median, quantileSorted } from './quantile.js';
export type { ReplicateUnit } from './replicates.js';
export { replicateUnit, replicateValues } from './replicates.js';
export type { Difference } from './run-differences.js';
export { runDifferences } from './run-differences.js';
export type { SeriesKeyOptions } from './series-key.js';
export { seriesKey, seriesLabels } from './series-key.js';
export type { WelchLogRefusal, WelchLogResult } from './welch.js';
export { welchLogT } from './welch.js';
