import type { ChartSpec } from '@netbench/results';
import type { Figure } from './options/base.js';
import { barOption } from './options/bar-option.js';
import { cdfOption } from './options/cdf-option.js';
import { heatmapOption } from './options/heatmap-option.js';
import { histogramOption } from './options/histogram-option.js';
import { sweepOption } from './options/sweep-option.js';
import { timeSeriesOption } from './options/timeseries-option.js';

/** The ECharts option and canvas size for a chart spec. */
export function figureOf(spec: ChartSpec): Figure {
  switch (spec.kind) {
    case 'heatmap': return heatmapOption(spec);
    case 'bar': return barOption(spec);
    case 'cdf': return cdfOption(spec);
    case 'histogram': return histogramOption(spec);
    case 'timeseries': return timeSeriesOption(spec);
    case 'sweep': return sweepOption(spec);
  }
}
