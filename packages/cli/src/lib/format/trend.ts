import type { Trend } from '@netbench/results';
import { formatTable } from './table.js';
import { formatValue } from './number.js';
import { shortTime } from './results.js';

/** `results trend`: one line per run, oldest first, with the change flag. */
export function formatTrend(trend: Trend): string {
  const labels = Object.entries(trend.labels).map(([k, v]) => `${k}=${String(v)}`).join(' ');
  const table = formatTable(trend.points, [
    { header: 'run', value: (p) => p.runId },
    { header: 'started (UTC)', value: (p) => shortTime(p.startedAt) },
    { header: trend.unit, value: (p) => formatValue(p.value), align: 'right' },
    { header: 'n', value: (p) => String(p.n), align: 'right' },
    { header: 'vs median', value: (p) => (p.change ? `${p.change.deltaPct >= 0 ? '+' : ''}${p.change.deltaPct.toFixed(1)}%` : ''), align: 'right' },
    { header: 'z', value: (p) => (p.change ? p.change.z.toFixed(1) : ''), align: 'right' },
    { header: 'flag', value: (p) => p.flag ?? '' },
  ]);
  return [
    `${trend.metric} (${trend.unit})${labels ? ` · ${labels}` : ''}`,
    `each run against the median/MAD of the ${trend.window} before it; |z| > ${trend.threshold} is a change; ${trend.direction ? `${trend.direction} is better` : 'direction unknown'}`,
    '',
    table,
    '',
    trend.summary,
  ].join('\n');
}
