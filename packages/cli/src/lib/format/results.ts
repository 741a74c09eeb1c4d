import { diagnosisLines, TRIAL_ROWS_NOTE, trialRows } from '@netbench/report/trial-rows';
import { displayUnit, formatNumber, formatQuantities, joinUnit, metricName } from '@netbench/report/units';
import type { RunShow, ShownMetric, ShownTrial, StoredRunSummary } from '@netbench/results';
import { formatDuration } from './number.js';
import { formatTable } from './table.js';

/** `2026-11-22 11:35:31` (UTC) from an ISO time. */
export const shortTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');

/** `results list`: one line per run. */
export function formatRunList(runs: readonly StoredRunSummary[]): string {
  return formatTable(runs, [
    { header: 'run', value: (r) => r.runId },
    { header: 'spec', value: (r) => r.name },
    { header: 'status', value: (r) => r.status },
    { header: 'started (UTC)', value: (r) => shortTime(r.startedAt) },
    { header: 'took', value: (r) => formatDuration(r.durationMs / 1000), align: 'right' },
    { header: 'tools', value: (r) => r.tools.join(',') },
    { header: 'trials', value: (r) => String(r.trials), align: 'right' },
    { header: 'samples', value: (r) => String(r.samples), align: 'right' },
  ]);
}

interface ShowRow {
  readonly trial: string;
  readonly tool: string;
  readonly test: string;
  readonly metric: ShownMetric;
}

/** A row's p50/p90/p99 in one unit (chosen by the largest), each with its symbol. */
function percentile(m: ShownMetric, p: number | undefined): string {
  if (p === undefined) return '';
  const present = [m.p50, m.p90, m.p99, m.p999].filter((v): v is number => v !== undefined);
  const { symbol, texts } = formatQuantities(present, m.percentileUnit ?? m.unit);
  return joinUnit(texts[present.indexOf(p)]!, symbol);
}

/** The value in the unit its magnitude fills (117 µs, 12.9 Gbit/s): number and unit columns. */
function scaled(m: ShownMetric): { value: string; unit: string } {
  const { symbol, factor } = displayUnit(m.unit, m.value);
  return { value: formatNumber(m.value * factor), unit: symbol };
}

/** `results show`: the run's header, then one line per trial: headline, p50/p90/p99/p99.9, loss. `metrics`: one line per trial and metric instead. */
export function formatRunShow(show: RunShow, options: { metrics?: boolean } = {}): string {
  if (options.metrics) return formatRunMetrics(show);
  const head = showHead(show);
  const rows = trialRows(show.trials);
  const texts = new Map(show.trials.map((t, i) => [t, rows[i]!]));
  const row = (t: ShownTrial) => texts.get(t)!;
  const table = formatTable(show.trials, [
    { header: 'trial', value: (t) => t.id },
    { header: 'tool', value: (t) => t.tool },
    { header: 'test', value: (t) => t.test },
    { header: 'hosts', value: (t) => row(t).hosts },
    { header: 'parameters', value: (t) => row(t).parameters },
    { header: 'result', value: (t) => row(t).result, align: 'right' },
    { header: 'p50', value: (t) => row(t).p50, align: 'right' },
    { header: 'p90', value: (t) => row(t).p90, align: 'right' },
    { header: 'p99', value: (t) => row(t).p99, align: 'right' },
    { header: 'p99.9', value: (t) => row(t).p999, align: 'right' },
    { header: 'n', value: (t) => row(t).n, align: 'right' },
    { header: 'loss', value: (t) => row(t).loss, align: 'right' },
  ]);
  const failed = show.trials.filter((t) => t.status !== 'succeeded').map((t) => `${t.id} ${t.status}${t.error ? `: ${t.error.split('\n')[0]}` : ''}`);
  const limits = diagnosisLines(show.trials);
  return [...head, '', table, ...failed.map((f) => `trial ${f}`), ...(limits.length > 0 ? ['', ...limits] : []), '', `${TRIAL_ROWS_NOTE} Every metric: --metrics.`].join('\n');
}

function showHead(show: RunShow): string[] {
  const { run } = show;
  return [
    `run ${run.runId} · ${run.name} · ${run.status} · ${shortTime(run.startedAt)} UTC · ${formatDuration((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000)} · ${run.owner}`,
    `hosts: ${run.hosts.map((h) => `${h.id} (${[h.cloud, h.zone, h.machineType].filter(Boolean).join('/')}, ${h.internalIp})`).join(' · ') || 'none'}`,
    `folder: ${run.runDir}`,
    ...run.errors.map((e) => `error: ${e}`),
  ];
}

/** `results show --metrics`: the run's header, then one line per trial and metric. */
function formatRunMetrics(show: RunShow): string {
  const head = showHead(show);
  const rows: ShowRow[] = [
    ...show.trials.flatMap((t) => t.metrics.map((metric) => ({ trial: t.id, tool: t.tool, test: t.test, metric }))),
    ...show.runMetrics.map((metric) => ({ trial: 'run', tool: '', test: '', metric })),
  ];
  const failed = show.trials.filter((t) => t.status !== 'succeeded').map((t) => `${t.id} ${t.status}${t.error ? `: ${t.error.split('\n')[0]}` : ''}`);
  const table = formatTable(rows, [
    { header: 'trial', value: (r) => r.trial },
    { header: 'tool', value: (r) => r.tool },
    { header: 'test', value: (r) => r.test },
    { header: 'metric', value: (r) => `${metricName(r.metric.metric)}${r.metric.qualifier ? ` (${r.metric.qualifier})` : ''}` },
    { header: 'value', value: (r) => (r.metric.histogramOnly ? 'histogram' : scaled(r.metric).value), align: 'right' },
    { header: 'unit', value: (r) => (r.metric.histogramOnly ? '' : scaled(r.metric).unit) },
    { header: 'n', value: (r) => (r.metric.n > 1 ? String(r.metric.n) : ''), align: 'right' },
    { header: 'p50', value: (r) => percentile(r.metric, r.metric.p50), align: 'right' },
    { header: 'p90', value: (r) => percentile(r.metric, r.metric.p90), align: 'right' },
    { header: 'p99', value: (r) => percentile(r.metric, r.metric.p99), align: 'right' },
    { header: 'p99.9', value: (r) => percentile(r.metric, r.metric.p999), align: 'right' },
  ]);
  return [...head, '', table, ...failed.map((f) => `trial ${f}`)].join('\n');
}
