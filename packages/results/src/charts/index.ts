// Chart specifications from run results: renderer-agnostic JSON (see types.ts).
export { chartsFor } from './charts-for.js';
export { heatmapCharts } from './heatmap-charts.js';
export { barCharts } from './bar-charts.js';
export { cdfCharts } from './cdf-charts.js';
export { histogramCharts } from './histogram-charts.js';
export { timeSeriesCharts } from './timeseries-charts.js';
export { cpuTimeSeriesCharts } from './cpu-charts.js';
export { sweepCharts } from './sweep-charts.js';
export { intervalSweepCharts, INTERVAL_PERCENTILES } from './interval-sweep-charts.js';
export { meanInterval } from './confidence-interval.js';
export type { MeanInterval } from './confidence-interval.js';
export { studentTQuantile, studentTCdf } from '../stats/student-t.js';
export { headlineMetric } from './metric-roles.js';
export type { MetricInfo, MetricRole } from './metric-roles.js';
export { ChartIds } from './chart-id.js';
export type * from './types.js';
