import type { SweepChart } from '@netbench/results';
import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn } from 'echarts';
import { displayLabel } from '../display-text.js';
import type { RenderContext } from '../render-options.js';
import { axisUnit, formatNumber, unitSymbol } from '../units.js';
import { axisTooltip, type Figure, frame, heightOf, valueAxis, widthOf } from './base.js';
import { seriesStyles } from './series-style.js';

const isPowerOfTwo = (x: number) => Number.isInteger(Math.log2(x));

/**
 * One line per series through the means; vertical whiskers (a custom
 * series each) where a point has a confidence interval. Log x axes use
 * base 2 when every x is a power of two (message sizes, streams).
 */
export function sweepOption(spec: SweepChart, ctx: RenderContext): Figure {
  const width = widthOf(ctx);
  const { option, minHeight } = frame(
    spec,
    ctx,
    spec.series.map((s) => s.name),
    width,
  );
  const y = axisUnit(
    spec.y.unit,
    spec.series.flatMap((s) => s.points.map((p) => p.high ?? p.mean)),
  );
  // The swept parameter keeps the values the spec gave (message sizes 1 … 16384 bytes), in its unit's name.
  const xSymbol = unitSymbol(spec.x.unit);
  const x = { symbol: xSymbol, factor: 1, format: formatNumber, formatWithUnit: (v: number) => (xSymbol ? `${formatNumber(v)} ${xSymbol}` : formatNumber(v)) };
  const xs = spec.series.flatMap((s) => s.points.map((p) => p.x));
  const log = spec.x.scale === 'log';
  const nonNegative = spec.series.every((s) => s.points.every((p) => p.mean >= 0));
  const styles = seriesStyles(spec);
  const seriesColor = (i: number) => styles[i]!.color;
  const ticks = [...new Set(xs)].sort((a, b) => a - b);
  const lines = spec.series.map((s, i) => ({
    type: 'line' as const,
    name: s.name,
    color: seriesColor(i),
    data: s.points.map((p) => [p.x, p.mean]),
    showSymbol: true,
    symbolSize: 7,
    lineStyle: { width: 2, type: styles[i]!.dash },
    // The knee's name beside the pin in the text colour: 9 px white inside the pin did not read.
    ...(s.knee
      ? {
          markPoint: {
            symbol: 'pin',
            symbolSize: 30,
            label: { formatter: `knee: ${formatNumber(s.knee.x)}`, fontSize: 11, position: 'right' as const, color: ctx.theme.text },
            data: [{ name: 'knee', coord: [s.knee.x, s.knee.mean] }],
          },
        }
      : {}),
  }));
  const whiskers = spec.series.map((s, i) => ({
    type: 'custom' as const,
    name: s.name,
    tooltip: { show: false },
    color: seriesColor(i),
    encode: { x: 0, y: [1, 2] },
    data: s.points.flatMap((p) => (p.low !== undefined && p.high !== undefined ? [[p.x, p.low, p.high]] : [])),
    renderItem: (_params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
      // Cut at 0 for metrics that cannot be negative (no lower cap marks the cut).
      const clipped = nonNegative && Number(api.value(1)) < 0;
      const [x = 0, low = 0] = api.coord([Number(api.value(0)), clipped ? 0 : Number(api.value(1))]);
      const [, high = 0] = api.coord([Number(api.value(0)), Number(api.value(2))]);
      const style = { stroke: seriesColor(i), lineWidth: 1.5 };
      return {
        type: 'group',
        children: [
          { type: 'line', shape: { x1: x, y1: low, x2: x, y2: high }, style },
          ...(clipped ? [] : [{ type: 'line', shape: { x1: x - 5, y1: low, x2: x + 5, y2: low }, style }]),
          { type: 'line', shape: { x1: x - 5, y1: high, x2: x + 5, y2: high }, style },
        ],
      } as CustomSeriesRenderItemReturn;
    },
  }));
  return {
    width,
    height: Math.max(heightOf(ctx), minHeight),
    option: {
      ...option,
      ...axisTooltip(ctx, y),
      // Ticks exactly at the measured values (1, 64, 1024, 16384), not at round numbers between them.
      xAxis: valueAxis(ctx, spec.x.label, x, spec.x.scale, {
        ...(log ? { logBase: xs.every(isPowerOfTwo) ? 2 : 10 } : {}),
        min: Math.min(...xs),
        max: Math.max(...xs),
        axisLabel: { fontSize: 11, color: ctx.theme.text, customValues: ticks, formatter: (v: number) => formatNumber(v) },
        axisTick: { customValues: ticks },
        splitLine: { show: false },
      }),
      yAxis: valueAxis(ctx, displayLabel(spec.y.label, spec), y, 'linear', nonNegative ? { min: 0 } : {}),
      series: [...lines, ...whiskers],
    },
  };
}
