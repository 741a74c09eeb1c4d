import type { HistogramChart } from '@netbench/results';
import type { RenderContext } from '../render-options.js';
import { axisName, axisUnit, formatNumber } from '../units.js';
import { axisTooltip, categoryAxis, type Figure, frame, heightOf, valueAxis, widthOf } from './base.js';
import { seriesStyles } from './series-style.js';

/** Bins as bars on a category axis of bin starts; the legend says how much lies beyond the last bin. */
export function histogramOption(spec: HistogramChart, ctx: RenderContext): Figure {
  const last = spec.edges.at(-1) ?? 0;
  const unit = axisUnit(spec.x.unit, [last]);
  const names = spec.series.map((s) => (s.overflow > 0 ? `${s.name} (${formatNumber(s.overflow)}% above ${unit.formatWithUnit(last)})` : s.name));
  const width = widthOf(ctx);
  const { option, minHeight } = frame(spec, ctx, names, width);
  const styles = seriesStyles(spec);
  const categories = spec.edges.slice(0, -1).map((e) => unit.format(e));
  const percent = { symbol: spec.y.unit, factor: 1, format: formatNumber, formatWithUnit: (v: number) => `${formatNumber(v)}%` };
  return {
    width,
    height: Math.max(heightOf(ctx), minHeight),
    option: {
      ...option,
      ...axisTooltip(ctx, percent),
      xAxis: categoryAxis(ctx, `${axisName(spec.x.label, unit.symbol)}, bin start`, categories, { axisTick: { alignWithLabel: false } }),
      yAxis: valueAxis(ctx, spec.y.label, percent, 'linear'),
      series: spec.series.map((s, i) => ({
        type: 'bar',
        name: names[i],
        color: styles[i]!.color,
        data: s.percents.map((p) => Number(p.toFixed(4))),
        barGap: '0%',
        barCategoryGap: '12%',
      })),
    },
  };
}
