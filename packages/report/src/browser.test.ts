import type { BarChart, CdfChart, HeatmapChart, TimeSeriesChart } from '@netbench/results';
import type { EChartsOption } from 'echarts';
import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import { barScale, chartOption, chartRows, DARK_THEME, exportFooter, LIGHT_THEME, type RenderOptions, renderContext } from './browser.js';
import { heatmapHeight, heatmapLabelsFit } from './heatmap-layout.js';

// The desktop app's options: interactive, at the page's size.
const APP: RenderOptions = { theme: DARK_THEME, interactive: true, size: { width: 1150, height: 340 } };
type EChartsCoreOption = EChartsOption;

/** A 100,000-interval iperf3 series (as the desktop bench stores), with a one-interval spike every 5,000. */
function bigSeries(n = 100_000): TimeSeriesChart {
  const points = Array.from({ length: n }, (_, i) => [(i + 1) * 0.1, 9000 + 500 * Math.sin(i / 500) + (i % 97) + (i % 5000 === 0 ? 3000 : 0)] as const);
  return {
    kind: 'timeseries',
    id: 'timeseries-interval-throughput',
    title: 'Interval Throughput over time',
    subtitle: 'Mbits/sec per 0.1 s interval',
    notes: [],
    runIds: ['r'],
    metric: 'Interval Throughput',
    x: { label: 'time since start', unit: 's', scale: 'linear' },
    y: { label: 'Interval Throughput', unit: 'Mbits/sec', scale: 'linear' },
    series: [{ name: 'iperf3 tcp', runId: 'r', points, mean: points.reduce((s, p) => s + p[1], 0) / n }],
  };
}

type SeriesOption = { data: unknown };

/** The chart as SVG (ECharts' server-side renderer), optionally zoomed to a window of x in percent. */
function svg(option: EChartsCoreOption, zoom?: readonly [number, number]): string {
  const chart = echarts.init(null, undefined, { renderer: 'svg', ssr: true, width: 1150, height: 340 });
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
    const data = (chartOption(spec, APP) as unknown as { series: SeriesOption[] }).series[0]!.data;
    expect(data).toBeInstanceOf(Float64Array);
    const flat = data as Float64Array;
    expect(flat.length).toBe(200_000);
    // Values stay in the spec's unit; the axis shows them in Gbit/s (9,000 Mbit/s is 9 Gbit/s).
    const points = spec.series[0]!.points;
    for (const i of [0, 1, 4_999, 5_000, 77_777, 99_999]) expect([flat[2 * i], flat[2 * i + 1]]).toEqual(points[i]);
    // The data table still lists every point.
    expect(chartRows(spec)).toHaveLength(100_001);
  });

  it('draws exactly what the per-point arrays drew: whole, and zoomed in', () => {
    const spec = bigSeries();
    const flat = chartOption(spec, APP) as unknown as { series: SeriesOption[] };
    const arrays = { ...flat, series: flat.series.map((s, i) => ({ ...s, data: spec.series[i]!.points })) };
    const whole = svg(flat);
    expect(whole).toBe(svg(arrays));
    // Sampled to the plot's width (LTTB) and with the zoom slider's preview: a real line, not a blank chart.
    expect(whole).toContain('Interval throughput over time');
    expect(whole).toContain('Interval throughput (Gbit/s)');
    expect((whole.match(/<path /g) ?? []).length).toBeGreaterThan(10);
    expect(svg(flat, [40, 45])).toBe(svg(arrays, [40, 45]));
    expect(svg(flat, [40, 45])).not.toBe(whole);
  });

  it('keeps small series as point arrays, with symbols and the mean line', () => {
    const spec = bigSeries(40);
    const series = (chartOption(spec, APP) as unknown as { series: (SeriesOption & { showSymbol: boolean; markLine?: unknown })[] }).series[0]!;
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
    kind: 'heatmap',
    id: 'heatmap-average-latency',
    title: 'Average Latency (ping)',
    notes: [],
    runIds: ['r'],
    metric: 'Average Latency',
    x: { label: 'receiving region', categories: zones },
    y: { label: 'sending region', categories: zones },
    value: { label: 'Average Latency', unit: 'us', better: 'lower', min: 100, max: 100 + (size - 1) * 1000 },
    cells,
  };
}

function heatmapSvg(spec: HeatmapChart, width: number, height: number): string {
  const chart = echarts.init(null, undefined, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(chartOption(spec, { ...APP, size: { width, height } }));
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
    // 100 … 19,100 µs: the whole matrix in ms, cells 0.1 … 19 (whole numbers from 10 up).
    expect((big.match(/>19</g) ?? []).length).toBe(2); // the two 19.1 ms cells
    expect(big).toContain('>19.1 ms<'); // the colour scale's maximum
    expect((small.match(/>19</g) ?? []).length).toBe(0);
    expect((small.match(/>1.1</g) ?? []).length).toBe(0);
    expect(small).toContain('>19.1 ms<');
    const tooltip = (chartOption(spec, { ...APP, size: { width: 600, height: 340 } }) as { tooltip: { formatter(p: unknown): string } }).tooltip;
    expect(tooltip.formatter({ value: [19, 0, 19_100, 1] })).toBe('zone-01 → zone-20<br/>19.1 ms (n=1)');
  });

  it('colours the cells by their value, not by n', () => {
    const option = chartOption(zoneMatrix(4), { ...APP, size: { width: 600, height: 340 } }) as { visualMap: { dimension: number; inRange: { color: string[] } } };
    expect(option.visualMap.dimension).toBe(2);
    const fills = [
      ...heatmapSvg(zoneMatrix(4), 600, 340).matchAll(/<path d="M[^"]*Z" fill="(#[0-9a-f]{6}|rgb\([^)]*\))"[^>]*ecmeta_series_index="[01]" ecmeta_data_index="(\d+)"/g),
    ].map((m) => m[1]);
    expect(fills).toHaveLength(16);
    // One palette (viridis) in the report and the app: the smallest value light yellow, the largest dark violet.
    expect(fills).toContain('rgb(253,231,37)');
    expect(fills).toContain('rgb(68,1,84)');
    // 100, 1,100, 2,100, 3,100: four values, four colours.
    expect(new Set(fills).size).toBe(4);
  });
});

function bars(means: readonly number[], unit = 'transactions_per_second', metric = 'TCP_RR_Transaction_Rate'): BarChart {
  return {
    kind: 'bar',
    id: 'bar-x',
    title: `${metric} (netperf)`,
    subtitle: `mean ± 95% confidence interval (Student's t), ${unit}`,
    notes: [],
    runIds: ['r'],
    metric,
    x: { label: 'configuration', categories: means.map((_, i) => `c${i}`) },
    y: { label: metric, unit, scale: 'linear' },
    better: 'higher',
    confidence: { level: 0.95, method: 'student-t' },
    series: [{ name: 'run', runId: 'r', bars: means.map((mean) => ({ mean, n: 3, low: mean * 0.5 - 10, high: mean * 1.1, basis: 'repetitions' as const })) }],
  };
}

type Axis = { type: string; name: string; min?: number; axisLabel: { formatter(v: number): string } };

describe('axis and unit rules', () => {
  it("starts rate and throughput axes at zero and names them in people's units, never the metric id", () => {
    const option = chartOption(bars([9_420, 14_153])) as unknown as { yAxis: Axis; title: { text: string; subtext: string } };
    expect(option.yAxis.min).toBe(0);
    expect(option.yAxis.type).toBe('value');
    expect(option.yAxis.name).toBe('TCP_RR transaction rate (tx/s)');
    expect(option.title.text).toBe('TCP_RR transaction rate (netperf)');
    expect(option.title.subtext).not.toContain('transactions_per_second');
    const svg = renderSvgString(bars([9_420, 14_153]));
    expect(svg).not.toContain('transactions_per_second');
    expect(svg).not.toContain('TCP_RR_Transaction_Rate');
    // Intervals reaching below zero are cut at the axis.
    expect(svg).not.toMatch(/>-\d/);
  });

  it('scales a latency axis by its largest value: µs, ms', () => {
    const us = chartOption(bars([25, 40], 'us', 'TCP_RR_Latency_p50')) as unknown as { yAxis: Axis };
    expect(us.yAxis.name).toBe('TCP_RR latency p50 (µs)');
    const ms = chartOption(bars([1_470, 2_480], 'us', 'TCP_RR_Latency_p99')) as unknown as { yAxis: Axis };
    expect(ms.yAxis.name).toBe('TCP_RR latency p99 (ms)');
    expect(ms.yAxis.axisLabel.formatter(2_000)).toBe('2');
    const gbit = chartOption(bars([5_698, 10_214], 'Mbits/sec', 'Throughput')) as unknown as { yAxis: Axis };
    expect(gbit.yAxis.name).toBe('Throughput (Gbit/s)');
    expect(gbit.yAxis.axisLabel.formatter(10_000)).toBe('10');
  });

  it('gives bars of very different sizes (more than 20×) a log axis, which the app can switch off', () => {
    const spread = bars([26, 2_480], 'us', 'TCP_RR_Latency');
    expect(barScale(spread, renderContext())).toBe('log');
    expect((chartOption(spread) as unknown as { yAxis: Axis }).yAxis.type).toBe('log');
    expect((chartOption(spread) as unknown as { yAxis: Axis }).yAxis.name).toContain('log scale');
    expect((chartOption(spread, { barScale: 'linear' }) as unknown as { yAxis: Axis }).yAxis.type).toBe('value');
    expect(barScale(bars([100, 1_900]), renderContext())).toBe('linear');
    // The threshold docs/reports.md and docs/desktop.md state: more than 20×, and only when no bar is ≤ 0.
    expect(barScale(bars([100, 2_000]), renderContext())).toBe('linear');
    expect(barScale(bars([100, 2_001]), renderContext())).toBe('log');
    expect(barScale(bars([-1, 100, 2_480]), renderContext())).toBe('linear');
    // Both bars drawn on the log axis, standing on the bottom of the plot.
    const svg = renderSvgString(spread);
    // In the axis's unit (ms, by the largest bar).
    expect(svg).toContain('>0.026<');
    expect(svg).toContain('>2.48<');
  });
});

function cdf(): CdfChart {
  const points: [number, number][] = [
    [20, 0],
    [25, 50],
    [30, 90],
    [60, 99],
    [400, 99.9],
    [2_500, 100],
  ];
  return {
    kind: 'cdf',
    id: 'cdf-x',
    title: 'Latency CDF (ping)',
    subtitle: '1,000 measurements in 1 series',
    notes: [],
    runIds: ['r'],
    metric: 'Average Latency',
    x: { label: 'latency', unit: 'us', scale: 'log' },
    y: { label: 'measurements ≤ latency', unit: '%', scale: 'linear' },
    series: [{ name: 'forward', runId: 'r', count: 1000, points, percentiles: { p50: 25, p90: 30, p99: 60, p999: 400, max: 2_500 } }],
  };
}

describe('CDF views', () => {
  it('draws the CDF with p50/p90/p99 guides, and the log tail (1 − CDF) with p99.9 too', () => {
    type Cdf = { yAxis: Axis & { max: number }; series: { data: number[][]; markLine: { data: { yAxis: number; label: { formatter: string } }[] } }[] };
    const plain = chartOption(cdf()) as unknown as Cdf;
    expect(plain.yAxis.max).toBe(100);
    expect(plain.series[0]!.markLine.data.map((g) => [g.yAxis, g.label.formatter])).toEqual([
      [50, 'p50'],
      [90, 'p90'],
      [99, 'p99'],
    ]);
    const tail = chartOption(cdf(), { cdfView: 'tail' }) as unknown as Cdf;
    expect(tail.yAxis.type).toBe('log');
    expect(tail.yAxis.name).toContain('measurements > latency');
    expect(tail.series[0]!.markLine.data.map((g) => [g.yAxis, g.label.formatter])).toEqual([
      [50, 'p50'],
      [10, 'p90'],
      [1, 'p99'],
      [0.1, 'p99.9'],
    ]);
    // 1 − CDF of each point; the last (0 %) cannot sit on a log axis.
    expect(tail.series[0]!.data).toEqual([
      [20, 100],
      [25, 50],
      [30, 10],
      [60, 1],
      [400, 0.1],
    ]);
    // The smallest tail one of 1,000 measurements can show: 0.1 %.
    expect(tail.yAxis.min).toBe(0.1);
  });
});

describe('exports carry run id and date', () => {
  it('draws the footer line into the picture', () => {
    const footer = exportFooter([{ runId: '20261125-014403-w26661', startedAt: '2026-11-25T01:44:03.000Z' }]);
    expect(footer).toBe('run 20261125-014403-w26661 · 2026-11-25 01:44 UTC · netbench');
    for (const spec of [bars([1, 2]), cdf(), bigSeries(30), zoneMatrix(3)]) {
      expect(renderSvgString(spec, { footer })).toContain('run 20261125-014403-w26661 · 2026-11-25 01:44 UTC');
      expect(renderSvgString(spec)).not.toContain('20261125-014403-w26661');
    }
    expect(exportFooter([{ runId: 'a' }, { runId: 'b' }])).toBe('runs a, b · netbench');
  });

  it("uses the light theme unless told otherwise, and the app's colours when asked", () => {
    expect((chartOption(cdf()) as { backgroundColor: string }).backgroundColor).toBe(LIGHT_THEME.background);
    expect((chartOption(cdf(), { theme: DARK_THEME }) as { backgroundColor: string }).backgroundColor).toBe(DARK_THEME.background);
  });
});

function renderSvgString(spec: Parameters<typeof chartOption>[0], options: RenderOptions = {}): string {
  const chart = echarts.init(null, undefined, { renderer: 'svg', ssr: true, width: 900, height: 500 });
  try {
    chart.setOption(chartOption(spec, { ...options, size: { width: 900, height: 500 } }));
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

describe('data table rows', () => {
  it('name units as people read them', () => {
    expect(chartRows(bars([1, 2]))[0]).toEqual(['series', 'configuration', 'mean (tx/s)', 'low', 'high', 'n']);
    expect(chartRows(cdf())[0]).toEqual(['series', 'p50 (µs)', 'p90 (µs)', 'p99 (µs)', 'p99.9 (µs)', 'max (µs)', 'count']);
    // Two axes (a load test's throughput and RTT): each value in the column of its own axis and unit.
    const twoAxes: TimeSeriesChart = {
      kind: 'timeseries',
      id: 'load-all-scaled-t1',
      title: 't',
      notes: [],
      runIds: ['r'],
      metric: 'latency_under_load',
      x: { label: 'time since start', unit: 's', scale: 'linear' },
      y: { label: 'throughput', unit: 'Mbits/sec', scale: 'linear' },
      y2: { label: 'round-trip time', unit: 'ms', scale: 'linear' },
      series: [
        { name: 'upload', runId: 'r', points: [[1, 94]], mean: 94 },
        { name: 'ICMP RTT', runId: 'r', points: [[1, 20]], mean: 20, axis: 2 },
      ],
    };
    expect(chartRows(twoAxes)).toEqual([
      ['series', 'time since start (s)', 'throughput (Mbit/s)', 'round-trip time (ms)'],
      ['upload', '1', '94', ''],
      ['ICMP RTT', '1', '', '20'],
    ]);
  });

  it('formatted for people: each column in the unit its values fill, three significant digits, thousands grouped', () => {
    const spec: TimeSeriesChart = {
      kind: 'timeseries',
      id: 'load-all-scaled-t1',
      title: 't',
      notes: [],
      runIds: ['r'],
      metric: 'latency_under_load',
      x: { label: 'time since start', unit: 's', scale: 'linear' },
      y: { label: 'throughput', unit: 'Mbits/sec', scale: 'linear' },
      y2: { label: 'round-trip time', unit: 'ms', scale: 'linear' },
      series: [
        { name: 'upload', runId: 'r', points: [[1.2345, 1234.5678]], mean: 1 },
        {
          name: 'ICMP RTT',
          runId: 'r',
          points: [
            [1.4, 0.034567],
            [1.6, 0.9],
          ],
          mean: 1,
          axis: 2,
        },
      ],
    };
    expect(chartRows(spec, { formatted: true })).toEqual([
      ['series', 'time since start (s)', 'throughput (Gbit/s)', 'round-trip time (µs)'],
      ['upload', '1.23', '1.23', ''],
      ['ICMP RTT', '1.4', '', '34.6'],
      ['ICMP RTT', '1.6', '', '900'],
    ]);
    expect(chartRows(bars([1, 2]), { formatted: true })[0]).toEqual(['series', 'configuration', 'mean (tx/s)', 'low (tx/s)', 'high (tx/s)', 'n']);
  });
});
