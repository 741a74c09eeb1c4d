// Public surface of @netbench/report: named re-exports only, no side effects.
export { renderSvg } from './render-svg.js';
export type { SvgOptions } from './render-svg.js';
export { renderPng } from './render-png.js';
export type { PngOptions } from './render-png.js';
export { renderHtml } from './render-html.js';
export type { HtmlOptions } from './render-html.js';
export { renderMarkdown } from './render-markdown.js';
export type { MarkdownOptions } from './render-markdown.js';
export { writeReport, REPORT_FORMATS } from './write-report.js';
export type { ReportFormat, WriteReportOptions, WriteReportResult } from './write-report.js';
export { loadRunResults } from './load-runs.js';
export type { LoadRunOptions } from './load-runs.js';
export { chartTable } from './chart-table.js';
export type { DataTable } from './chart-table.js';
export { figureOf } from './figure.js';
export type { Figure } from './options/base.js';
