import type { HeatmapChart } from '@netbench/results';
import { displayText } from '../display-text.js';
import { HEATMAP_GRID, HEATMAP_LABEL_FONT, heatmapLabelsFit } from '../heatmap-layout.js';
import { escapeHtml } from '../html-escape.js';
import { SEQUENTIAL, sequentialColor, textColorOn } from '../palette.js';
import type { RenderContext } from '../render-options.js';
import { type AxisUnit, axisUnit, formatNumber, unitSymbol } from '../units.js';
import { type Figure, FONT_FAMILY, FOOTER_HEIGHT, footer, textWidth } from './base.js';

const LABEL_SIZE = 11;

interface Layout {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly top: number;
  readonly plotWidth: number;
  readonly plotHeight: number;
  readonly rowNameGap: number;
  readonly columnNameGap: number;
  readonly labels: boolean;
  readonly fontSize: number;
  /** Column names above the matrix (static figures) or below it (the app's fixed margins). */
  readonly columnsAt: 'top' | 'bottom';
}

/**
 * A matrix, sending rows top to bottom and receiving columns across the top
 * (the whitepaper's Fig. 2 layout), each cell labelled with its value (in
 * one unit for the whole matrix) in a text colour chosen against the cell's
 * own colour. Static figures choose square cells and grow with the number
 * of categories so 20 × 20 stays readable; in the app the page sets the
 * size and cells hold labels only when they fit (tooltips keep the values).
 */
export function heatmapOption(spec: HeatmapChart, ctx: RenderContext): Figure {
  const { theme } = ctx;
  const rows = spec.y.categories;
  const columns = spec.x.categories;
  const unit = axisUnit(spec.value.unit, [spec.value.min, spec.value.max]);
  const texts = spec.cells.map((c) => cellText(c.value * unit.factor));
  const layout = ctx.size ? sizedLayout(spec, ctx, texts) : staticLayout(spec, ctx);
  const { min, max } = spec.value;
  const span = max - min || 1;
  // Two series, dark and light text, rather than a label style per cell: ECharts builds a
  // model per styled data item, which made a 20 × 20 matrix several times slower to draw.
  const dark: number[][] = [];
  const light: number[][] = [];
  spec.cells.forEach((c, i) => (textColorOn(sequentialColor((c.value - min) / span)) === '#ffffff' ? light : dark).push([c.x, c.y, c.value, c.n, i]));
  const better = spec.value.better === 'lower' ? 'lower is better' : 'higher is better';
  const legendAt = ctx.size ? { right: 8 } : { left: layout.left + layout.plotWidth + 28 };
  const betterAt = ctx.size ? { right: 8 } : { left: layout.left + layout.plotWidth + 20 };
  const text = displayText(spec);
  return {
    width: layout.width,
    height: layout.height,
    option: {
      animation: false,
      backgroundColor: theme.background,
      textStyle: { fontFamily: FONT_FAMILY, color: theme.text },
      title: {
        text: text.title,
        // The cells are in the unit the matrix fills (µs, not the samples' ms): the subtitle names that one.
        subtext: shownUnit(text.subtitle, spec.value.unit, unit.symbol),
        left: 16,
        top: 10,
        textStyle: { fontSize: 16, fontWeight: 'bold', color: theme.title },
        subtextStyle: { fontSize: 12, color: theme.muted },
      },
      ...(ctx.interactive ? { tooltip: { trigger: 'item', confine: true, formatter: ((p: { value: number[] }) => cellTooltip(spec, unit, p.value)) as never } } : {}),
      grid: {
        left: layout.left,
        top: layout.top,
        width: layout.plotWidth,
        height: layout.plotHeight,
        outerBoundsMode: 'none',
        show: true,
        backgroundColor: ctx.theme.background === 'transparent' ? 'rgba(128,128,128,0.12)' : '#f2f2f2',
        borderWidth: 0,
      },
      xAxis: {
        type: 'category',
        data: [...columns],
        position: layout.columnsAt,
        name: spec.x.label,
        nameLocation: 'middle',
        nameGap: layout.columnNameGap,
        nameTextStyle: { fontSize: 12, color: theme.text },
        axisLabel: { interval: 0, rotate: columns.length > 4 ? (layout.columnsAt === 'top' ? -45 : 45) : 0, fontSize: LABEL_SIZE, color: theme.text },
        axisTick: { show: false },
        axisLine: { show: false },
        splitArea: { show: false },
      },
      yAxis: {
        type: 'category',
        data: [...rows],
        inverse: true,
        name: spec.y.label,
        nameLocation: 'middle',
        nameGap: layout.rowNameGap,
        nameRotate: 90,
        nameTextStyle: { fontSize: 12, color: theme.text },
        axisLabel: { interval: 0, fontSize: LABEL_SIZE, color: theme.text },
        axisTick: { show: false },
        axisLine: { show: false },
      },
      // Colour by the value (dimension 2), not by ECharts' default, the last dimension.
      visualMap: {
        type: 'continuous',
        min,
        max: max === min ? min + 1 : max,
        dimension: 2,
        calculable: false,
        orient: 'vertical',
        ...legendAt,
        top: layout.top + 18,
        itemWidth: 16,
        itemHeight: Math.max(80, Math.min(layout.plotHeight - 60, 320)),
        text: [unit.formatWithUnit(max), unit.formatWithUnit(min)],
        textGap: 8,
        textStyle: { fontSize: 11, color: theme.text },
        inRange: { color: [...SEQUENTIAL] },
      },
      graphic: [
        { type: 'text', ...betterAt, top: layout.top - 6, style: { text: better, fontSize: 11, fill: theme.muted, fontFamily: FONT_FAMILY } },
        ...(ctx.footer ? [footer(ctx)] : []),
      ],
      series: [
        [dark, '#111111'],
        [light, '#ffffff'],
      ].map(([data, color]) => ({
        type: 'heatmap' as const,
        name: spec.value.label,
        data: data as number[][],
        label: { show: layout.labels, fontSize: layout.fontSize, color: color as string, formatter: (p: { value: unknown }) => texts[(p.value as number[])[4]!]! },
        itemStyle: { borderColor: ctx.theme.background === 'transparent' ? 'rgba(0,0,0,0)' : '#ffffff', borderWidth: 1 },
        progressive: 0,
      })),
    },
  };
}

function staticLayout(spec: HeatmapChart, ctx: RenderContext): Layout {
  const rows = spec.y.categories;
  const columns = spec.x.categories;
  const cell = Math.max(30, Math.min(64, Math.floor(760 / Math.max(rows.length, columns.length, 1))));
  const rowLabelWidth = Math.max(...rows.map((r) => textWidth(r, LABEL_SIZE)), 20);
  const columnLabelHeight = Math.ceil(Math.max(...columns.map((c) => textWidth(c, LABEL_SIZE)), 20) * Math.SQRT1_2) + 14;
  const titleHeight = 78;
  const left = 16 + 22 + rowLabelWidth + 10;
  const top = titleHeight + 22 + columnLabelHeight;
  const plotWidth = cell * columns.length;
  const plotHeight = cell * rows.length;
  const legendWidth = 130;
  return {
    width: Math.max(left + plotWidth + 24 + legendWidth, textWidth(displayText(spec).title, 16) + 40),
    height: top + plotHeight + 24 + (ctx.footer ? FOOTER_HEIGHT : 0),
    left,
    top,
    plotWidth,
    plotHeight,
    rowNameGap: rowLabelWidth + 12,
    columnNameGap: columnLabelHeight + 6,
    labels: true,
    fontSize: cell >= 40 ? LABEL_SIZE : 10,
    columnsAt: 'top',
  };
}

/** The app's layout: the page's size, fixed margins (HEATMAP_GRID), labels only when every cell holds one. */
function sizedLayout(spec: HeatmapChart, ctx: RenderContext, texts: readonly string[]): Layout {
  const size = ctx.size!;
  const { left, right, top, bottom } = HEATMAP_GRID;
  return {
    width: size.width,
    height: size.height,
    left,
    top,
    plotWidth: Math.max(20, size.width - left - right),
    plotHeight: Math.max(20, size.height - top - bottom - (ctx.footer ? FOOTER_HEIGHT : 0)),
    rowNameGap: left - 24,
    columnNameGap: 90,
    labels: heatmapLabelsFit(size, spec.y.categories.length, spec.x.categories.length, texts),
    fontSize: HEATMAP_LABEL_FONT,
    columnsAt: 'bottom',
  };
}

/** Cell text as the whitepaper prints it: whole numbers from 10 up, two significant digits below. */
function cellText(value: number): string {
  return Math.abs(value) >= 10 ? formatNumber(Math.round(value)) : String(Number(value.toPrecision(2)));
}

function cellTooltip(spec: HeatmapChart, unit: AxisUnit, value: readonly number[]): string {
  const [x = 0, y = 0, v = 0, n = 0] = value;
  return `${escapeHtml(spec.y.categories[y] ?? '')} → ${escapeHtml(spec.x.categories[x] ?? '')}<br/>${unit.formatWithUnit(v)} (n=${n})`;
}

/** `subtitle` with the samples' unit (`ms`, or its symbol) replaced by the one the cells are drawn in. */
export function shownUnit(subtitle: string, unit: string, shown: string): string {
  const escaped = (u: string) => u.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const names = [...new Set([unit, unitSymbol(unit)])].filter(Boolean).map(escaped).join('|');
  return names ? subtitle.replace(new RegExp(`(?<![\\w/])(?:${names})(?![\\w/])`, 'g'), shown) : subtitle;
}
