// Statistics over stored results: comparison, trend, and the tests behind them.
export { compareSamples, describeSeries, isBookkeeping } from './compare.js';
export { runDifferences } from './run-differences.js';
export type { Difference } from './run-differences.js';
export type { CompareOptions, Comparison, ComparisonRow, ComparedSide, Verdict } from './compare.js';
export { mannWhitneyU } from './mann-whitney.js';
export type { MannWhitneyResult } from './mann-whitney.js';
export { bootstrapMedianDiff } from './bootstrap.js';
export type { BootstrapInterval, BootstrapOptions } from './bootstrap.js';
export { detectChange, CHANGE_DEFAULTS } from './change-point.js';
export type { ChangeOptions, ChangeVerdict } from './change-point.js';
export { betterDirection } from './direction.js';
export type { Direction } from './direction.js';
export { seriesKey, seriesLabels } from './series-key.js';
export type { SeriesKeyOptions } from './series-key.js';
export { median, mad, quantileSorted } from './quantile.js';
export { checkPaths, DEFAULT_CHECK_METRICS } from './path-check.js';
export type { PathCheck, PathCheckOptions, PathCheckRow } from './path-check.js';
