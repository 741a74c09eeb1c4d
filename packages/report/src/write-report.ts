import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { NetbenchError, type RunResults } from '@netbench/plugin-api';
import { type ChartKind, type ChartOptions, type ChartSpec, type ComparisonResult, chartsFor } from '@netbench/results';
import { exportFooter } from './export-footer.js';
import { loadRunResults } from './load-runs.js';
import { loadStudyResults } from './load-study.js';
import { renderHtml } from './render-html.js';
import { renderMarkdown } from './render-markdown.js';
import { renderPng } from './render-png.js';
import { renderSvg } from './render-svg.js';

export type ReportFormat = 'html' | 'md' | 'svg' | 'png';
export const REPORT_FORMATS: readonly ReportFormat[] = ['html', 'md', 'svg', 'png'];

export interface WriteReportOptions {
  /** Run ids, run folders or results.json files. */
  readonly runs: readonly string[];
  /** Output path. Default `report.html`, `report.md`, or the folder `report-charts` for svg/png. */
  readonly out?: string;
  /** Default: from `out`'s extension, else html. */
  readonly format?: ReportFormat;
  readonly runsDir?: string;
  /** Results store for runs without a folder (default core's `defaultStorePath()`). */
  readonly db?: string;
  readonly kinds?: readonly ChartKind[];
  readonly metrics?: readonly string[];
  readonly title?: string;
  /** A study (label `study=ID`, the shards of one plan), charted as one run, after `runs`. */
  readonly study?: string;
  /** A comparison of these runs (`netbench compare A B --out`): its verdicts come first (html, md). */
  readonly comparison?: ComparisonResult;
}

export interface WriteReportResult {
  readonly format: ReportFormat;
  /** Every file written, the report first. */
  readonly files: readonly string[];
  readonly runIds: readonly string[];
  readonly charts: readonly { readonly id: string; readonly kind: ChartKind; readonly title: string }[];
  /** svg/png to a single file: charts left out (only the first is written). */
  readonly omitted: number;
}

const EXTENSIONS: Readonly<Record<string, ReportFormat>> = { '.html': 'html', '.htm': 'html', '.md': 'md', '.markdown': 'md', '.svg': 'svg', '.png': 'png' };

/**
 * `netbench report`: load the runs, choose charts, write the report.
 * - html: one self-contained file;
 * - md: the Markdown file plus its charts as SVG in `<name>-charts/` beside it;
 * - svg/png: `out` a folder (created) gets one file per chart, `<chart id>.svg|png`;
 *   `out` ending in .svg/.png gets the first chart only (`omitted` says how many were left out).
 */
export async function writeReport(options: WriteReportOptions): Promise<WriteReportResult> {
  if (options.runs.length === 0 && options.study === undefined) throw new NetbenchError('name at least one run (id or folder), or --study ID');
  const format = options.format ?? EXTENSIONS[extname(options.out ?? '').toLowerCase()] ?? 'html';
  const results: RunResults[] = [];
  for (const ref of options.runs) results.push(await loadRunResults(ref, { runsDir: options.runsDir, db: options.db }));
  if (options.study !== undefined) results.push(await loadStudyResults(options.study, options.db));
  const chartOptions: ChartOptions = { ...(options.kinds ? { kinds: options.kinds } : {}), ...(options.metrics ? { metrics: options.metrics } : {}) };
  const charts = chartsFor(results, chartOptions);
  const base = { format, runIds: results.map((r) => r.run.runId), charts: charts.map(({ id, kind, title }) => ({ id, kind, title })) };
  const textOptions = { ...(options.title ? { title: options.title } : {}), ...(options.comparison ? { comparison: options.comparison } : {}) };

  if (format === 'html') {
    const file = resolve(options.out ?? 'report.html');
    await write(file, renderHtml(results, charts, textOptions));
    return { ...base, files: [file], omitted: 0 };
  }
  if (format === 'md') {
    const file = resolve(options.out ?? 'report.md');
    const imageDir = join(dirname(file), `${basename(file, extname(file))}-charts`);
    const images = await writeCharts(charts, imageDir, 'svg', results);
    const markdown = renderMarkdown(results, charts, {
      ...textOptions,
      imagePath: (chart) =>
        relative(dirname(file), join(imageDir, `${chart.id}.svg`))
          .split('\\')
          .join('/'),
    });
    await write(file, markdown);
    return { ...base, files: [file, ...images], omitted: 0 };
  }
  if (charts.length === 0) throw new NetbenchError(`nothing to chart in ${base.runIds.join(', ')}: no zone matrix, repetitions, sweeps, latency histograms or interval series`);
  const out = resolve(options.out ?? 'report-charts');
  if (extname(out).toLowerCase() === `.${format}`) {
    const footer = footerOf(charts[0]!, results);
    await write(out, format === 'svg' ? renderSvg(charts[0]!, { footer }) : renderPng(charts[0]!, { footer }));
    return { ...base, files: [out], omitted: charts.length - 1 };
  }
  return { ...base, files: await writeCharts(charts, out, format, results), omitted: 0 };
}

/** Run id(s) and start date(s) of the runs a chart draws from: the footer of every chart file written. */
export function footerOf(chart: ChartSpec, results: readonly RunResults[]): string {
  const runs = results.filter((r) => chart.runIds.includes(r.run.runId)).map((r) => ({ runId: r.run.runId, startedAt: r.run.startedAt }));
  return exportFooter(runs.length > 0 ? runs : chart.runIds.map((runId) => ({ runId })));
}

async function writeCharts(charts: readonly ChartSpec[], dir: string, format: 'svg' | 'png', results: readonly RunResults[]): Promise<string[]> {
  if (charts.length === 0) return [];
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const chart of charts) {
    const file = join(dir, `${chart.id}.${format}`);
    const footer = footerOf(chart, results);
    await writeFile(file, format === 'svg' ? renderSvg(chart, { footer }) : renderPng(chart, { footer }));
    files.push(file);
  }
  return files;
}

async function write(file: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}
