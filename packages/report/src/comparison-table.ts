import type { ComparisonResult, ComparisonRow } from '@netbench/results';
import { escapeHtml } from './html-escape.js';
import { metricName } from './metric-names.js';
import { displayUnit, formatNumber, formatQuantities, joinUnit, maxAbs } from './units.js';

// A comparison's verdicts as text, cell by cell: the app's compare page, and
// the comparison a report or an export carries, say the same thing.

/** The labels that tell a row's configuration apart in the table. */
const CONFIG_KEYS = ['tool', 'test', 'direction', 'protocol', 'streams'];

/** A row with one value on a side: no test was possible (said once in the header, not per row). */
export const unrepeated = (row: ComparisonRow) => row.verdict === 'no repetitions';

/** candidate / baseline: `×1.48`, `×0.04` (as `netbench compare`'s ratio column) — reads where bars of very different sizes do not. */
export function ratioText(row: ComparisonRow): string {
  if (row.baseline.value === 0 || !Number.isFinite(row.baseline.value) || !Number.isFinite(row.candidate.value)) return '—';
  const r = row.candidate.value / row.baseline.value;
  return `×${r >= 100 ? Math.round(r).toLocaleString('en-US') : Number(r.toPrecision(r < 0.01 ? 1 : 3))}`;
}

/** The test that decided a row, and what it said (as `netbench compare`'s "decided by" column). */
export function evidenceText(row: ComparisonRow): string {
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${formatNumber(x)}`;
  if (row.decidedBy === 'mann-whitney' && row.mannWhitney)
    return `Mann–Whitney U, p = ${row.mannWhitney.p.toPrecision(2)}${row.mannWhitney.method === 'normal' ? ' (normal approx.)' : ''}`;
  if (row.decidedBy === 'welch-log' && row.welch) {
    const x = (v: number) => `×${Number(v.toPrecision(3))}`;
    return `Welch t on logs, p = ${row.welch.p.toPrecision(2)} (log-normal assumed; ratio ${Math.round(row.welch.confidence * 100)} % CI ${x(row.welch.low)}–${x(row.welch.high)})`;
  }
  if (row.decidedBy === 'bootstrap' && row.bootstrap) {
    // In the unit the row's values are shown in.
    const { symbol, factor } = displayUnit(row.unit, maxAbs([row.baseline.value, row.candidate.value]));
    return `bootstrap ${Math.round(row.bootstrap.confidence * 100)} % CI [${signed(row.bootstrap.low * factor)}, ${signed(row.bootstrap.high * factor)}]${symbol && symbol !== '%' ? ` ${symbol}` : ''}`;
  }
  return '—';
}

/** What each side's figure is: the median over its replicates of each one's value (`p99 (median)`: of each replicate's p99). */
export function statisticText(row: ComparisonRow): string {
  if (row.statistic === 'value') return 'median';
  if (row.statistic === 'intervals') return 'median of intervals';
  return `${row.statistic} (median)`;
}

export interface ComparisonCells {
  readonly metric: string;
  readonly statistic: string;
  readonly configuration: string;
  /** Value in the unit both sides share, and `n=3 runs`. */
  readonly baseline: string;
  readonly candidate: string;
  readonly change: string;
  readonly ratio: string;
  /** The verdict, or why the row was not tested. */
  readonly verdict: string;
  /** Extra words on the verdict (a test refused, a warning), or empty. */
  readonly note: string;
  readonly decidedBy: string;
  /** A verdict (colour it), not a reason the row went untested. */
  readonly tested: boolean;
}

/** One row of a comparison in the words of `netbench compare` and the app's compare page. */
export function comparisonCells(row: ComparisonRow): ComparisonCells {
  const { symbol, texts } = formatQuantities([row.baseline.value, row.candidate.value], row.unit);
  const n = (k: number) => `n=${k} ${row.replicates}${k === 1 ? '' : 's'}`;
  const tested = !unrepeated(row);
  return {
    metric: metricName(row.metric),
    statistic: statisticText(row),
    configuration: Object.entries(row.labels)
      .filter(([k]) => CONFIG_KEYS.includes(k))
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' '),
    baseline: `${joinUnit(texts[0]!, symbol)} ${n(row.baseline.n)}`,
    candidate: `${joinUnit(texts[1]!, symbol)} ${n(row.candidate.n)}`,
    change: Number.isFinite(row.deltaPct) ? `${row.deltaPct > 0 ? '+' : ''}${row.deltaPct.toFixed(1)} %` : '—',
    ratio: ratioText(row),
    verdict: tested ? row.verdict : (row.note ?? 'not tested'),
    note: tested && row.note && row.verdict !== 'too few repetitions' && row.decidedBy !== 'welch-log' ? row.note : '',
    decidedBy: tested ? evidenceText(row) : '',
    tested,
  };
}

const HEADER = ['metric', 'statistic', 'configuration', 'baseline median', 'candidate median', 'change', 'ratio', 'verdict', 'decided by'];

function sidesText(result: ComparisonResult): string[] {
  const side = (role: string, s: ComparisonResult['baseline']) => `${role}: ${s.selection} (${s.runs.length} run${s.runs.length === 1 ? '' : 's'}, ${s.samples} samples)`;
  return [side('baseline', result.baseline), side('candidate', result.candidate)];
}

function methodText(result: ComparisonResult): string {
  return `Baseline and candidate are the medians of each run's value (n counts runs); Mann–Whitney U (with 2 or 3 a side: Welch's t-test on the logarithms) and a bootstrap of the median difference, α = ${result.alpha}, ${result.resamples} resamples (seed ${result.seed}).`;
}

/** The comparison as an HTML section: the sides, what differs between them, and the verdict of every row. */
export function comparisonHtml(result: ComparisonResult): string {
  const e = escapeHtml;
  const rows = result.rows
    .map(comparisonCells)
    .map(
      (c) =>
        `<tr><td>${e(c.metric)}</td><td>${e(c.statistic)}</td><td>${e(c.configuration)}</td><td class="num">${e(c.baseline)}</td><td class="num">${e(c.candidate)}</td><td class="num">${e(c.change)}</td><td class="num">${e(c.ratio)}</td>` +
        `<td${c.tested ? ` class="verdict verdict-${e(c.verdict.replace(/\s+/g, '-'))}"` : ' class="muted"'}>${e(c.verdict)}${c.note ? ` <span class="muted">${e(c.note)}</span>` : ''}</td><td>${e(c.decidedBy)}</td></tr>`,
    );
  return [
    '<h2 id="comparison">Comparison</h2>',
    `<ul class="plain">${sidesText(result)
      .map((s) => `<li>${e(s)}</li>`)
      .join('')}</ul>`,
    ...(result.differences.length > 0
      ? [`<p><strong>What differs</strong>: ${result.differences.map((d) => e(`${d.field}: ${d.baseline.join(', ')} → ${d.candidate.join(', ')}`)).join(' · ')}</p>`]
      : []),
    ...result.warnings.map((w) => `<p class="warn">${e(w)}</p>`),
    result.rows.length === 0
      ? '<p>No series in common: nothing to compare.</p>'
      : `<table class="comparison"><thead><tr>${HEADER.map((h) => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`,
    `<p class="meta">${e(methodText(result))}</p>`,
  ].join('\n');
}

/** The comparison as Markdown lines (a table cell escapes `|`). */
export function comparisonMarkdown(result: ComparisonResult, table: (header: readonly string[], rows: readonly (readonly string[])[]) => string): string[] {
  const rows = result.rows
    .map(comparisonCells)
    .map((c) => [c.metric, c.statistic, c.configuration, c.baseline, c.candidate, c.change, c.ratio, c.note ? `${c.verdict} (${c.note})` : c.verdict, c.decidedBy]);
  return [
    '## Comparison',
    '',
    ...sidesText(result).map((s) => `- ${escapeHtml(s)}`),
    ...(result.differences.length > 0
      ? [`- what differs: ${escapeHtml(result.differences.map((d) => `${d.field}: ${d.baseline.join(', ')} → ${d.candidate.join(', ')}`).join(' · '))}`]
      : []),
    ...result.warnings.map((w) => `- ${escapeHtml(w)}`),
    '',
    result.rows.length === 0 ? 'No series in common: nothing to compare.' : table(HEADER, rows),
    '',
    escapeHtml(methodText(result)),
    '',
  ];
}
