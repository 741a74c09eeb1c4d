import type { LabelValue, Sample } from '@netbench/plugin-api';

/** Columns every row has, before the label columns. */
export const FIXED_COLUMNS = ['run_id', 'sample_id', 'trial_id', 'timestamp', 'metric', 'value', 'unit'] as const;

const NEEDS_QUOTES_RE = /[",\r\n]/;
// What a spreadsheet reads as the start of a formula (OWASP's list: = + - @, tab, carriage return).
const FORMULA_START_RE = /^[=+\-@\t\r]/;
// A plain number (a negative value, 1e-3) stays a number: a spreadsheet cannot run it.
const NUMBER_RE = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * A text a spreadsheet will show as text: one that would start a formula
 * (`=HYPERLINK(…)`, `+cmd|…`, `-2+3`, `@SUM(…)`) gets a leading `'`, which
 * spreadsheets read as "this is text". Plain numbers are left alone.
 */
export function neutraliseFormula(value: string): string {
  return FORMULA_START_RE.test(value) && !NUMBER_RE.test(value) ? `'${value}` : value;
}

/**
 * One CSV field per RFC 4180 (quoted when it holds a comma, quote or line
 * break; quotes doubled), with formula-like text neutralised first.
 */
export function csvField(value: string): string {
  const safe = neutraliseFormula(value);
  return NEEDS_QUOTES_RE.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Label columns: the union of every sample's label keys, sorted. A label
 * named like a fixed column gets a `label_` prefix rather than being lost.
 */
export function labelColumns(samples: readonly Sample[]): { key: string; column: string }[] {
  const keys = new Set<string>();
  for (const sample of samples) for (const key of Object.keys(sample.labels)) keys.add(key);
  const fixed = new Set<string>(FIXED_COLUMNS);
  return [...keys].sort().map((key) => ({ key, column: fixed.has(key) ? `label_${key}` : key }));
}

/**
 * The samples as CSV: a header, then one row per sample (CRLF line ends, as
 * RFC 4180 has them). `timestamp` is ISO-8601; a label a sample does not have
 * is an empty field. A `run_id` label equal to the run id column is kept as
 * the column only.
 */
export function formatCsv(samples: readonly Sample[]): string {
  const columns = labelColumns(samples).filter(({ key }) => key !== 'run_id' || samples.some((s) => s.labels['run_id'] !== undefined && String(s.labels['run_id']) !== s.runId));
  const header = [...FIXED_COLUMNS, ...columns.map((c) => c.column)];
  const rows = samples.map((s) => [
    s.runId,
    s.sampleId,
    s.trialId ?? '',
    new Date(s.timestamp).toISOString(),
    s.metric,
    String(s.value),
    s.unit,
    ...columns.map(({ key }) => text(s.labels[key])),
  ]);
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

function text(value: LabelValue | undefined): string {
  return value === undefined ? '' : String(value);
}
