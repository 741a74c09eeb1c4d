import type { RunRecord, Sample, TrialRecord } from '@netbench/plugin-api';
import { diagnosisLines, type TrialRowTexts, trialRows } from '@netbench/report/trial-rows';
import { runShow, type ShownTrial } from '@netbench/results';
import { formatTable } from './table.js';

/**
 * The results cell of a trial: the same headline, percentiles, n and loss as
 * `results show` (so the n rule and declared metric roles hold here too), on one line.
 */
function describeRow(trial: ShownTrial, row: TrialRowTexts): string {
  if (trial.summary.load) return row.result;
  const parts = [row.result];
  for (const [label, text] of [
    ['p50', row.p50],
    ['p99', row.p99],
    ['p99.9', row.p999],
  ] as const)
    if (text !== '' && text !== '—') parts.push(`${label} ${text}`);
  if (row.n !== '' && parts.length > 1) parts.push(`n ${row.n}`);
  if (row.loss !== '') parts.push(`loss ${row.loss}`);
  return parts.filter((p) => p !== '').join(' · ');
}

function describeParams(trial: TrialRecord): string {
  return (
    Object.entries({ ...trial.cell, ...trial.params })
      // Off switches only widen the table; every other parameter (duration too) decides the result.
      .filter(([, value]) => value !== false)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')
  );
}

/** The table printed when a run ends: one line per trial with its headline results. */
export function formatSummary(record: RunRecord, samples: readonly Sample[]): string {
  const shown = runShow('', { run: record, samples: [...samples] }).trials;
  const rows = trialRows(shown);
  const byId = new Map(shown.map((t, i) => [t.id, { trial: t, row: rows[i]! }]));
  const limits = diagnosisLines(shown);
  return (
    formatTable(record.trials, [
      { header: 'trial', value: (t) => t.id },
      { header: 'tool', value: (t) => t.tool },
      { header: 'test', value: (t) => t.test },
      { header: 'hosts', value: (t) => byId.get(t.id)!.row.hosts || `${t.client} → ${t.server}` },
      { header: 'parameters', value: describeParams },
      { header: 'status', value: (t) => (t.status === 'succeeded' ? 'ok' : t.status) },
      {
        header: 'results',
        value: (t) => (t.status === 'failed' ? (t.error ?? '').split('\n')[0]!.slice(0, 80) : describeRow(byId.get(t.id)!.trial, byId.get(t.id)!.row)),
      },
    ]) + (limits.length > 0 ? `\n\n${limits.join('\n')}` : '')
  );
}
