// Public surface of @netbench/report: named re-exports only, no side effects.

export type { DataTable } from './chart-table.js';
export { chartTable } from './chart-table.js';
export type { ComparisonCells } from './comparison-table.js';
export { comparisonCells, comparisonHtml, comparisonMarkdown, evidenceText, ratioText, statisticText, unrepeated } from './comparison-table.js';
export { displayText } from './display-text.js';
export { exportFooter } from './export-footer.js';
export { figureOf } from './figure.js';
export type { LoadRunOptions } from './load-runs.js';
export { loadRunResults } from './load-runs.js';
export { metricName } from './metric-names.js';
export type { Figure } from './options/base.js';
export type { HtmlOptions } from './render-html.js';
export { renderHtml } from './render-html.js';
export type { MarkdownOptions } from './render-markdown.js';
export { renderMarkdown } from './render-markdown.js';
export type { ChartTheme, RenderOptions } from './render-options.js';
export type { PngOptions } from './render-png.js';
export { renderPng } from './render-png.js';
export type { SvgOptions } from './render-svg.js';
export { renderSvg, svgDataUrl } from './render-svg.js';
export type { AxisUnit, Dimension, DisplayUnit, UnitInfo } from './units.js';
export { axisUnit, displayUnit, formatNumber, formatQuantities, formatQuantity, isRateUnit, unitInfo, unitSymbol } from './units.js';
export type { ReportFormat, WriteReportOptions, WriteReportResult } from './write-report.js';
export { footerOf, REPORT_FORMATS, writeReport } from './write-report.js';
