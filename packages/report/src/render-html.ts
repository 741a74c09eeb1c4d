import type { RunResults } from '@netbench/plugin-api';
import { type ChartSpec, type ComparisonResult, runShow } from '@netbench/results';
import { comparisonHtml } from './comparison-table.js';
import { displayText } from './display-text.js';
import { escapeHtml } from './html-escape.js';
import { inlineSvg } from './inline-svg.js';
import { renderSvg } from './render-svg.js';
import { REPORT_CSS } from './report-style.js';
import { environment, runSummary, specPlace, trialLimits, trialSummaries } from './summary.js';
import { type SummaryTile, splitCharts, summaryTiles } from './summary-tiles.js';
import { TRIAL_ROWS_NOTE } from './trial-rows.js';
import { formatQuantity } from './units.js';

export interface HtmlOptions {
  readonly title?: string;
  /** Verdicts of a comparison of these runs (`netbench compare A B --out`, the app's compare export): drawn first. */
  readonly comparison?: ComparisonResult;
  /** Shown in the header; default now. */
  readonly generatedAt?: Date;
}

const OPEN_TRIALS_LIMIT = 40;

/**
 * One self-contained HTML file: per run a summary (status, trials with
 * headline results), the environment (hosts, tool versions and build
 * features, phases, errors) and the spec as run; then every chart as inline
 * SVG with its notes and its chart specification (JSON). No scripts, no
 * external fonts, styles or images: it opens offline and can be mailed.
 */
export function renderHtml(results: readonly RunResults[], charts: readonly ChartSpec[], options: HtmlOptions = {}): string {
  const title = options.title ?? `netbench report: ${[...new Set(results.map((r) => r.run.name))].join(', ')}`;
  const generated = (options.generatedAt ?? new Date()).toISOString();
  const e = escapeHtml;
  const parts: string[] = [];
  parts.push(
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="netbench report">`,
    `<title>${e(title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<main>',
  );
  parts.push(
    `<h1>${e(title)}</h1>`,
    `<p class="meta">Generated ${e(generated)} · ${results.length} run${results.length === 1 ? '' : 's'} · ${charts.length} chart${charts.length === 1 ? '' : 's'}</p>`,
  );
  parts.push(
    '<nav><ul>',
    ...(options.comparison ? ['<li><a href="#comparison">Comparison: the verdicts</a></li>'] : []),
    ...results.map((r) => `<li><a href="#run-${e(r.run.runId)}">Run ${e(r.run.runId)} (${e(r.run.name)})</a></li>`),
    ...charts.map((c) => `<li><a href="#chart-${e(c.id)}">${e(displayText(c).title)}</a></li>`),
    '</ul></nav>',
  );
  if (options.comparison) parts.push(comparisonHtml(options.comparison));
  parts.push('<h2 id="runs">Runs</h2>', runsTable(results));
  for (const result of results) parts.push(runSection(result));
  parts.push('<h2 id="charts">Charts</h2>');
  if (charts.length === 0) parts.push('<p class="muted">These runs have nothing to chart: no zone matrix, repetitions, sweeps, latency histograms or interval series.</p>');
  // The plots to read first; per-flow detail (and bars that the tiles already say) folded under them.
  const { first, more } = splitCharts(
    charts,
    results.some((r) => tilesOf(r) !== undefined),
  );
  for (const chart of first) parts.push(figure(chart));
  if (more.length > 0) {
    parts.push(`<details class="more"><summary>More charts (${more.length}): per-flow series and single-configuration bars</summary>`, ...more.map(figure), '</details>');
  }
  parts.push('</main>', '</body>', '</html>', '');
  return parts.join('\n');
}

function runsTable(results: readonly RunResults[]): string {
  const e = escapeHtml;
  const rows = results
    .map(runSummary)
    .map(
      (s) =>
        `<tr><td><a href="#run-${e(s.runId)}">${e(s.runId)}</a></td><td>${e(s.name)}</td><td class="status-${e(s.status)}">${e(s.status)}</td><td>${e(s.startedAt)}</td><td class="num">${e(formatQuantity(s.durationSeconds, 's'))}</td><td class="num">${s.trials.succeeded}/${s.trials.total}${s.trials.failed ? ` (${s.trials.failed} failed)` : ''}</td><td class="num">${s.samples}</td><td>${e(s.owner)}</td><td>${e(s.netbenchVersion)}</td></tr>`,
    );
  return `<table><thead><tr><th>run</th><th>spec</th><th>status</th><th>started</th><th>duration</th><th>trials ok</th><th>samples</th><th>owner</th><th>netbench</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function runSection(result: RunResults): string {
  const e = escapeHtml;
  const { run } = result;
  const trials = trialSummaries(result);
  const limits = trialLimits(result);
  const env = environment(result);
  // One row per trial as `results show` prints it; a failed trial's error in place of its numbers.
  const trialRows = trials.map(
    (t) =>
      `<tr><td>${e(t.id)}</td><td>${e(t.tool)}</td><td>${e(t.test)}</td><td>${e(t.row.hosts)}</td><td>${e(t.row.parameters)}</td><td class="status-${e(t.status)}">${e(t.status)}</td>${
        t.status === 'succeeded'
          ? [t.row.result, t.row.p50, t.row.p90, t.row.p99, t.row.p999, t.row.loss].map((x) => `<td class="num">${e(x)}</td>`).join('')
          : `<td colspan="6">${t.results.map(e).join('<br>')}</td>`
      }</tr>`,
  );
  const hostRows = env.hosts.map(
    (h) =>
      `<tr><td>${e(h.name)}</td><td>${e(h.cloud)}</td><td>${e(h.zone)}</td><td>${e(h.machineType)}</td><td>${e(h.os)}</td><td>${e(h.internalIp)}</td><td>${e(h.shaping || 'none')}</td><td>${e(h.congestionControl)}</td></tr>`,
  );
  const tiles = tilesOf(result);
  const spec = specPlace(run);
  return [
    `<h2 id="run-${e(run.runId)}">Run ${e(run.runId)}: ${e(run.name)}</h2>`,
    run.description ? `<p>${e(run.description)}</p>` : '',
    `<p class="meta">${e(run.status)} · ${e(run.startedAt)} → ${e(run.finishedAt)} · folder <code>${e(run.runDir)}</code></p>`,
    ...(tiles ? ['<h3>Summary</h3>', tilesHtml(tiles)] : []),
    '<h3>Trials</h3>',
    `<details${trials.length <= OPEN_TRIALS_LIMIT ? ' open' : ''}><summary>${trials.length} trials</summary>`,
    `<table><thead><tr><th>trial</th><th>tool</th><th>test</th><th>hosts</th><th>parameters</th><th>status</th><th>result</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>loss</th></tr></thead><tbody>${trialRows.join('')}</tbody></table>`,
    `<p class="meta">${e(TRIAL_ROWS_NOTE)}</p></details>`,
    ...(limits.length > 0
      ? [
          '<h3>What limited each trial</h3>',
          `<ul class="plain">${limits.map((l) => `<li>${e(l)}</li>`).join('')}</ul>`,
          '<p class="meta">From each end\'s CPU, network and qdisc counters during the trial; rules and thresholds: docs/explain.md.</p>',
        ]
      : []),
    '<h3>Environment</h3>',
    hostRows.length
      ? `<table><thead><tr><th>host</th><th>cloud</th><th>zone</th><th>machine type</th><th>OS</th><th>internal IP</th><th>shaping</th><th>congestion control</th></tr></thead><tbody>${hostRows.join('')}</tbody></table>`
      : '',
    `<p><strong>netbench</strong> ${e(run.netbenchVersion)} · <strong>owner</strong> ${e(run.owner)}</p>`,
    env.tools.length ? `<p><strong>Tools</strong></p><ul class="plain">${env.tools.map((t) => `<li>${e(t)}</li>`).join('')}</ul>` : '',
    env.phases.length ? `<p><strong>Phases</strong> ${e(env.phases.join(' · '))}</p>` : '',
    env.errors.length ? `<p><strong>Errors</strong></p><ul class="plain">${env.errors.map((x) => `<li>${e(x)}</li>`).join('')}</ul>` : '',
    '<h3>Spec</h3>',
    `<p>Kept with the run as <code>${e(spec.kept)}</code>${spec.from ? `; run from <code>${e(spec.from)}</code>` : spec.app ? '; written by the desktop app (its own copy was temporary)' : ''}.</p>`,
    `<details><summary>The spec as run</summary><pre>${e(run.specText ?? '(not recorded)')}</pre></details>`,
  ]
    .filter(Boolean)
    .join('\n');
}

function tilesOf(result: RunResults): readonly SummaryTile[] | undefined {
  return summaryTiles(runShow('', result).trials);
}

/** The headline per configuration (summaryTiles) as a row of tiles. */
function tilesHtml(tiles: readonly SummaryTile[]): string {
  const e = escapeHtml;
  return `<ul class="tiles">${tiles
    .map(
      (t) =>
        `<li class="tile"><strong>${e(t.title)}</strong><div class="meta">${e(t.subtitle)}${t.status === 'succeeded' ? '' : ` · <span class="status-failed">${e(t.status)}</span>`}</div><dl>${t.stats
          .map((s, i) => `<dt>${e(s.label)}</dt><dd${i === 0 ? ' class="headline"' : ''}>${e(s.value)}</dd>`)
          .join('')}</dl></li>`,
    )
    .join('')}</ul>`;
}

function figure(chart: ChartSpec): string {
  const e = escapeHtml;
  const text = displayText(chart);
  return [
    `<figure id="chart-${e(chart.id)}">`,
    inlineSvg(renderSvg(chart), text.title),
    // A CDF is followed by its log tail (1 − CDF), where p99 and p99.9 are as far apart as p50 and p90.
    chart.kind === 'cdf' ? inlineSvg(renderSvg(chart, { cdfView: 'tail' }), `${text.title}: tail, 1 − CDF`) : '',
    `<figcaption><strong>${e(text.title)}</strong>${text.subtitle ? ` · ${e(text.subtitle)}` : ''}`,
    chart.notes.length ? `<div class="notes">${chart.notes.map(e).join(' ')}</div>` : '',
    `<details><summary>chart specification (JSON)</summary><pre>${e(JSON.stringify(chart, null, 2))}</pre></details>`,
    '</figcaption>',
    '</figure>',
  ]
    .filter(Boolean)
    .join('\n');
}
