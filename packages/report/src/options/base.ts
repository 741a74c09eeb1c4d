import type { EChartsOption } from 'echarts';
import type { ChartSpec } from '@netbench/results';
import { displayText } from '../display-text.js';
import { SERIES_COLORS } from '../palette.js';
import type { RenderContext } from '../render-options.js';
import { measureText } from '../text-metrics.js';
import { axisName, type AxisUnit } from '../units.js';

export interface Figure {
  readonly option: EChartsOption;
  readonly width: number;
  readonly height: number;
}

export const FONT_FAMILY = 'DejaVu Sans, Helvetica, Arial, sans-serif';
export const DEFAULT_WIDTH = 900;
export const DEFAULT_HEIGHT = 500;
const TITLE_HEIGHT = 58;
const LEGEND_ROW = 24;
/** Room for the footer line (run id and date on exports). */
export const FOOTER_HEIGHT = 22;

/** Width of a text in pixels at `size` px (DejaVu Sans), for layout before ECharts measures. */
export function textWidth(text: string, size = 12): number {
  return Math.ceil(measureText(text, `${size}px sans-serif`).width);
}

/** The figure's width: the page's when it decides, else `preferred`. */
export function widthOf(ctx: RenderContext, preferred = DEFAULT_WIDTH): number {
  return ctx.size?.width ?? preferred;
}

export function heightOf(ctx: RenderContext, preferred = DEFAULT_HEIGHT): number {
  return ctx.size?.height ?? preferred;
}

/**
 * Title, legend, grid, footer and tooltip shared by every chart: the title
 * and subtitle top left, the legend under them (in as many rows as it needs;
 * one scrolling row when interactive), and a grid that contains its axis
 * labels and names (ECharts 6 outer bounds), so long category names never
 * run off the picture.
 */
export function frame(spec: ChartSpec, ctx: RenderContext, legend: readonly string[], width: number, extra: { bottom?: number; right?: number } = {}): { option: EChartsOption; top: number } {
  const { theme } = ctx;
  const rows = legend.length > 0 ? (ctx.interactive ? 1 : legendRows(legend, width)) : 0;
  const top = TITLE_HEIGHT + rows * LEGEND_ROW + 12;
  const text = displayText(spec);
  const option: EChartsOption = {
    animation: false,
    color: [...SERIES_COLORS],
    backgroundColor: theme.background,
    textStyle: { fontFamily: FONT_FAMILY, color: theme.text },
    title: {
      text: text.title,
      subtext: text.subtitle,
      left: 16,
      top: 10,
      textStyle: { fontSize: 16, fontWeight: 'bold', color: theme.title },
      subtextStyle: { fontSize: 12, color: theme.muted },
    },
    legend: rows > 0
      ? { data: [...legend], top: TITLE_HEIGHT, left: 16, right: 16, itemGap: 16, textStyle: { fontSize: 12, color: theme.text }, ...(ctx.interactive ? { type: 'scroll' as const } : {}) }
      : { show: false },
    grid: { left: 16, right: extra.right ?? 28, top, bottom: (extra.bottom ?? 16) + (ctx.footer ? FOOTER_HEIGHT : 0), outerBoundsMode: 'same', outerBoundsContain: 'all' },
    ...(ctx.footer ? { graphic: [footer(ctx)] } : {}),
  };
  return { option, top };
}

/** The footer line, bottom left (run id and date). */
export function footer(ctx: RenderContext): Record<string, unknown> {
  return { type: 'text', left: 16, bottom: 6, silent: true, style: { text: ctx.footer ?? '', fontSize: 11, fill: ctx.theme.muted, fontFamily: FONT_FAMILY } };
}

function legendRows(legend: readonly string[], width: number): number {
  const available = width - 32;
  let rows = 1;
  let used = 0;
  for (const name of legend) {
    const item = 25 + 5 + textWidth(name) + 16 + 4;
    if (used > 0 && used + item > available) {
      rows += 1;
      used = 0;
    }
    used += item;
  }
  return rows;
}

/**
 * A value axis: its unit (chosen by the largest value drawn, see units.ts) in
 * the name, ticks formatted in that unit, log when `scale` says so.
 */
export function valueAxis(ctx: RenderContext, label: string, unit: AxisUnit, scale: 'linear' | 'log', extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { theme } = ctx;
  return {
    type: scale === 'log' ? 'log' : 'value',
    name: axisName(label, unit.symbol) + (scale === 'log' ? ', log scale' : ''),
    nameLocation: 'middle',
    nameTextStyle: { fontSize: 12, color: theme.text },
    axisLabel: { fontSize: 11, color: theme.text, hideOverlap: true, formatter: (v: number) => unit.format(v) },
    splitLine: { lineStyle: { color: theme.grid } },
    axisLine: { lineStyle: { color: theme.axisLine } },
    ...(scale === 'log' ? {} : { scale: false }),
    ...extra,
  };
}

/** A category axis in the theme's colours. */
export function categoryAxis(ctx: RenderContext, label: string, categories: readonly string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'category',
    data: [...categories],
    name: label,
    nameLocation: 'middle',
    nameTextStyle: { fontSize: 12, color: ctx.theme.text },
    axisLabel: { fontSize: 11, color: ctx.theme.text, hideOverlap: true },
    axisLine: { lineStyle: { color: ctx.theme.axisLine } },
    ...extra,
  };
}

/** Tooltip of line and bar charts (interactive only): values in the axis unit. */
export function axisTooltip(ctx: RenderContext, unit: AxisUnit): Record<string, unknown> {
  return ctx.interactive ? { tooltip: { trigger: 'axis', confine: true, valueFormatter: (v: number) => unit.formatWithUnit(Number(v)) } } : {};
}
