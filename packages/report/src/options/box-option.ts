import type { Box, BoxChart } from '@netbench/results';
import { displayLabel } from '../display-text.js';
import { escapeHtml } from '../html-escape.js';
import { seriesColor } from '../palette.js';
import { LOG_RATIO, type RenderContext } from '../render-options.js';
import { type AxisUnit, axisUnit } from '../units.js';
import { categoryAxis, DEFAULT_HEIGHT, DEFAULT_WIDTH, type Figure, frame, textWidth, valueAxis } from './base.js';

/** Height of one category's row when the boxes lie horizontally. */
export const BOX_ROW = 30;

/** Whether the boxes lie horizontally: their names would not fit under them (they would be turned and squeeze the plot). */
export function horizontalBoxes(spec: BoxChart, width: number): boolean {
  const band = (width - 160) / Math.max(1, spec.x.categories.length);
  return spec.x.categories.some((c) => textWidth(c, 11) > band - 8);
}

/**
 * The value axis of box plots: log when the medians differ by more than
 * LOG_RATIO (idle 0.03 ms and loaded 200 ms round trips on one axis: on a
 * linear one the idle boxes are a line at zero) and every value is positive.
 */
export function boxScale(spec: BoxChart): 'linear' | 'log' {
  if (spec.y.scale === 'log') return 'log';
  const boxes = spec.series.flatMap((s) => s.boxes.filter((b): b is Box => b !== null));
  const medians = boxes.map((b) => b.median).filter((m) => m > 0);
  if (medians.length < 2 || boxes.some((b) => b.min <= 0)) return 'linear';
  return Math.max(...medians) / Math.min(...medians) > LOG_RATIO ? 'log' : 'linear';
}

/**
 * Box plots (ECharts boxplot: min, q1, median, q3, max), one group per
 * category, one box per series. Categories whose names do not fit under
 * their boxes are laid out as rows (boxes horizontal, names to the left in
 * full), a row of BOX_ROW px each, so the plot is never squashed under
 * turned labels; the value axis starts at zero unless log (boxScale).
 */
export function boxOption(spec: BoxChart, ctx: RenderContext): Figure {
  const categories = spec.x.categories;
  const width = ctx.size?.width ?? Math.min(1600, Math.max(DEFAULT_WIDTH, categories.length * (spec.series.length * 40 + 40) + 160));
  const horizontal = horizontalBoxes(spec, width);
  const { option, top, minHeight } = frame(spec, ctx, spec.series.length > 1 ? spec.series.map((s) => s.name) : [], width, { bottom: 16 });
  const boxes = spec.series.flatMap((s) => s.boxes.filter((b): b is Box => b !== null));
  const unit = axisUnit(
    spec.y.unit,
    boxes.map((b) => b.max),
  );
  const scale = boxScale(spec);
  const valueAxisOption = valueAxis(ctx, displayLabel(spec.y.label, spec), unit, scale, scale === 'log' ? {} : { min: 0, boundaryGap: [0, '8%'] });
  const rows = categories.length * Math.max(1, spec.series.length);
  const height = Math.max(ctx.size?.height ?? DEFAULT_HEIGHT, minHeight, horizontal ? top + rows * BOX_ROW + 80 : 0);
  const categoryOption = categoryAxis(ctx, spec.x.label, categories, {
    axisLabel: { interval: 0, fontSize: 11, color: ctx.theme.text },
    // Rows name themselves: the axis name would only sit in the way.
    ...(horizontal ? { inverse: true, name: '' } : {}),
  });
  return {
    width,
    height,
    option: {
      ...option,
      ...(ctx.interactive ? { tooltip: { trigger: 'item', confine: true, formatter: ((p: BoxTooltip) => boxTooltip(p, categories, unit)) as never } } : {}),
      xAxis: horizontal ? valueAxisOption : categoryOption,
      yAxis: horizontal ? categoryOption : valueAxisOption,
      series: spec.series.map((s, i) => ({
        type: 'boxplot',
        name: s.name,
        color: seriesColor(i),
        layout: horizontal ? 'horizontal' : 'vertical',
        boxWidth: [7, 22],
        itemStyle: { color: 'transparent', borderColor: seriesColor(i), borderWidth: 1.5 },
        data: s.boxes.map((b) => (b ? [b.min, b.q1, b.median, b.q3, b.max] : [])),
      })),
    },
  };
}

interface BoxTooltip {
  readonly seriesName: string;
  readonly dataIndex: number;
  readonly value: readonly number[];
}

function boxTooltip(p: BoxTooltip, categories: readonly string[], unit: AxisUnit): string {
  // ECharts puts the category index first.
  const [, min, q1, median, q3, max] = p.value;
  const f = (v: number | undefined) => (v === undefined ? '—' : unit.formatWithUnit(v));
  return `${escapeHtml(categories[p.dataIndex] ?? '')} · ${escapeHtml(p.seriesName)}<br/>max ${f(max)}<br/>q3 ${f(q3)}<br/>median ${f(median)}<br/>q1 ${f(q1)}<br/>min ${f(min)}`;
}
