import type { RunResults } from '@netbench/plugin-api';
import type { ChartSpec, ComparisonResult } from '@netbench/results';
import { chartTable } from './chart-table.js';
import { comparisonMarkdown } from './comparison-table.js';
import { displayText } from './display-text.js';
import { escapeHtml } from './html-escape.js';
import { environment, runSummary, trialLimits, trialSummaries } from './summary.js';
import { TRIAL_ROWS_NOTE } from './trial-rows.js';
import { formatQuantity } from './units.js';

export interface MarkdownOptions {
  readonly title?: string;
  readonly generatedAt?: Date;
  /** Where each chart's image is, relative to the Markdown file. Default `charts/<id>.svg`. */
  readonly imagePath?: (chart: ChartSpec) => string;
  /** Verdicts of a comparison of these runs: a table before the runs. */
  readonly comparison?: ComparisonResult;
}

// Run names, labels, trial ids, hosts and errors are users' text: Markdown viewers render raw HTML in it, so it is escaped.
const inline = (text: string) => escapeHtml(text).replace(/\r?\n/g, ' ');
const cell = (text: string) => inline(text).replace(/\|/g, '\\|');
/** A fence longer than any run of backticks in the text: the text cannot close it and go on as Markdown (or HTML). */
const fenced = (language: string, text: string) => {
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [`${fence}${language}`, text, fence];
};
const table = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  [`| ${header.map(cell).join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');

/**
 * The report as Markdown: the same sections as the HTML, charts as image
 * links (the caller writes the images, see `writeReport`) followed by their
 * numbers as tables where a table is readable (heatmaps, bars, sweeps).
 */
export function renderMarkdown(results: readonly RunResults[], charts: readonly ChartSpec[], options: MarkdownOptions = {}): string {
  const title = options.title ?? `netbench report: ${[...new Set(results.map((r) => r.run.name))].join(', ')}`;
  const imagePath = options.imagePath ?? ((chart: ChartSpec) => `charts/${chart.id}.svg`);
  const out: string[] = [`# ${inline(title)}`, '', `Generated ${(options.generatedAt ?? new Date()).toISOString()} · ${results.length} run(s) · ${charts.length} chart(s)`, ''];
  if (options.comparison) out.push(...comparisonMarkdown(options.comparison, table));
  out.push(
    '## Runs',
    '',
    table(
      ['run', 'spec', 'status', 'started', 'duration', 'trials ok', 'samples'],
      results
        .map(runSummary)
        .map((s) => [s.runId, s.name, s.status, s.startedAt, formatQuantity(s.durationSeconds, 's'), `${s.trials.succeeded}/${s.trials.total}`, String(s.samples)]),
    ),
    '',
  );
  for (const result of results) {
    const { run } = result;
    const env = environment(result);
    out.push(`## Run ${inline(run.runId)}: ${inline(run.name)}`, '');
    if (run.description) out.push(escapeHtml(run.description), '');
    out.push(
      '### Trials',
      '',
      table(
        ['trial', 'tool', 'test', 'hosts', 'parameters', 'status', 'result', 'p50', 'p90', 'p99', 'p99.9', 'loss'],
        trialSummaries(result).map((t) => [
          t.id,
          t.tool,
          t.test,
          t.row.hosts,
          t.row.parameters,
          t.status,
          ...(t.status === 'succeeded' ? [t.row.result, t.row.p50, t.row.p90, t.row.p99, t.row.p999, t.row.loss] : [t.results.join('; '), '', '', '', '', '']),
        ]),
      ),
      '',
      TRIAL_ROWS_NOTE,
      '',
    );
    const limits = trialLimits(result);
    if (limits.length > 0)
      out.push(
        '### What limited each trial',
        '',
        ...limits.map((l) => `- ${inline(l)}`),
        '',
        "From each end's CPU, network and qdisc counters during the trial; rules and thresholds: docs/explain.md.",
        '',
      );
    out.push('### Environment', '');
    if (env.hosts.length) {
      out.push(
        table(
          ['host', 'cloud', 'zone', 'machine type', 'OS', 'internal IP', 'shaping', 'congestion control'],
          env.hosts.map((h) => [h.name, h.cloud, h.zone, h.machineType, h.os, h.internalIp, h.shaping || 'none', h.congestionControl]),
        ),
        '',
      );
    }
    out.push(`- netbench ${inline(run.netbenchVersion)}, owner ${inline(run.owner)}`);
    for (const tool of env.tools) out.push(`- ${inline(tool)}`);
    if (env.phases.length) out.push(`- phases: ${inline(env.phases.join(' · '))}`);
    for (const error of env.errors) out.push(`- error: ${inline(error)}`);
    // Inside a fence HTML is shown, not rendered (and entities would show as typed): the text stays as it is.
    out.push('', '### Spec', '', ...fenced('yaml', (run.specText ?? '(not recorded)').trimEnd()), '');
  }
  out.push('## Charts', '');
  for (const chart of charts) {
    const text = displayText(chart);
    out.push(`### ${inline(text.title)}`, '', `![${inline(text.title).replace(/[[\]]/g, '\\$&')}](${imagePath(chart)})`, '');
    if (text.subtitle) out.push(`*${inline(text.subtitle)}*`, '');
    if (chart.notes.length) out.push(inline(chart.notes.join(' ')), '');
    const data = chartTable(chart);
    if (data) out.push(table(data.header, data.rows), '');
  }
  return out.join('\n');
}
