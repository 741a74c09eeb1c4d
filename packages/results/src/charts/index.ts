// Chart specifications from run results: renderer-agnostic JSON (see types.ts).

export { studentTCdf, studentTQuantile } from '../stats/student-t.js';
export { barCharts } from './bar-charts.js';
export { cdfCharts } from './cdf-charts.js';
export { ChartIds } from './chart-id.js';
export { chartsFor } from './charts-for.js';
export type { MeanInterval } from './confidence-interval.js';
export { meanInterval } from './confidence-interval.js';
export { cpuTimeSeriesCharts } from './cpu-charts.js';
export { heatmapCharts } from './heatmap-charts.js';
export { histogramCharts } from './histogram-charts.js';
export { INTERVAL_PERCENTILES, intervalSweepCharts } from './interval-sweep-charts.js';
export type { MetricInfo, MetricRole } from './metric-roles.js';
export { headlineMetric } from './metric-roles.js';
export { sweepCharts } from './sweep-charts.js';
export { timeSeriesCharts } from './timeseries-charts.js';
export type * from './types.js';
