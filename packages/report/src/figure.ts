import type { ChartSpec } from '@netbench/results';
import { barOption } from './options/bar-option.js';
import type { Figure } from './options/base.js';
import { boxOption } from './options/box-option.js';
import { cdfOption } from './options/cdf-option.js';
import { heatmapOption } from './options/heatmap-option.js';
import { histogramOption } from './options/histogram-option.js';
import { sweepOption } from './options/sweep-option.js';
import { timeSeriesOption } from './options/timeseries-option.js';
import { trendOption } from './options/trend-option.js';
import { type RenderOptions, renderContext } from './render-options.js';

/**
 * The ECharts option and canvas size for a chart spec: the one mapping from
 * core's chart specifications to ECharts, used by the report (SVG, PNG, HTML,
 * Markdown) and the desktop app (interactive, through `@netbench/report/echarts`).
 */
export function figureOf(spec: ChartSpec, options: RenderOptions = {}): Figure {
  const ctx = renderContext(options);
  switch (spec.kind) {
    case 'heatmap':
      return heatmapOption(spec, ctx);
    case 'bar':
      return barOption(spec, ctx);
    case 'cdf':
      return cdfOption(spec, ctx);
    case 'histogram':
      return histogramOption(spec, ctx);
    case 'timeseries':
      return timeSeriesOption(spec, ctx);
    case 'sweep':
      return sweepOption(spec, ctx);
    case 'box':
      return boxOption(spec, ctx);
    case 'trend':
      return trendOption(spec, ctx);
  }
}
