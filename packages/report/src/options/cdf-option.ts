import type { CdfChart } from '@netbench/results';
import { escapeHtml } from '../html-escape.js';
import type { RenderContext } from '../render-options.js';
import { axisUnit } from '../units.js';
import { type Figure, frame, heightOf, valueAxis, widthOf } from './base.js';
import { seriesStyles } from './series-style.js';

const PERCENTILES = [
  [50, 'p50'],
  [90, 'p90'],
  [99, 'p99'],
  [99.9, 'p99.9'],
] as const;

/**
 * One line per series with dashed guides at p50, p90 and p99; the legend
 * carries each series' p50/p99. The tail view draws 1 − CDF on a log axis
 * (the share of measurements above each latency), where p99 and p99.9 are
 * as far apart as p50 and p90: the view for the tail.
 */
export function cdfOption(spec: CdfChart, ctx: RenderContext): Figure {
  // The unit the medians fill (60 µs, not 0.06 ms because one packet took 6 ms): the body of the distribution reads best.
  const unit = axisUnit(
    spec.x.unit,
    spec.series.map((s) => s.percentiles.p50),
  );
  const names = spec.series.map((s) => `${s.name} (p50 ${unit.format(s.percentiles.p50)}, p99 ${unit.format(s.percentiles.p99)} ${unit.symbol})`);
  const width = widthOf(ctx);
  const { option, minHeight } = frame(spec, ctx, names, width);
  const tail = ctx.cdfView === 'tail';
  const styles = seriesStyles(spec);
  const guideStyle = { type: 'dashed' as const, color: '#aaaaaa', width: 1 };
  const label = (text: string) => ({ formatter: text, position: 'insideEndTop' as const, fontSize: 10, color: ctx.theme.muted });
  // Horizontal guides where the curves cross p50/p90/p99 (p99.9 too in the tail view).
  const guides = PERCENTILES.filter(([p]) => tail || p < 99.9).map(([p, text]) => ({ yAxis: tail ? Number((100 - p).toFixed(3)) : p, label: label(text) }));
  // The smallest tail a series can show is one measurement in `count`.
  const floor = Math.min(...spec.series.map((s) => 100 / Math.max(1, s.count)));
  const tailMin = 10 ** Math.floor(Math.log10(floor));
  return {
    width,
    height: Math.max(heightOf(ctx), minHeight),
    option: {
      ...option,
      ...(ctx.interactive
        ? {
            tooltip: {
              trigger: 'axis',
              confine: true,
              formatter: ((items: { seriesName: string; value: [number, number] }[]) => cdfTooltip(items, unit.formatWithUnit, tail)) as never,
            },
          }
        : {}),
      xAxis: valueAxis(ctx, spec.x.label, unit, spec.x.scale, { scale: true }),
      yAxis: tail
        ? valueAxis(ctx, 'measurements > latency', { symbol: '%', factor: 1, format: tailTick, formatWithUnit: (v) => `${tailTick(v)}%` }, 'log', {
            min: tailMin,
            max: 100,
            name: 'measurements > latency (%, log)',
          })
        : valueAxis(ctx, spec.y.label, { symbol: '%', factor: 1, format: String, formatWithUnit: (v) => `${v}%` }, 'linear', { min: 0, max: 100, interval: 10 }),
      series: spec.series.map((s, i) => ({
        type: 'line',
        name: names[i],
        color: styles[i]!.color,
        data: tail ? tailPoints(s.points) : s.points.map((p) => [p[0], p[1]]),
        step: 'end',
        showSymbol: false,
        lineStyle: { width: 2, type: styles[i]!.dash },
        ...(i === 0 ? { markLine: { silent: true, symbol: 'none', lineStyle: guideStyle, data: guides } } : {}),
      })),
    },
  };
}

/** `[value, % ≤ value]` as `[value, % > value]`, without the final 0 % a log axis cannot draw. */
function tailPoints(points: readonly (readonly [number, number])[]): [number, number][] {
  return points.map((p): [number, number] => [p[0], Number((100 - p[1]).toPrecision(6))]).filter((p) => p[1] > 0);
}

function tailTick(v: number): string {
  return v >= 1 ? String(v) : String(Number(v.toPrecision(1)));
}

function cdfTooltip(items: readonly { seriesName: string; value: [number, number] }[], format: (v: number) => string, tail: boolean): string {
  return items
    .map((item) => `${escapeHtml(item.seriesName)}<br/>${tail ? `${tailTick(item.value[1])}% above` : `${Number(item.value[1].toFixed(3))}% ≤`} ${format(item.value[0])}`)
    .join('<br/>');
}
