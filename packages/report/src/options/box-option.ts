import type { Box, BoxChart } from '@netbench/results';
import { displayLabel } from '../display-text.js';
import { seriesColor } from '../palette.js';
import type { RenderContext } from '../render-options.js';
import { axisUnit } from '../units.js';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, categoryAxis, frame, valueAxis, type Figure } from './base.js';

/** Box plots (ECharts boxplot: min, q1, median, q3, max), one group per category, one box per series; the value axis starts at zero. */
export function boxOption(spec: BoxChart, ctx: RenderContext): Figure {
  const categories = spec.x.categories;
  const width = ctx.size?.width ?? Math.min(1600, Math.max(DEFAULT_WIDTH, categories.length * (spec.series.length * 40 + 40) + 160));
  const band = (width - 160) / Math.max(1, categories.length);
  const rotate = band < 110 ? 30 : 0;
  const bottom = rotate ? Math.min(160, Math.max(...categories.map((c) => c.length)) * 5 + 20) : 16;
  const { option } = frame(spec, ctx, spec.series.length > 1 ? spec.series.map((s) => s.name) : [], width, { bottom });
  const boxes = spec.series.flatMap((s) => s.boxes.filter((b): b is Box => b !== null));
  const unit = axisUnit(spec.y.unit, boxes.map((b) => b.max));
  return {
    width,
    height: ctx.size?.height ?? DEFAULT_HEIGHT + (rotate ? bottom : 0),
    option: {
      ...option,
      ...(ctx.interactive ? { tooltip: { trigger: 'item', confine: true } } : {}),
      xAxis: categoryAxis(ctx, spec.x.label, categories, { axisLabel: { interval: 0, rotate, fontSize: 11, color: ctx.theme.text } }),
      yAxis: valueAxis(ctx, displayLabel(spec.y.label, spec), unit, spec.y.scale, spec.y.scale === 'log' ? {} : { min: 0, boundaryGap: [0, '8%'] }),
      series: spec.series.map((s, i) => ({
        type: 'boxplot',
        name: s.name,
        color: seriesColor(i),
        itemStyle: { color: 'transparent', borderColor: seriesColor(i), borderWidth: 1.5 },
        data: s.boxes.map((b) => (b ? [b.min, b.q1, b.median, b.q3, b.max] : [])),
      })),
    },
  };
}
