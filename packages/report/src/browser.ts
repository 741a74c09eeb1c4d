// `@netbench/report/echarts`: the chart renderer for browsers (the desktop
// app's renderer bundle). No Node built-ins, no ECharts import: the caller
// brings its own ECharts build and draws the option.

import type { ChartSpec } from '@netbench/results';
import type { EChartsOption } from 'echarts';
import { figureOf } from './figure.js';
import type { RenderOptions } from './render-options.js';

export { chartRows } from './chart-rows.js';
export { displayText } from './display-text.js';
export { exportFooter } from './export-footer.js';
export { figureOf } from './figure.js';
export type { ChartSize } from './heatmap-layout.js';
export { HEATMAP_GRID, heatmapHeight, heatmapLabelsFit, WIDE_HEATMAP_COLUMNS } from './heatmap-layout.js';
export { barRatio, barScale } from './options/bar-option.js';
export type { Figure } from './options/base.js';
export { SEQUENTIAL, SERIES_COLORS, seriesColor } from './palette.js';
export type { ChartTheme, RenderOptions } from './render-options.js';
export { DARK_THEME, LIGHT_THEME, LOG_RATIO, renderContext } from './render-options.js';
export * from './units.js';

/** The ECharts option for a chart spec (the figure's option; its size is the caller's). */
export function chartOption(spec: ChartSpec, options: RenderOptions = {}): EChartsOption {
  return figureOf(spec, options).option;
}
export type { ComparisonCells } from './comparison-table.js';
export { comparisonCells, evidenceText, ratioText, statisticText, unrepeated } from './comparison-table.js';
