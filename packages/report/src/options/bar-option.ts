import type { Bar, BarChart } from '@netbench/results';
import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn } from 'echarts';
import { displayLabel } from '../display-text.js';
import { escapeHtml } from '../html-escape.js';
import { seriesColor } from '../palette.js';
import { LOG_RATIO, type RenderContext } from '../render-options.js';
import { axisUnit } from '../units.js';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH, type Figure, frame, valueAxis } from './base.js';

/** Largest over smallest positive bar: how different in size the bars are. */
export function barRatio(spec: BarChart): number {
  const means = spec.series.flatMap((s) => s.bars.filter((b): b is Bar => b !== null).map((b) => b.mean)).filter((m) => m > 0);
  return means.length > 0 ? Math.max(...means) / Math.min(...means) : 1;
}

/** The value axis a bar chart gets: log when asked, or (auto) when the bars differ by more than LOG_RATIO and none is ≤ 0. */
export function barScale(spec: BarChart, ctx: RenderContext): 'linear' | 'log' {
  if (ctx.barScale !== 'auto') return ctx.barScale;
  const positive = spec.series.every((s) => s.bars.every((b) => b === null || b.mean > 0));
  return positive && barRatio(spec) > LOG_RATIO ? 'log' : 'linear';
}

/**
 * Grouped bars (one per run) with confidence-interval whiskers. ECharts'
 * bar series has no error bars, so each run is a custom series that draws
 * its bar, whisker and caps itself at the grouped position.
 */
export function barOption(spec: BarChart, ctx: RenderContext): Figure {
  const categories = spec.x.categories;
  const seriesCount = spec.series.length;
  const width = ctx.size?.width ?? Math.min(1600, Math.max(DEFAULT_WIDTH, categories.length * (seriesCount * 34 + 30) + 160));
  const band = (width - 160) / Math.max(1, categories.length);
  const rotate = band < 90 ? 30 : 0;
  const longest = Math.max(...categories.map((c) => c.length));
  const bottom = rotate ? Math.min(160, longest * 5 + 20) : 16;
  // One series needs no legend: the title says what the bars are.
  const { option, minHeight } = frame(spec, ctx, seriesCount > 1 ? spec.series.map((s) => s.name) : [], width, { bottom });
  const showValues = categories.length * seriesCount <= 16;
  const scale = barScale(spec, ctx);
  const log = scale === 'log';
  const bars = spec.series.flatMap((s) => s.bars.filter((b): b is Bar => b !== null));
  const unit = axisUnit(
    spec.y.unit,
    bars.flatMap((b) => [b.mean, b.high ?? b.mean]),
  );
  const lowest = Math.min(...bars.map((b) => b.mean));
  const group = 0.72;
  const nonNegative = spec.series.every((s) => s.bars.every((b) => b === null || b.mean >= 0));
  const series = spec.series.map((s, j) => ({
    type: 'custom' as const,
    name: s.name,
    color: seriesColor(j),
    encode: { x: 0, y: [1, 2, 3] },
    data: s.bars.flatMap((bar, i) => (bar ? [[i, bar.mean, bar.low ?? '-', bar.high ?? '-', bar.n]] : [])),
    renderItem: (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
      const index = Number(api.value(0));
      const mean = Number(api.value(1));
      const low = Number(api.value(2));
      const high = Number(api.value(3));
      const [center = 0, linearZero = 0] = api.coord([index, log ? lowest : 0]);
      // A log axis has no zero: bars stand on the bottom of the plot.
      const system = params.coordSys as unknown as { y: number; height: number };
      const zero = log ? system.y + system.height : linearZero;
      const slot = Math.min(((api.size!([1, 0]) as number[])[0]! * group) / seriesCount, 150);
      const x = center - (slot * seriesCount) / 2 + j * slot + (slot - Math.min(slot * 0.84, 120)) / 2;
      const barWidth = Math.min(slot * 0.84, 120);
      const [, top = 0] = api.coord([index, mean]);
      const mid = x + barWidth / 2;
      const children: unknown[] = [
        {
          type: 'rect',
          shape: { x, y: Math.min(top, zero), width: barWidth, height: Math.abs(zero - top) },
          style: { fill: seriesColor(j) },
        },
      ];
      let labelY = top;
      if (Number.isFinite(low) && Number.isFinite(high)) {
        // A metric that cannot be negative: the interval is cut at 0, drawn without its lower cap.
        const clipped = (nonNegative && low < 0) || (log && low <= 0);
        const [, yLow = 0] = clipped ? [0, zero] : api.coord([index, low]);
        const [, yHigh = 0] = api.coord([index, high]);
        const cap = Math.min(10, barWidth * 0.4);
        // The theme's text colour: a fixed dark grey vanished on the dark theme.
        const line = { stroke: ctx.theme.text, lineWidth: 1.5 };
        children.push(
          { type: 'line', shape: { x1: mid, y1: yLow, x2: mid, y2: yHigh }, style: line },
          { type: 'line', shape: { x1: mid - cap / 2, y1: yHigh, x2: mid + cap / 2, y2: yHigh }, style: line },
        );
        if (!clipped) children.push({ type: 'line', shape: { x1: mid - cap / 2, y1: yLow, x2: mid + cap / 2, y2: yLow }, style: line });
        labelY = Math.min(top, yHigh);
      }
      if (showValues) {
        children.push({ type: 'text', style: { text: unit.format(mean), x: mid, y: labelY - 4, align: 'center', verticalAlign: 'bottom', fontSize: 11, fill: ctx.theme.text } });
      }
      return { type: 'group', children } as CustomSeriesRenderItemReturn;
    },
  }));
  return {
    width,
    height: Math.max(ctx.size?.height ?? DEFAULT_HEIGHT + (rotate ? bottom : 0), minHeight),
    option: {
      ...option,
      ...(ctx.interactive
        ? { tooltip: { trigger: 'item', confine: true, formatter: ((p: { seriesName: string; value: unknown[] }) => barTooltip(p, categories, unit.formatWithUnit)) as never } }
        : {}),
      xAxis: {
        type: 'category',
        data: [...categories],
        name: spec.x.label,
        nameLocation: 'middle',
        nameTextStyle: { fontSize: 12, color: ctx.theme.text },
        axisLabel: { interval: 0, rotate, fontSize: 11, color: ctx.theme.text, ...(rotate ? {} : { width: band - 8, overflow: 'break' }) },
        axisLine: { lineStyle: { color: ctx.theme.axisLine } },
        axisTick: { alignWithLabel: true },
      },
      // Rates, throughput and latency cannot be negative: the axis starts at zero (log axes at a power of ten below the smallest bar).
      yAxis: valueAxis(ctx, displayLabel(spec.y.label, spec), unit, scale, log ? {} : { boundaryGap: [0, '12%'], ...(nonNegative ? { min: 0 } : {}) }),
      series,
    },
  };
}

function barTooltip(p: { seriesName: string; value: unknown[] }, categories: readonly string[], format: (v: number) => string): string {
  const [index, mean, low, high, n] = p.value as [number, number, number | string, number | string, number];
  const interval = typeof low === 'number' && typeof high === 'number' ? ` [${format(low)}, ${format(high)}]` : '';
  return `${escapeHtml(p.seriesName)} · ${escapeHtml(categories[index] ?? '')}<br/>${format(mean)}${interval} (n=${n})`;
}
