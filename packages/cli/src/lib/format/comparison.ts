import type { ComparisonResult, ComparisonRow } from '@netbench/results';
import type { Labels } from '@netbench/plugin-api';
import { formatTable } from './table.js';
import { displayUnit, formatNumber, formatQuantities, maxAbs, metricName } from '@netbench/report/units';

const pct = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(1)}%` : '—');
const signed = (x: number) => `${x >= 0 ? '+' : ''}${formatNumber(x)}`;

/** Baseline, candidate and delta of a row in one unit, chosen by the larger side (0.94 vs 1.2 Gbit/s). */
function inUnit(row: ComparisonRow): { unit: string; baseline: string; candidate: string; delta: string } {
  const { symbol, texts } = formatQuantities([row.baseline.value, row.candidate.value, row.delta], row.unit);
  return { unit: symbol, baseline: texts[0]!, candidate: texts[1]!, delta: `${row.delta >= 0 ? '+' : ''}${texts[2]!}` };
}

/**
 * What tells a row apart from the rows of the same benchmark, test and
 * metric (e.g. `direction=reverse`, `streams=4`): the rest of its labels
 * would only repeat on every line.
 */
function distinguishing(rows: readonly ComparisonRow[]): Map<ComparisonRow, string> {
  const groups = new Map<string, ComparisonRow[]>();
  for (const row of rows) {
    const key = [row.labels['benchmark'], row.labels['test'], row.metric, row.statistic].map(String).join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const text = new Map<ComparisonRow, string>();
  for (const group of groups.values()) {
    const keys = [...new Set(group.flatMap((r) => Object.keys(r.labels)))].filter((k) => new Set(group.map((r) => String(r.labels[k] ?? ''))).size > 1);
    for (const row of group) text.set(row, keys.map((k) => `${k}=${String(row.labels[k] ?? '')}`).join(' '));
  }
  return text;
}

const label = (labels: Labels, key: string) => (labels[key] === undefined ? '' : String(labels[key]));

/** The test that decided, and what it said: `MW p=0.008`, `bootstrap CI [-3.1, -1.2]`. */
function evidence(row: ComparisonRow): string {
  if (row.decidedBy === 'mann-whitney' && row.mannWhitney) return `Mann–Whitney p=${row.mannWhitney.p.toPrecision(2)}${row.mannWhitney.method === 'normal' ? ' (normal)' : ''}`;
  if (row.decidedBy === 'bootstrap' && row.bootstrap) {
    // In the row's unit (the baseline/candidate columns'), so the interval reads against them.
    const { factor } = displayUnit(row.unit, maxAbs([row.baseline.value, row.candidate.value]));
    return `bootstrap ${Math.round(row.bootstrap.confidence * 100)}% CI [${signed(row.bootstrap.low * factor)}, ${signed(row.bootstrap.high * factor)}]`;
  }
  return row.note?.split(':')[0] ?? '';
}

/** `compare`: one line per metric (and percentile), then what only one side had. */
export function formatComparison(result: ComparisonResult): string {
  const series = distinguishing(result.rows);
  const table = formatTable(result.rows, [
    { header: 'benchmark', value: (r) => label(r.labels, 'benchmark') },
    { header: 'test', value: (r) => label(r.labels, 'test') },
    { header: 'metric', value: (r) => (r.statistic === 'value' ? metricName(r.metric) : `${metricName(r.metric)} ${r.statistic}`) },
    { header: 'series', value: (r) => series.get(r) ?? '' },
    { header: 'unit', value: (r) => inUnit(r).unit },
    { header: 'baseline', value: (r) => inUnit(r).baseline, align: 'right' },
    { header: 'candidate', value: (r) => inUnit(r).candidate, align: 'right' },
    { header: 'delta', value: (r) => inUnit(r).delta, align: 'right' },
    { header: 'delta %', value: (r) => pct(r.deltaPct), align: 'right' },
    { header: 'n', value: (r) => (r.statistic === 'value' ? `${r.baseline.n}/${r.candidate.n}` : ''), align: 'right' },
    { header: 'verdict', value: (r) => r.verdict },
    { header: 'decided by', value: evidence },
  ]);
  return [
    `baseline  ${result.baseline.selection} (${result.baseline.runs.length} run${result.baseline.runs.length === 1 ? '' : 's'}, ${result.baseline.samples} samples)`,
    `candidate ${result.candidate.selection} (${result.candidate.runs.length} run${result.candidate.runs.length === 1 ? '' : 's'}, ${result.candidate.samples} samples)`,
    `alpha ${result.alpha} · bootstrap ${result.resamples} resamples, seed ${result.seed}`,
    '',
    table,
    ...(result.baselineOnly.length > 0 ? [`\nonly in baseline: ${result.baselineOnly.join('; ')}`] : []),
    ...(result.candidateOnly.length > 0 ? [`\nonly in candidate: ${result.candidateOnly.join('; ')}`] : []),
    ...result.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}
