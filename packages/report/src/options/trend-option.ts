import type { TrendChart, TrendChartPoint } from '@netbench/results';
import { displayLabel } from '../display-text.js';
import { escapeHtml } from '../html-escape.js';
import { seriesColor } from '../palette.js';
import type { RenderContext } from '../render-options.js';
import { axisUnit } from '../units.js';
import { type Figure, frame, heightOf, valueAxis, widthOf } from './base.js';

/** Flagged runs: a regression in the error colour, an improvement in the good one, a change (no better way known) in amber. */
const FLAG_COLORS: Readonly<Record<NonNullable<TrendChartPoint['flag']>, string>> = { regression: '#d62728', improvement: '#2ca02c', change: '#e6a700' };

const dateText = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/**
 * One metric over calendar time (Grafana's panel): x a time axis of the
 * runs' start dates, a line with a point per run per series, and the runs
 * the trend flags ringed in the flag's colour and named by it.
 */
export function trendOption(spec: TrendChart, ctx: RenderContext): Figure {
  const width = widthOf(ctx);
  const flagged = spec.series.flatMap((s) => s.points.filter((p) => p.flag !== null).map((p) => ({ s, p })));
  const notes =
    flagged.length === 0
      ? ['no run flagged against the runs before it']
      : [
          `flagged: ${flagged
            .slice(0, 4)
            .map(({ s, p }) => `${p.flag} ${p.runId}${spec.series.length > 1 ? ` (${s.name})` : ''}`)
            .join(', ')}${flagged.length > 4 ? ` and ${flagged.length - 4} more` : ''}`,
        ];
  const { option, minHeight } = frame(
    spec,
    ctx,
    spec.series.map((s) => s.name),
    width,
    { notes, ...(ctx.interactive ? { bottom: 28 } : {}) },
  );
  const y = axisUnit(
    spec.y.unit,
    spec.series.flatMap((s) => s.points.map((p) => p.value)),
  );
  const byName = new Map(spec.series.map((s) => [s.name, s]));
  return {
    width,
    height: Math.max(heightOf(ctx), minHeight),
    option: {
      ...option,
      ...(ctx.interactive
        ? {
            tooltip: {
              trigger: 'item',
              confine: true,
              formatter: ((item: { seriesName: string; dataIndex: number }) => {
                const p = byName.get(item.seriesName)?.points[item.dataIndex];
                if (!p) return '';
                return [
                  `${escapeHtml(dateText(p.at))} UTC`,
                  `${escapeHtml(item.seriesName)}: ${escapeHtml(y.formatWithUnit(p.value))} (n=${p.n})`,
                  `run ${escapeHtml(p.runId)}`,
                  ...(p.flag ? [escapeHtml(p.flag)] : []),
                ].join('<br/>');
              }) as never,
            },
          }
        : {}),
      xAxis: {
        type: 'time',
        name: 'run started (UTC)',
        nameLocation: 'middle',
        nameGap: 28,
        nameTextStyle: { fontSize: 12, color: ctx.theme.text },
        axisLabel: { fontSize: 11, color: ctx.theme.text, hideOverlap: true },
        axisLine: { lineStyle: { color: ctx.theme.axisLine } },
        splitLine: { show: false },
      },
      yAxis: valueAxis(ctx, displayLabel(spec.y.label, spec), y, spec.y.scale, spec.y.scale === 'log' ? {} : { min: 0 }),
      ...(ctx.interactive ? { dataZoom: [{ type: 'inside' }] } : {}),
      series: spec.series.map((s, i) => ({
        type: 'line',
        name: s.name,
        color: seriesColor(i),
        data: s.points.map((p) => [p.at, p.value]),
        showSymbol: true,
        symbolSize: 7,
        lineStyle: { width: 2 },
        ...(s.points.some((p) => p.flag !== null)
          ? {
              markPoint: {
                silent: true,
                symbol: 'circle',
                symbolSize: 16,
                label: { show: true, position: 'left', fontSize: 10, color: ctx.theme.text, formatter: '{b}' },
                data: s.points
                  .filter((p) => p.flag !== null)
                  .map((p) => ({ name: p.flag!, coord: [p.at, p.value], itemStyle: { color: 'transparent', borderColor: FLAG_COLORS[p.flag!], borderWidth: 2 } })),
              },
            }
          : {}),
      })),
    },
  };
}
