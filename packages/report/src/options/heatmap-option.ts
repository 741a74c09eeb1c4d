import type { HeatmapChart } from '@netbench/results';
import { formatNumber } from '../format-number.js';
import { SEQUENTIAL, sequentialColor, textColorOn } from '../palette.js';
import { FONT_FAMILY, textWidth, type Figure } from './base.js';

const LABEL_SIZE = 11;

/**
 * A square-celled matrix, sending rows top to bottom and receiving columns
 * across the top (the whitepaper's Fig. 2 layout), each cell labelled with
 * its value in a text colour chosen against the cell's own colour. The
 * canvas grows with the number of categories so 20 × 20 stays readable.
 */
export function heatmapOption(spec: HeatmapChart): Figure {
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
  const width = Math.max(left + plotWidth + 24 + legendWidth, textWidth(spec.title, 16) + 40);
  const height = top + plotHeight + 24;
  const { min, max } = spec.value;
  const span = max - min || 1;
  const fontSize = cell >= 40 ? LABEL_SIZE : 10;
  // Two series, dark and light text, rather than a label style per cell: ECharts builds a
  // model per styled data item, which made a 20 × 20 matrix several times slower to draw.
  const dark: number[][] = [];
  const light: number[][] = [];
  for (const c of spec.cells) (textColorOn(sequentialColor((c.value - min) / span)) === '#ffffff' ? light : dark).push([c.x, c.y, c.value]);
  const better = spec.value.better === 'lower' ? 'lower is better' : 'higher is better';
  return {
    width,
    height,
    option: {
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
      grid: { left, top, width: plotWidth, height: plotHeight, outerBoundsMode: 'none', show: true, backgroundColor: '#f2f2f2', borderWidth: 0 },
      xAxis: {
        type: 'category',
        data: [...columns],
        position: 'top',
        name: spec.x.label,
        nameLocation: 'middle',
        nameGap: columnLabelHeight + 6,
        nameTextStyle: { fontSize: 12, color: '#333333' },
        axisLabel: { interval: 0, rotate: columns.length > 4 ? -45 : 0, fontSize: LABEL_SIZE, color: '#333333' },
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
        nameGap: rowLabelWidth + 12,
        nameRotate: 90,
        nameTextStyle: { fontSize: 12, color: '#333333' },
        axisLabel: { interval: 0, fontSize: LABEL_SIZE, color: '#333333' },
        axisTick: { show: false },
        axisLine: { show: false },
      },
      visualMap: {
        type: 'continuous',
        min,
        max: max === min ? min + 1 : max,
        dimension: 2,
        calculable: false,
        orient: 'vertical',
        left: left + plotWidth + 28,
        top: top + 18,
        itemWidth: 16,
        itemHeight: Math.max(120, Math.min(plotHeight - 60, 320)),
        text: [`${formatNumber(max)} ${spec.value.unit}`, `${formatNumber(min)} ${spec.value.unit}`],
        textGap: 8,
        textStyle: { fontSize: 11, color: '#333333' },
        inRange: { color: [...SEQUENTIAL] },
      },
      graphic: [{
        type: 'text',
        left: left + plotWidth + 20,
        top: top - 6,
        style: { text: better, fontSize: 11, fill: '#555555', fontFamily: FONT_FAMILY },
      }],
      series: [[dark, '#111111'], [light, '#ffffff']].map(([data, color]) => ({
        type: 'heatmap' as const,
        name: spec.value.label,
        data: data as number[][],
        label: { show: true, fontSize, color: color as string, formatter: (p: { value: unknown }) => cellText((p.value as number[])[2]!) },
        itemStyle: { borderColor: '#ffffff', borderWidth: 1 },
      })),
    },
  };
}

/** Cell text as the whitepaper prints it: whole numbers from 10 up, two significant digits below. */
function cellText(value: number): string {
  return Math.abs(value) >= 10 ? formatNumber(Math.round(value)) : String(Number(value.toPrecision(2)));
}
