import { formatQuantities, metricName } from '@netbench/report/units';
import type { Trend } from '@netbench/results';
import { shortTime } from './results.js';
import { formatTable } from './table.js';

/** `results trend`: one line per run, oldest first, with the change flag. */
export function formatTrend(trend: Trend): string {
  const labels = Object.entries(trend.labels)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
  // Every run's value in one unit, chosen by the largest.
  const { symbol, texts } = formatQuantities(
    trend.points.map((p) => p.value),
    trend.unit,
  );
  const text = new Map(trend.points.map((p, i) => [p, texts[i]!]));
  const table = formatTable(trend.points, [
    { header: 'run', value: (p) => p.runId },
    { header: 'started (UTC)', value: (p) => shortTime(p.startedAt) },
    { header: symbol || 'value', value: (p) => text.get(p) ?? '', align: 'right' },
    { header: 'n', value: (p) => String(p.n), align: 'right' },
    { header: 'vs median', value: (p) => (p.change ? `${p.change.deltaPct >= 0 ? '+' : ''}${p.change.deltaPct.toFixed(1)}%` : ''), align: 'right' },
    { header: 'z', value: (p) => (p.change ? p.change.z.toFixed(1) : ''), align: 'right' },
    { header: 'flag', value: (p) => p.flag ?? '' },
  ]);
  return [
    `${metricName(trend.metric)}${symbol ? ` (${symbol})` : ''}${labels ? ` · ${labels}` : ''}`,
    `each run against the median/MAD of the ${trend.window} before it; |z| > ${trend.threshold} is a change; ${trend.direction ? `${trend.direction} is better` : 'direction unknown'}`,
    '',
    table,
    '',
    trend.summary,
  ].join('\n');
}
