// `@netbench/report/echarts`: the chart renderer for browsers (the desktop
// app's renderer bundle). No Node built-ins, no ECharts import: the caller
// brings its own ECharts build and draws the option.
import type { EChartsOption } from 'echarts';
import type { ChartSpec } from '@netbench/results';
import { figureOf } from './figure.js';
import type { RenderOptions } from './render-options.js';

export { figureOf } from './figure.js';
export type { Figure } from './options/base.js';
export { barRatio, barScale } from './options/bar-option.js';
export { chartRows } from './chart-rows.js';
export { displayText } from './display-text.js';
export { DARK_THEME, LIGHT_THEME, LOG_RATIO, renderContext } from './render-options.js';
export type { ChartTheme, RenderOptions } from './render-options.js';
export { heatmapHeight, heatmapLabelsFit, WIDE_HEATMAP_COLUMNS, HEATMAP_GRID } from './heatmap-layout.js';
export type { ChartSize } from './heatmap-layout.js';
export { SERIES_COLORS, SEQUENTIAL, seriesColor } from './palette.js';
export * from './units.js';
export { exportFooter } from './export-footer.js';

/** The ECharts option for a chart spec (the figure's option; its size is the caller's). */
export function chartOption(spec: ChartSpec, options: RenderOptions = {}): EChartsOption {
  return figureOf(spec, options).option;
}
export { comparisonCells, evidenceText, ratioText, statisticText, unrepeated } from './comparison-table.js';
export type { ComparisonCells } from './comparison-table.js';
