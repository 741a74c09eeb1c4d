import { NetbenchError } from '@netbench/plugin-api';
import type { TrendChart } from '../charts/types.js';
import { resultsTrend, type Trend, type TrendOptions } from './trend.js';
import { withStore } from './with-store.js';

export interface TrendChartOptions extends TrendOptions {
  /** A line per value of this label (`client_zone`, `spec`, `name`…); absent: one line. */
  readonly splitBy?: string;
}

export interface TrendChartResult {
  readonly chart: TrendChart;
  readonly trends: readonly { readonly name: string; readonly trend: Trend }[];
  /** Values of `splitBy` whose samples are still several series (the error says which labels differ). */
  readonly refused: readonly { readonly name: string; readonly error: string }[];
}

/** At most this many lines: a label with more values is a heatmap's or a table's job. */
export const TREND_LINES = 12;

/**
 * `resultsTrend` once per value of a label, drawn as one chart over the
 * runs' dates: the trend across many runs split by zone, spec or any label,
 * each line judged on its own history.
 */
export async function trendChart(options: TrendChartOptions): Promise<TrendChartResult> {
  const where = options.where ?? [];
  const split = options.splitBy;
  const values =
    split === undefined
      ? [undefined]
      : await withStore(
          options.db,
          (store) => {
            const seen = new Map<string, number>();
            for (const run of store.select(where, options.metric)) {
              for (const s of run.samples) {
                const v = s.labels[split];
                if (v !== undefined) seen.set(String(v), (seen.get(String(v)) ?? 0) + 1);
              }
            }
            return [...seen.keys()].sort();
          },
          { create: false, readOnly: true },
        );
  if (values.length === 0) throw new NetbenchError(`no stored samples of ${options.metric} carry the label ${split}`);
  if (values.length > TREND_LINES)
    throw new NetbenchError(`${split} has ${values.length} values among the samples of ${options.metric}: narrow it with a condition (at most ${TREND_LINES} lines)`);
  const trends: { name: string; trend: Trend }[] = [];
  const refused: { name: string; error: string }[] = [];
  for (const value of values) {
    const name = value === undefined ? options.metric : `${split}=${value}`;
    try {
      trends.push({ name, trend: await resultsTrend({ ...options, where: value === undefined ? where : [...where, [split!, value]] }) });
    } catch (error) {
      if (!(error instanceof NetbenchError) || values.length === 1) throw error;
      refused.push({ name, error: error.message });
    }
  }
  if (trends.length === 0) throw new NetbenchError(refused[0]!.error);
  const first = trends[0]!.trend;
  const conditions = where.map(([k, v]) => `${k}=${v}`).join(' ');
  const chart: TrendChart = {
    kind: 'trend',
    id: `trend-${options.metric.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}${split ? `-by-${split.replace(/[^A-Za-z0-9]+/g, '-')}` : ''}`,
    title: `${options.metric} over time${split ? ` by ${split}` : ''}`,
    subtitle: [
      `a point per run (the median of its samples)`,
      conditions ? `where ${conditions}` : '',
      `each run judged against the previous ${first.window} (robust z > ${first.threshold})`,
    ]
      .filter(Boolean)
      .join(' · '),
    notes: [`${trends.reduce((n, t) => n + t.trend.points.length, 0)} points from ${new Set(trends.flatMap((t) => t.trend.points.map((p) => p.runId))).size} runs`],
    runIds: [...new Set(trends.flatMap((t) => t.trend.points.map((p) => p.runId)))],
    metric: options.metric,
    y: { label: options.metric, unit: first.unit, scale: 'linear' },
    ...(split ? { splitBy: split } : {}),
    series: trends.map(({ name, trend }) => ({
      name,
      points: trend.points.map((p) => ({ runId: p.runId, at: Date.parse(p.startedAt), value: p.value, n: p.n, flag: p.flag })),
    })),
  };
  return { chart, trends, refused };
}
