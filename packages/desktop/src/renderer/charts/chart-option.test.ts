import type { TimeSeriesChart } from '@netbench/core';
import type { EChartsCoreOption } from 'echarts/core';
import { describe, expect, it } from 'vitest';
import { chartOption, chartRows } from './chart-option';
import { echarts } from './echarts';

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
