import type { HeatmapChart, TimeSeriesChart } from '@netbench/results';
import type { EChartsCoreOption } from 'echarts/core';
import { describe, expect, it } from 'vitest';
import { chartOption, chartRows } from './chart-option';
import { echarts } from './echarts';
import { heatmapHeight, heatmapLabelsFit } from './heatmap-layout';

const THEME = { text: '#1d232b', muted: '#56606c', grid: '#e3e6ea' };

/** A 100,000-interval iperf3 series (as the desktop bench stores), with a one-interval spike every 5,000. */
function bigSeries(n = 100_000): TimeSeriesChart {
  const points = Array.from({ length: n }, (_, i) => [(i + 1) * 0.1, 9000 + 500 * Math.sin(i / 500) + (i % 97) + (i % 5000 === 0 ? 3000 : 0)] as const);
  return {
    kind: 'timeseries', id: 'timeseries-interval-throughput', title: 'Interval Throughput over time', subtitle: 'Mbits/sec per 0.1 s interval',
    notes: [], runIds: ['r'], metric: 'Interval Throughput',
    x: { label: 'time since start', unit: 's', scale: 'linear' }, y: { label: 'Interval Throughput', unit: 'Mbits/sec', scale: 'linear' },
    series: [{ name: 'iperf3 tcp', runId: 'r', points, mean: points.reduce((s, p) => s + p[1], 0) / n }],
  };
}

type SeriesOption = { data: unknown };

/** The chart as SVG (ECharts' server-side renderer), optionally zoomed to a window of x in percent. */
function svg(option: EChartsCoreOption, zoom?: readonly [number, number]): string {
  const chart = echarts.init(null as unknown as HTMLElement, undefined, { renderer: 'svg', ssr: true, width: 1150, height: 340 });
  try {
    chart.setOption(option);
    if (zoom) chart.dispatchAction({ type: 'dataZoom', start: zoom[0], end: zoom[1] });
    // Class names and clip-path ids carry the instance's number (zr3-cls-7, zr3-c0): number them by first use.
    const names = new Map<string, number>();
    return chart.renderToSVGString().replace(/zr\d+-(cls-)?\d+|zr\d+-c\d+/g, (name) => {
      if (!names.has(name)) names.set(name, names.size);
      return `id-${names.get(name)!}`;
    });
  } finally {
    chart.dispose();
  }
}

describe('time series options', () => {
  it('hands a big series to ECharts as one flat Float64Array of the same points', () => {
    const spec = bigSeries();
    const data = (chartOption(spec, THEME) as { series: SeriesOption[] }).series[0]!.data;
    expect(data).toBeInstanceOf(Float64Array);
    const flat = data as Float64Array;
    expect(flat.length).toBe(200_000);
    const points = spec.series[0]!.points;
    for (const i of [0, 1, 4_999, 5_000, 77_777, 99_999]) expect([flat[2 * i], flat[2 * i + 1]]).toEqual(points[i]);
    // The data table still lists every point.
    expect(chartRows(spec)).toHaveLength(100_001);
  });

  it('draws exactly what the per-point arrays drew: whole, and zoomed in', () => {
    const spec = bigSeries();
    const flat = chartOption(spec, THEME) as { series: SeriesOption[] };
    const arrays = { ...flat, series: flat.series.map((s, i) => ({ ...s, data: spec.series[i]!.points })) };
    const whole = svg(flat);
    expect(whole).toBe(svg(arrays));
    // Sampled to the plot's width (LTTB) and with the zoom slider's preview: a real line, not a blank chart.
    expect(whole).toContain(spec.title);
    expect((whole.match(/<path /g) ?? []).length).toBeGreaterThan(10);
    expect(svg(flat, [40, 45])).toBe(svg(arrays, [40, 45]));
    expect(svg(flat, [40, 45])).not.toBe(whole);
  });

  it('keeps small series as point arrays, with symbols and the mean line', () => {
    const spec = bigSeries(40);
    const series = (chartOption(spec, THEME) as { series: (SeriesOption & { showSymbol: boolean; markLine?: unknown })[] }).series[0]!;
    expect(series.data).toBe(spec.series[0]!.points);
    expect(series.showSymbol).toBe(true);
    expect(series.markLine).toBeDefined();
  });
});

/** The desktop bench's zone matrix: `size` zones, latency growing with the distance between them. */
function zoneMatrix(size: number): HeatmapChart {
  const zones = Array.from({ length: size }, (_, i) => `zone-${String(i + 1).padStart(2, '0')}`);
  const cells = zones.flatMap((_, y) => zones.map((__, x) => ({ x, y, value: 100 + Math.abs(x - y) * 1000, n: 1 })));
  return {
    kind: 'heatmap', id: 'heatmap-average-latency', title: 'Average Latency (ping)', notes: [], runIds: ['r'], metric: 'Average Latency',
    x: { label: 'receiving region', categories: zones }, y: { label: 'sending region', categories: zones },
    value: { label: 'Average Latency', unit: 'us', better: 'lower', min: 100, max: 100 + (size - 1) * 1000 }, cells,
  };
}

function heatmapSvg(spec: HeatmapChart, width: number, height: number): string {
  const chart = echarts.init(null as unknown as HTMLElement, undefined, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(chartOption(spec, THEME, { width, height }));
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

describe('heatmap cell labels', () => {
  it('are drawn only when a cell holds its text', () => {
    const labels = ['100', '19,100'];
    // 20 rows in the old 340 px chart: 8.3 px rows.
    expect(heatmapLabelsFit({ width: 1230, height: 340 }, 20, 20, labels)).toBe(false);
    // Tall enough (22 px rows) and a full-width chart at 1280 px (50 px columns): "19,100" fits.
    expect(heatmapLabelsFit({ width: 1230, height: heatmapHeight(20) }, 20, 20, labels)).toBe(true);
    // The same in half the width (18 px columns): no.
    expect(heatmapLabelsFit({ width: 600, height: heatmapHeight(20) }, 20, 20, labels)).toBe(false);
    // The longest label decides: 6 characters need 40 px, 5 need 34.
    const plot = (column: number) => 140 + 90 + 20 * column;
    expect(heatmapLabelsFit({ width: plot(40), height: 1000 }, 20, 20, labels)).toBe(true);
    expect(heatmapLabelsFit({ width: plot(39.9), height: 1000 }, 20, 20, labels)).toBe(false);
    expect(heatmapLabelsFit({ width: plot(34), height: 1000 }, 20, 20, ['9,100'])).toBe(true);
    // Rows need 14 px.
    expect(heatmapLabelsFit({ width: 2000, height: 64 + 110 + 20 * 14 }, 20, 20, labels)).toBe(true);
    expect(heatmapLabelsFit({ width: 2000, height: 64 + 110 + 20 * 13.9 }, 20, 20, labels)).toBe(false);
    expect(heatmapLabelsFit({ width: 2000, height: 2000 }, 0, 0, [])).toBe(false);
  });

  it('gives many rows room: 340 px for a few, ~22 px a row for more, at most 900 px', () => {
    expect([4, 8, 20, 60].map(heatmapHeight)).toEqual([340, 350, 614, 900]);
  });

  it('draws the labels in a chart big enough and none in a small one; the tooltip keeps the value', () => {
    const spec = zoneMatrix(20);
    const big = heatmapSvg(spec, 1230, heatmapHeight(20));
    const small = heatmapSvg(spec, 600, 340);
    expect((big.match(/>19,100</g) ?? []).length).toBe(3); // two cells and the colour scale's maximum
    expect((small.match(/>19,100</g) ?? []).length).toBe(1);
    expect((small.match(/>1,100</g) ?? []).length).toBe(0);
    const tooltip = (chartOption(spec, THEME, { width: 600, height: 340 }) as { tooltip: { formatter(p: unknown): string } }).tooltip;
    expect(tooltip.formatter({ value: [19, 0, 19_100, 1] })).toBe('zone-01 → zone-20<br/>19,100 us (n=1)');
  });

  it('colours the cells by their value, not by n', () => {
    const fills = [...heatmapSvg(zoneMatrix(4), 600, 340).matchAll(/fill="([^"]+)" ecmeta_series_index="0" ecmeta_data_index="(\d+)"/g)]
      .map((m) => [Number(m[2]), m[1]] as const).sort((a, b) => a[0] - b[0]).map(([, fill]) => fill);
    expect(fills).toHaveLength(16);
    // Row zone-01: 100 (the best, green) … 3,100 (the worst, red), every value its own colour.
    expect(fills.slice(0, 4)).toEqual(['rgb(26,152,80)', expect.any(String), expect.any(String), 'rgb(215,48,39)']);
    expect(new Set(fills).size).toBe(4);
  });
});
