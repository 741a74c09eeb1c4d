import type { PathCheck, PathCheckRow } from '@netbench/results';
import { formatValue } from './number.js';
import { formatTable } from './table.js';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
/** The parameters that tell rows of one candidate and metric apart (e.g. `mss=96`). */
const IGNORED = new Set(['tool', 'test']);

export function formatPathCheck(check: PathCheck & { runId: string }): string {
  // Per metric, the labels whose values differ between its rows (e.g. mss): the rest would repeat on every line.
  const varying = new Map<string, string[]>();
  for (const metric of new Set(check.rows.map((r) => r.metric))) {
    const rows = check.rows.filter((r) => r.metric === metric);
    varying.set(
      metric,
      [...new Set(rows.flatMap((r) => Object.keys(r.labels)))].filter((k) => !IGNORED.has(k) && new Set(rows.map((r) => String(r.labels[k] ?? ''))).size > 1),
    );
  }
  const table = formatTable<PathCheckRow>(check.rows, [
    { header: 'candidate', value: (r) => r.candidate },
    { header: 'metric', value: (r) => r.metric },
    { header: 'test', value: (r) => String(r.labels['test'] ?? '') },
    { header: 'parameters', value: (r) => (varying.get(r.metric) ?? []).map((k) => `${k}=${String(r.labels[k] ?? '')}`).join(' ') },
    { header: check.baseline, value: (r) => `${formatValue(r.baselineValue)} ${r.unit}`, align: 'right' },
    { header: 'candidate value', value: (r) => `${formatValue(r.candidateValue)} ${r.unit}`, align: 'right' },
    { header: 'delta', value: (r) => pct(r.deltaPct), align: 'right' },
    { header: 'result', value: (r) => (r.passed ? 'pass' : 'FAIL') },
  ]);
  const failed = check.rows.filter((r) => !r.passed).length;
  const verdict = check.passed
    ? `PASS: every series within ${check.tolerancePct}% of ${check.by}=${check.baseline}`
    : `FAIL: ${failed} of ${check.rows.length} series more than ${check.tolerancePct}% worse than ${check.by}=${check.baseline}`;
  const unmatched = check.unmatched.length > 0 ? `\n${check.unmatched.length} series had no ${check.baseline} counterpart and were not checked.` : '';
  return `run ${check.runId}\n${table}\n${verdict}${unmatched}`;
}
