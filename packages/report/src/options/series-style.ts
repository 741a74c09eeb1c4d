import { seriesColor } from '../palette.js';

export interface SeriesStyle {
  readonly color: string;
  /** Line dash: the series' place within its run when colours stand for runs. */
  readonly dash: 'solid' | 'dashed' | 'dotted';
}

const DASHES = ['solid', 'dashed', 'dotted'] as const;

/**
 * Colour and dash of each series. A chart overlaying several runs (`netbench
 * report A B`, the app's overlay page: flent's `*_combine`) colours by run,
 * the same colour for every series of one run, and tells a run's series
 * apart by dash; a chart of one run colours each series.
 */
export function seriesStyles(chart: { readonly runIds: readonly string[]; readonly series: readonly { readonly runId: string }[] }): SeriesStyle[] {
  const runs = [...new Set(chart.series.map((s) => s.runId))];
  if (runs.length < 2) return chart.series.map((_, i) => ({ color: seriesColor(i), dash: 'solid' }));
  // Run order as the chart lists them (the order the runs were given), then any other.
  const order = [...chart.runIds.filter((r) => runs.includes(r)), ...runs.filter((r) => !chart.runIds.includes(r))];
  const seen = new Map<string, number>();
  return chart.series.map((s) => {
    const within = seen.get(s.runId) ?? 0;
    seen.set(s.runId, within + 1);
    return { color: seriesColor(order.indexOf(s.runId)), dash: DASHES[within % DASHES.length]! };
  });
}
