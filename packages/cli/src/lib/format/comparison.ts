import type { Labels } from '@netbench/plugin-api';
import { displayUnit, formatNumber, formatQuantities, maxAbs, metricName } from '@netbench/report/units';
import type { ComparisonResult, ComparisonRow } from '@netbench/results';
import { formatComparedCounters } from './compared-counters.js';
import { type Column, formatTable } from './table.js';

const pct = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(1)}%` : '—');
const signed = (x: number) => `${x >= 0 ? '+' : ''}${formatNumber(x)}`;
/** candidate / baseline: `×1.48`, `×0.04` — reads where bars of very different sizes do not. */
export function ratio(row: ComparisonRow): string {
  if (row.baseline.value === 0 || !Number.isFinite(row.baseline.value)) return '—';
  const r = row.candidate.value / row.baseline.value;
  return `×${r >= 100 ? Math.round(r).toLocaleString('en-US') : Number(r.toPrecision(r < 0.01 ? 1 : 3))}`;
}
const unrepeated = (r: ComparisonRow) => r.verdict === 'no repetitions';

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

/** The test that decided, and what it said: `Mann–Whitney p=0.008`, `Welch t on logs p=0.021 (log-normal assumed)`, `bootstrap 95% CI [-3.1, -1.2]`. */
function evidence(row: ComparisonRow): string {
  if (row.decidedBy === 'mann-whitney' && row.mannWhitney) return `Mann–Whitney p=${row.mannWhitney.p.toPrecision(2)}${row.mannWhitney.method === 'normal' ? ' (normal)' : ''}`;
  // Its assumption on the row too: the header note says it once, the row may be read alone.
  if (row.decidedBy === 'welch-log' && row.welch) return `Welch t on logs p=${row.welch.p.toPrecision(2)} (log-normal assumed)`;
  if (row.decidedBy === 'bootstrap' && row.bootstrap) {
    // In the row's unit (the baseline/candidate columns'), so the interval reads against them.
    const { factor } = displayUnit(row.unit, maxAbs([row.baseline.value, row.candidate.value]));
    return `bootstrap ${Math.round(row.bootstrap.confidence * 100)}% CI [${signed(row.bootstrap.low * factor)}, ${signed(row.bootstrap.high * factor)}]`;
  }
  // Too few repetitions: the header says why, once.
  if (row.verdict === 'too few repetitions') return '';
  if (row.decidedBy === 'mann-whitney' || unrepeated(row)) return '';
  return row.note?.split(':')[0] ?? '';
}

/** `hosts.b.link.rate: — → 200mbit`; several values of a side joined with `,`. */
function difference(d: ComparisonResult['differences'][number]): string {
  const side = (values: readonly string[]) => (values.length > 3 ? `${values.slice(0, 3).join(',')},…` : values.join(','));
  return `${d.field}: ${side(d.baseline)} → ${side(d.candidate)}`;
}

/** `runs`, `repetitions` or `runs (repetitions where both sides are the same runs)`. */
function replicatesOf(result: ComparisonResult): string {
  const units = new Set(result.rows.map((r) => r.replicates));
  if (units.size === 1 && units.has('repetition')) return 'repetitions';
  return units.has('repetition') ? 'runs (repetitions where both sides are the same runs)' : 'runs';
}

/** The header: the two sides, what differs between them, and the notes that hold for every row. */
function header(result: ComparisonResult): string[] {
  const side = (name: string, s: ComparisonResult['baseline']) => `${name} ${s.selection} (${s.runs.length} run${s.runs.length === 1 ? '' : 's'}, ${s.samples} samples)`;
  const lines = [side('baseline ', result.baseline), side('candidate', result.candidate)];
  const [b, c] = [result.baseline.startedAt, result.candidate.startedAt];
  // The baseline is the first side given, whatever its age: say so when it is the newer one.
  if (b !== undefined && c !== undefined && b > c) lines.push('note:     the baseline is the newer side (compare BASELINE CANDIDATE: the first run given is the baseline)');
  const differences = result.differences;
  lines.push(
    differences.length === 0
      ? 'differs:  nothing in the specs or in hosts, zones, machine types, tool versions, host fingerprints'
      : `differs:  ${differences.map(difference).join(' · ')}`,
  );
  const none = result.unrepeated;
  if (none > 0) {
    const all = none === result.rows.length;
    lines.push(
      `note:     ${all ? 'not tested: every row has' : `not tested: ${none} of ${result.rows.length} rows have`} one run on a side (a run's packets, intervals and repetitions describe one condition, they are not replicates); compare several runs a side (compare A1,A2,A3 B1,B2,B3: Welch's t-test on logarithms with 2 or 3 a side, Mann–Whitney from 4)`,
    );
  }
  if (result.welch.note) lines.push(`note:     Welch's t-test on logarithms decided ${result.welch.rows} of ${result.rows.length} rows: ${result.welch.note}`);
  if (result.tooFew.note) lines.push(`note:     too few repetitions in ${result.tooFew.rows} of ${result.rows.length} rows: ${result.tooFew.note}`);
  const left = result.leftOut.baseline + result.leftOut.candidate;
  if (left > 0) lines.push(`note:     ${left} run-level bookkeeping samples (phase_duration) left out; --metric phase_duration compares them`);
  lines.push(
    `values:   the median over each side's ${replicatesOf(result)} of each one's value (the median of its samples; a histogram row: its percentile); n = ${replicatesOf(result)} a side`,
  );
  lines.push(`alpha ${result.alpha} · bootstrap ${result.resamples} resamples, seed ${result.seed}`);
  return lines;
}

/** `compare`: one line per metric (and percentile), then what only one side had. */
export function formatComparison(result: ComparisonResult): string {
  const series = distinguishing(result.rows);
  const columns: Column<ComparisonRow>[] = [
    { header: 'benchmark', value: (r) => label(r.labels, 'benchmark') },
    { header: 'test', value: (r) => label(r.labels, 'test') },
    {
      header: 'metric',
      value: (r) =>
        r.statistic === 'value' ? metricName(r.metric) : r.statistic === 'intervals' ? `${metricName(r.metric)}, median of intervals` : `${metricName(r.metric)} ${r.statistic}`,
    },
    { header: 'series', value: (r) => series.get(r) ?? '' },
    { header: 'unit', value: (r) => inUnit(r).unit },
    { header: 'baseline median', value: (r) => inUnit(r).baseline, align: 'right' },
    { header: 'candidate median', value: (r) => inUnit(r).candidate, align: 'right' },
    { header: 'delta', value: (r) => inUnit(r).delta, align: 'right' },
    { header: 'delta %', value: (r) => pct(r.deltaPct), align: 'right' },
    { header: 'ratio', value: ratio, align: 'right' },
    { header: 'n', value: (r) => `${r.baseline.n}/${r.candidate.n}`, align: 'right' },
    // An untested row says so in its verdict cell: a row read alone must not look decided.
    { header: 'verdict', value: (r) => (unrepeated(r) ? (r.note ?? 'not tested') : r.verdict) },
    { header: 'decided by', value: evidence },
  ];
  const table = formatTable(result.rows, columns);
  return [
    ...header(result),
    '',
    table,
    ...(result.baselineOnly.length > 0 ? [`\nonly in baseline: ${result.baselineOnly.join('; ')}`] : []),
    ...(result.candidateOnly.length > 0 ? [`\nonly in candidate: ${result.candidateOnly.join('; ')}`] : []),
    ...result.warnings.map((w) => `warning: ${w}`),
    ...formatComparedCounters(result.counters ?? []),
  ].join('\n');
}
