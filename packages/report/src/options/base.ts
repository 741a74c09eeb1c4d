import type { EChartsOption } from 'echarts';
import type { ChartSpec } from '@netbench/results';
import { measureText } from '../text-metrics.js';

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

/** Width of a text in pixels at `size` px (DejaVu Sans), for layout before ECharts measures. */
export function textWidth(text: string, size = 12): number {
  return Math.ceil(measureText(text, `${size}px sans-serif`).width);
}

/**
 * Title, legend and grid shared by every chart: the title and subtitle top
 * left, the legend under them in as many rows as it needs, and a grid that
 * contains its axis labels and names (ECharts 6 outer bounds), so long
 * category names never run off the picture.
 */
export function frame(spec: ChartSpec, legend: readonly string[], width: number, extra: { bottom?: number; right?: number } = {}): { option: EChartsOption; top: number } {
  const rows = legend.length > 0 ? legendRows(legend, width) : 0;
  const top = TITLE_HEIGHT + rows * LEGEND_ROW + 12;
  const option: EChartsOption = {
    animation: false,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: FONT_FAMILY, color: '#222222' },
    title: {
      text: spec.title,
      subtext: spec.subtitle ?? '',
      left: 16,
      top: 10,
      textStyle: { fontSize: 16, fontWeight: 'bold', color: '#111111' },
      subtextStyle: { fontSize: 12, color: '#555555' },
    },
    legend: rows > 0 ? { data: [...legend], top: TITLE_HEIGHT, left: 16, right: 16, itemGap: 16, textStyle: { fontSize: 12 } } : { show: false },
    grid: { left: 16, right: extra.right ?? 28, top, bottom: extra.bottom ?? 16, outerBoundsMode: 'same', outerBoundsContain: 'all' },
  };
  return { option, top };
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

/** A value axis with its unit in the name, log when the spec says so. */
export function valueAxis(label: string, unit: string, scale: 'linear' | 'log', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: scale === 'log' ? 'log' : 'value',
    name: unit ? `${label} (${unit})` : label,
    nameLocation: 'middle',
    nameTextStyle: { fontSize: 12, color: '#333333' },
    axisLabel: { fontSize: 11, color: '#333333', hideOverlap: true },
    splitLine: { lineStyle: { color: '#e6e6e6' } },
    axisLine: { lineStyle: { color: '#888888' } },
    ...(scale === 'log' ? {} : { scale: false }),
    ...extra,
  };
}
