import type { ChartSpec } from '@netbench/results';
import type { EChartsOption } from 'echarts';
import { displayText } from '../display-text.js';
import { SERIES_COLORS } from '../palette.js';
import type { RenderContext } from '../render-options.js';
import { measureText } from '../text-metrics.js';
import { type AxisUnit, axisName } from '../units.js';

export interface Figure {
  readonly option: EChartsOption;
  readonly width: number;
  readonly height: number;
}

export const FONT_FAMILY = 'DejaVu Sans, Helvetica, Arial, sans-serif';
export const DEFAULT_WIDTH = 900;
export const DEFAULT_HEIGHT = 500;
const TITLE_HEIGHT = 58;
/** Each title line past the first. */
const TITLE_LINE = 20;
/** Each subtitle line past the first (its line height, and room under the last). */
const SUBTITLE_LINE = 16;
const SUBTITLE_GAP = 6;
/** A legend row: ECharts' item height (14) plus the item gap (16), which it also puts between rows. */
const LEGEND_ROW = 30;
/** More legend rows than this scroll in one row when interactive (a static figure always shows every entry). */
export const MAX_LEGEND_ROWS = 6;
/** The plot area never gets less than this (px): a box or a line squashed to 30 px says nothing. */
export const MIN_PLOT_HEIGHT = 220;
/** Room under the plot for the axis labels and name. */
const AXIS_ROOM = 48;
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
 * and subtitle top left (the subtitle wrapped to the width, with `notes`
 * after it: what the plot clipped or flagged), the legend under them in as
 * many rows as it needs (every entry shown; only past MAX_LEGEND_ROWS does
 * an interactive legend scroll), and a grid that contains its axis labels
 * and names (ECharts 6 outer bounds), so long category names never run off
 * the picture. `minHeight` is the height that leaves the plot
 * MIN_PLOT_HEIGHT: figures are at least that tall.
 */
export function frame(
  spec: ChartSpec,
  ctx: RenderContext,
  legend: readonly string[],
  width: number,
  extra: { bottom?: number; right?: number; notes?: readonly string[] } = {},
): { option: EChartsOption; top: number; minHeight: number } {
  const { theme } = ctx;
  const needed = legend.length > 0 ? legendRows(legend, width) : 0;
  const scroll = ctx.interactive && needed > MAX_LEGEND_ROWS;
  const rows = scroll ? 1 : needed;
  const text = displayText(spec);
  // Bold text runs wider than the regular metrics measure.
  const title = wrapLines(text.title, (width - 32) / 1.15, 16);
  const subtitle = wrapLines([text.subtitle, ...(extra.notes ?? [])].filter(Boolean).join(' · '), width - 32, 12);
  const legendTop =
    TITLE_HEIGHT + (Math.max(1, title.length) - 1) * TITLE_LINE + (Math.max(1, subtitle.length) - 1) * SUBTITLE_LINE + (subtitle.length > 1 || title.length > 1 ? SUBTITLE_GAP : 0);
  const top = legendTop + rows * LEGEND_ROW + 12;
  const bottom = (extra.bottom ?? 16) + (ctx.footer ? FOOTER_HEIGHT : 0);
  const option: EChartsOption = {
    animation: false,
    color: [...SERIES_COLORS],
    backgroundColor: theme.background,
    textStyle: { fontFamily: FONT_FAMILY, color: theme.text },
    title: {
      text: title.join('\n'),
      subtext: subtitle.join('\n'),
      left: 16,
      top: 10,
      textStyle: { fontSize: 16, fontWeight: 'bold', color: theme.title, lineHeight: TITLE_LINE },
      subtextStyle: { fontSize: 12, color: theme.muted, lineHeight: SUBTITLE_LINE },
    },
    legend:
      rows > 0
        ? {
            data: [...legend],
            top: legendTop,
            left: 16,
            right: 16,
            itemGap: 16,
            textStyle: { fontSize: 12, color: theme.text },
            ...(scroll ? { type: 'scroll' as const, pageTextStyle: { color: theme.text } } : {}),
          }
        : { show: false },
    grid: { left: 16, right: extra.right ?? 28, top, bottom, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    ...(ctx.footer ? { graphic: [footer(ctx)] } : {}),
  };
  return { option, top, minHeight: top + MIN_PLOT_HEIGHT + AXIS_ROOM + bottom };
}

/** `text` in lines no wider than `width` px (broken at spaces). */
export function wrapLines(text: string, width: number, size = 12): string[] {
  if (text === '') return [];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && textWidth(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  lines.push(line);
  return lines;
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
