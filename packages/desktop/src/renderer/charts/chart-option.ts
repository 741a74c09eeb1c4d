import type { BarChart, CdfChart, ChartSpec, HeatmapChart, HistogramChart, SweepChart, TimeSeriesChart, ValueAxis } from '@netbench/results';
import type { EChartsCoreOption } from 'echarts/core';
import { formatNumber } from '../lib/format';
import { HEATMAP_GRID, HEATMAP_LABEL_FONT, heatmapHeight, heatmapLabelsFit, type ChartSize } from './heatmap-layout';

export interface ChartTheme {
  readonly text: string;
  readonly muted: string;
  readonly grid: string;
}

// Colour-blind-safe series colours (Okabe–Ito), the same order in both themes.
export const SERIES_COLORS = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];

const axisName = (axis: { label: string; unit: string }) => (axis.unit ? `${axis.label} (${axis.unit})` : axis.label);

function valueAxis(axis: ValueAxis, theme: ChartTheme, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: axis.scale === 'log' ? 'log' : 'value', name: axisName(axis), nameLocation: 'middle', nameGap: 40,
    axisLabel: { color: theme.muted, formatter: (v: number) => formatNumber(v) }, nameTextStyle: { color: theme.text },
    splitLine: { lineStyle: { color: theme.grid } }, scale: axis.scale !== 'log', ...extra,
  };
}

function base(spec: ChartSpec, theme: ChartTheme, legend: boolean): Record<string, unknown> {
  return {
    animation: false,
    color: SERIES_COLORS,
    backgroundColor: 'transparent',
    textStyle: { color: theme.text },
    title: { text: spec.title, subtext: spec.subtitle ?? '', left: 8, textStyle: { color: theme.text, fontSize: 14 }, subtextStyle: { color: theme.muted } },
    tooltip: { trigger: 'axis', confine: true, valueFormatter: (v: number) => formatNumber(v) },
    legend: legend ? { type: 'scroll', top: 44, left: 8, right: 8, textStyle: { color: theme.text } } : { show: false },
    grid: { left: 64, right: 24, top: legend ? 84 : 64, bottom: 56, containLabel: false },
  };
}

/** Whiskers (confidence intervals) drawn as a custom series over bars or points. */
function whiskers(data: (readonly [number | string, number, number])[], color: string, xIndexOf: (x: number | string) => number | string): Record<string, unknown> {
  return {
    type: 'custom', silent: true, z: 10,
    data: data.map(([x, low, high]) => [xIndexOf(x), low, high]),
    renderItem: (_params: unknown, api: { value(i: number): number; coord(p: unknown[]): number[]; size(p: unknown[]): number[] }) => {
      const low = api.coord([api.value(0), api.value(1)]);
      const high = api.coord([api.value(0), api.value(2)]);
      const cap = 5;
      const style = { stroke: color, lineWidth: 1.5 };
      return {
        type: 'group',
        children: [
          { type: 'line', shape: { x1: low[0], y1: low[1], x2: high[0], y2: high[1] }, style },
          { type: 'line', shape: { x1: low[0]! - cap, y1: low[1], x2: low[0]! + cap, y2: low[1] }, style },
          { type: 'line', shape: { x1: high[0]! - cap, y1: high[1], x2: high[0]! + cap, y2: high[1] }, style },
        ],
      };
    },
  };
}

function heatmap(spec: HeatmapChart, theme: ChartTheme, size: ChartSize | undefined): Record<string, unknown> {
  // Good is green whichever way the metric is better.
  const colors = spec.value.better === 'lower' ? ['#1a9850', '#fee08b', '#d73027'] : ['#d73027', '#fee08b', '#1a9850'];
  const labels = spec.cells.map((c) => formatNumber(c.value));
  const rows = spec.y.categories.length;
  const fit = heatmapLabelsFit(size ?? { width: 900, height: heatmapHeight(rows) }, rows, spec.x.categories.length, labels);
  return {
    ...base(spec, theme, false),
    tooltip: { trigger: 'item', confine: true, formatter: (p: { value: [number, number, number, number] }) =>
      `${spec.y.categories[p.value[1]]} → ${spec.x.categories[p.value[0]]}<br/>${formatNumber(p.value[2])} ${spec.value.unit} (n=${p.value[3]})` },
    grid: { ...HEATMAP_GRID },
    xAxis: { type: 'category', data: spec.x.categories, name: spec.x.label, nameLocation: 'middle', nameGap: 90, axisLabel: { rotate: 45, color: theme.muted }, nameTextStyle: { color: theme.text } },
    yAxis: { type: 'category', data: spec.y.categories, name: spec.y.label, inverse: true, axisLabel: { color: theme.muted }, nameTextStyle: { color: theme.text } },
    // Colour by the value (dimension 2): by default ECharts takes the last dimension, the cell's n.
    visualMap: { dimension: 2, min: spec.value.min, max: spec.value.max === spec.value.min ? spec.value.min + 1 : spec.value.max, calculable: true, orient: 'vertical', right: 8, top: 'middle', inRange: { color: colors }, textStyle: { color: theme.text }, formatter: (v: number) => formatNumber(v) },
    series: [{
      type: 'heatmap', data: spec.cells.map((c) => [c.x, c.y, c.value, c.n]),
      label: { show: fit, formatter: (p: { dataIndex: number }) => labels[p.dataIndex]!, fontSize: HEATMAP_LABEL_FONT },
      progressive: 0,
    }],
  };
}

function bar(spec: BarChart, theme: ChartTheme): Record<string, unknown> {
  const series: Record<string, unknown>[] = [];
  const n = spec.series.length;
  spec.series.forEach((s, i) => {
    series.push({ type: 'bar', name: s.name, data: s.bars.map((b) => b?.mean ?? null), barMaxWidth: 48 });
    const whisk = s.bars.flatMap((b, x) => (b && b.low !== undefined && b.high !== undefined ? [[x, b.low, b.high] as const] : []));
    if (whisk.length > 0) {
      // Offsets the whisker to its bar within the category group.
      const w = whiskers(whisk, theme.text, (x) => x);
      series.push({ ...w, name: `${s.name} CI`, encode: { x: 0, y: [1, 2] }, renderItem: offsetRender(w['renderItem'] as never, i, n) });
    }
  });
  return {
    ...base(spec, theme, n > 1),
    xAxis: { type: 'category', data: spec.x.categories, axisLabel: { interval: 0, rotate: spec.x.categories.length > 6 ? 30 : 0, color: theme.muted, width: 140, overflow: 'truncate' } },
    yAxis: valueAxis(spec.y, theme, { scale: false }),
    grid: { left: 64, right: 24, top: n > 1 ? 84 : 64, bottom: spec.x.categories.length > 6 ? 110 : 56 },
    series,
  };
}

function offsetRender(render: (p: unknown, api: never) => unknown, index: number, count: number) {
  return (params: unknown, api: { value(i: number): number; coord(p: unknown[]): number[]; size(p: unknown[]): number[] }) => {
    const band = api.size([1, 0])[0]! * 0.8;
    const shift = count > 1 ? (index - (count - 1) / 2) * (band / count) : 0;
    const shifted = { ...api, coord: (p: unknown[]) => { const c = api.coord(p); return [c[0]! + shift, c[1]!]; }, value: api.value, size: api.size };
    return render(params, shifted as never);
  };
}

function cdf(spec: CdfChart, theme: ChartTheme): Record<string, unknown> {
  return {
    ...base(spec, theme, spec.series.length > 1),
    xAxis: valueAxis(spec.x, theme),
    yAxis: { ...valueAxis(spec.y, theme), min: 0, max: 100, scale: false },
    series: spec.series.map((s) => ({ type: 'line', name: s.name, data: s.points, showSymbol: false, step: false })),
  };
}

function histogram(spec: HistogramChart, theme: ChartTheme): Record<string, unknown> {
  const labels = spec.edges.slice(0, -1).map((e, i) => `${formatNumber(e)}–${formatNumber(spec.edges[i + 1]!)}`);
  return {
    ...base(spec, theme, spec.series.length > 1),
    xAxis: { type: 'category', data: labels, name: axisName(spec.x), nameLocation: 'middle', nameGap: 40, axisLabel: { color: theme.muted } },
    yAxis: valueAxis(spec.y, theme, { scale: false }),
    series: spec.series.map((s) => ({ type: 'bar', name: s.name, data: s.percents, barGap: 0 })),
  };
}

/** More points than this in a time series: a zoom slider, no symbols or mean lines, and points handed over flat. */
const BIG_SERIES_POINTS = 5_000;

/**
 * `[x, y]` points as one flat Float64Array (x0, y0, x1, y1, …), which ECharts
 * reads as a typed-array source: it takes 100,000 points in ~0.08 s instead
 * of ~0.3 s (no array per point to clone, check and copy). The same points,
 * sampled and drawn the same way: the canvas is identical pixel for pixel.
 */
function flatPoints(points: readonly (readonly [number, number])[]): Float64Array {
  const flat = new Float64Array(points.length * 2);
  for (let i = 0; i < points.length; i++) {
    const [x, y] = points[i]!;
    flat[2 * i] = x;
    flat[2 * i + 1] = y;
  }
  return flat;
}

function timeseries(spec: TimeSeriesChart, theme: ChartTheme): Record<string, unknown> {
  const big = spec.series.reduce((n, s) => n + s.points.length, 0) > BIG_SERIES_POINTS;
  return {
    ...base(spec, theme, spec.series.length > 1),
    xAxis: valueAxis(spec.x, theme),
    yAxis: valueAxis(spec.y, theme),
    dataZoom: big ? [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 4 }] : [{ type: 'inside' }],
    series: spec.series.map((s) => ({
      type: 'line', name: s.name, showSymbol: !big && s.points.length < 60, symbolSize: 4,
      // A typed array names its two dimensions (the ones ECharts gives per-point arrays by default).
      ...(big ? { data: flatPoints(s.points), dimensions: ['x', 'y'] } : { data: s.points }),
      // Downsampling keeps 100,000-point series interactive; the data table and export keep every point.
      sampling: 'lttb', large: big, progressive: 0,
      markLine: big ? undefined : { silent: true, symbol: 'none', lineStyle: { type: 'dashed' }, label: { show: false }, data: [{ yAxis: s.mean }] },
    })),
  };
}

function sweep(spec: SweepChart, theme: ChartTheme): Record<string, unknown> {
  const series: Record<string, unknown>[] = [];
  spec.series.forEach((s, i) => {
    series.push({ type: 'line', name: s.name, data: s.points.map((p) => [p.x, p.mean]), symbolSize: 6 });
    const whisk = s.points.flatMap((p) => (p.low !== undefined && p.high !== undefined ? [[p.x, p.low, p.high] as const] : []));
    if (whisk.length > 0) series.push({ ...whiskers(whisk, SERIES_COLORS[i % SERIES_COLORS.length]!, (x) => x), name: `${s.name} CI` });
  });
  return { ...base(spec, theme, spec.series.length > 1), xAxis: valueAxis(spec.x, theme), yAxis: valueAxis(spec.y, theme), series };
}

/**
 * An interactive ECharts option for a chart specification from core. `size`
 * (the drawn chart's, in CSS px) decides whether heatmap cells hold labels.
 */
export function chartOption(spec: ChartSpec, theme: ChartTheme, size?: ChartSize): EChartsCoreOption {
  switch (spec.kind) {
    case 'heatmap': return heatmap(spec, theme, size);
    case 'bar': return bar(spec, theme);
    case 'cdf': return cdf(spec, theme);
    case 'histogram': return histogram(spec, theme);
    case 'timeseries': return timeseries(spec, theme);
    case 'sweep': return sweep(spec, theme);
  }
}

/** The numbers a chart shows, as table rows (header first): for the accessible data table and the tests. */
export function chartRows(spec: ChartSpec): string[][] {
  switch (spec.kind) {
    case 'heatmap': return [[spec.y.label, spec.x.label, `${spec.value.label} (${spec.value.unit})`, 'n'], ...spec.cells.map((c) => [spec.y.categories[c.y]!, spec.x.categories[c.x]!, String(c.value), String(c.n)])];
    case 'bar': return [['series', spec.x.label, `mean (${spec.y.unit})`, 'low', 'high', 'n'], ...spec.series.flatMap((s) => s.bars.flatMap((b, i) => (b ? [[s.name, spec.x.categories[i]!, String(b.mean), String(b.low ?? ''), String(b.high ?? ''), String(b.n)]] : [])))];
    case 'cdf': return [['series', 'p50', 'p90', 'p99', 'p99.9', 'max', 'count'], ...spec.series.map((s) => [s.name, ...[s.percentiles.p50, s.percentiles.p90, s.percentiles.p99, s.percentiles.p999, s.percentiles.max].map(String), String(s.count)])];
    case 'histogram': return [['series', 'bin from', 'bin to', '%'], ...spec.series.flatMap((s) => s.percents.map((p, i) => [s.name, String(spec.edges[i]), String(spec.edges[i + 1]), String(p)]))];
    case 'timeseries': return [['series', `${spec.x.label} (${spec.x.unit})`, `${spec.y.label} (${spec.y.unit})`], ...spec.series.flatMap((s) => s.points.map((p) => [s.name, String(p[0]), String(p[1])]))];
    case 'sweep': return [['series', spec.param, 'mean', 'low', 'high', 'n'], ...spec.series.flatMap((s) => s.points.map((p) => [s.name, String(p.x), String(p.mean), String(p.low ?? ''), String(p.high ?? ''), String(p.n)]))];
  }
}
