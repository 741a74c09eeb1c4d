import type { BoxChart, CdfChart, HeatmapChart, TimeSeriesChart } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { renderContext } from '../render-options.js';
import { renderSvg } from '../render-svg.js';
import { MIN_PLOT_HEIGHT } from './base.js';
import { BOX_ROW, boxOption } from './box-option.js';
import { cdfOption } from './cdf-option.js';
import { heatmapOption, shownUnit } from './heatmap-option.js';
import { niceCeil, robustAxisMax } from './robust-axis.js';
import { seriesGaps, withBreaks } from './series-gaps.js';
import { flatPoints, timeSeriesOption, timeTooltip } from './timeseries-option.js';

type Line = { name: string; data: unknown[]; markArea?: { data: { xAxis: number }[][] }; markPoint?: { data: { coord: number[]; value: number }[] } };
type Opt = {
  series: Line[];
  yAxis: { max?: number }[];
  xAxis: { min: number; max: number };
  legend: { data: string[]; type?: string };
  title: { subtext: string };
  tooltip?: { formatter: unknown; axisPointer?: unknown };
};

const every = (from: number, to: number, step: number, value: (t: number) => number) => {
  const points: [number, number][] = [];
  for (let i = 0; from + i * step <= to + 1e-9; i++) points.push([Math.round((from + i * step) * 1000) / 1000, value(from + i * step)]);
  return points;
};

/**
 * flent's "all scaled" plot of a 30 s rrul as the lab measures it: download throughput each 0.2 s,
 * ICMP RTTs of ~9 ms every 0.2 s, and a UDP probe that stalled from 3 s to 27 s (netperf UDP_RR
 * lost a packet) and came back with a 2.4 s interval.
 */
function allScaled(): TimeSeriesChart {
  const udp = [...every(0.2, 3, 0.2, () => 9.1), [27, 2400] as [number, number], ...every(27.2, 30, 0.2, () => 9.3)];
  return {
    kind: 'timeseries',
    id: 'load-all-scaled-t0001',
    title: 'Latency under load over time: rrul-deep · 100mbit tbf, 200ms queue · cubic',
    subtitle: 'load from 5 s to 25 s',
    notes: [],
    runIds: ['r'],
    metric: 'latency_under_load',
    span: [0, 30.5],
    x: { label: 'time since start', unit: 's', scale: 'linear' },
    y: { label: 'throughput', unit: 'Mbits/sec', scale: 'linear' },
    y2: { label: 'round-trip time', unit: 'ms', scale: 'linear' },
    series: [
      { name: 'download', runId: 'r', points: every(5.2, 25, 0.2, (t) => 90 + (t % 1)), mean: 90 },
      { name: 'ICMP RTT', runId: 'r', points: every(0.2, 30, 0.2, (t) => 8.5 + (t % 1)), mean: 9, axis: 2 },
      { name: 'UDP RTT', runId: 'r', points: udp, mean: 20, axis: 2 },
    ],
  };
}

describe('time series options', () => {
  it('breaks a line where a probe stalled instead of drawing it straight across the gap, and flags the stall', () => {
    const spec = allScaled();
    const option = timeSeriesOption(spec, renderContext()).option as unknown as Opt;
    const udp = option.series[2]!;
    // Every measured point, plus one null in the 3 s → 27 s gap (where ECharts breaks the line).
    expect(udp.data).toHaveLength(spec.series[2]!.points.length + 1);
    expect(udp.data.filter((p) => (p as [number, number | null])[1] === null)).toEqual([[15, null]]);
    expect(option.series[1]!.data).toHaveLength(spec.series[1]!.points.length);
    // The stall is shaded and named.
    expect(udp.markArea!.data).toEqual([[{ xAxis: 3, name: 'UDP RTT stalled', label: { show: true } }, { xAxis: 27 }]]);
    expect(option.title.subtext).toContain('UDP RTT 3–27 s');
    expect(option.series[1]!.markArea).toBeUndefined();
  });

  it('flags a probe that stopped for good before the others (no point after it), and labels probes stalled together once', () => {
    const spec = allScaled();
    const icmp = spec.series[1]!;
    // The UDP probe's last answer at 11 s (netperf UDP_RR never resumes); ICMP and a second probe both miss 11–14 s.
    const stalled: TimeSeriesChart = {
      ...spec,
      series: [
        spec.series[0]!,
        { ...icmp, points: icmp.points.filter(([t]) => t < 11 || t > 14) },
        { name: 'irtt RTT', runId: 'r', points: icmp.points.filter(([t]) => t < 11.1 || t > 14.1), mean: 9, axis: 2 },
        { name: 'UDP RTT', runId: 'r', points: icmp.points.filter(([t]) => t <= 11), mean: 9, axis: 2 },
      ],
    };
    const option = timeSeriesOption(stalled, renderContext()).option as unknown as Opt;
    expect(option.title.subtext).toMatch(/UDP RTT 11–30 s \(never resumed\)/);
    // Throughput ends with the load at 25 s: it is on the other axis, not stalled.
    expect(option.series[0]!.markArea).toBeUndefined();
    const bands = option.series.slice(1).map((s) => s.markArea!.data.map(([from]) => (from as unknown as { name: string }).name));
    // Three probes over 11–14 s: the first carries one label naming how many; the others' bands are unlabelled.
    expect(bands).toEqual([['3 series stalled'], [''], ['']]);
    expect(renderSvg(stalled)).toContain('3 series stalled');
  });

  it('leaves room for every legend row as ECharts lays them out (item 14 px + gap 16 px a row): six long names, one a row, do not cover the plot', () => {
    const spec = allScaled();
    const long = (i: number) => `${i % 2 ? 'reverse' : 'forward'} · overlay 20261207-23223${i}-cpmq2s (p50 73, p99 161 µs)`;
    const six: TimeSeriesChart = {
      ...spec,
      y2: undefined,
      series: Array.from({ length: 6 }, (_, i) => ({ name: long(i), runId: `r${i}`, points: spec.series[1]!.points, mean: 9 })),
    };
    const option = timeSeriesOption(six, renderContext({ interactive: true, size: { width: 600, height: 400 } })).option as unknown as {
      legend: { top: number };
      grid: { top: number };
    };
    expect(option.grid.top - option.legend.top).toBeGreaterThanOrEqual(6 * 30);
  });

  it('fits the RTT axis to the body of the probes: the 2.4 s outlier is clipped, marked on the top edge and named', () => {
    const option = timeSeriesOption(allScaled(), renderContext()).option as unknown as Opt;
    const rttMax = option.yAxis[1]!.max!;
    expect(rttMax).toBeGreaterThanOrEqual(9.5);
    expect(rttMax).toBeLessThanOrEqual(15);
    // The throughput axis has no outlier: the largest value sets it.
    expect(option.yAxis[0]!.max).toBeUndefined();
    expect(option.series[2]!.markPoint!.data).toEqual([expect.objectContaining({ coord: [27, rttMax], value: 2400 })]);
    expect(option.title.subtext).toContain('clipped above the axis: UDP RTT 2.4 s at 27 s');
  });

  it('draws one time axis over the trial span, and every series in the legend', () => {
    const option = timeSeriesOption(allScaled(), renderContext({ interactive: true })).option as unknown as Opt;
    expect(option.xAxis).toMatchObject({ min: 0, max: 30.5 });
    expect(option.legend.data).toEqual(['download', 'ICMP RTT', 'UDP RTT']);
    expect(option.legend.type).toBeUndefined();
  });

  it('the tooltip lists every series at the crosshair, each in its own axis unit', () => {
    const spec = allScaled();
    const option = timeSeriesOption(spec, renderContext({ interactive: true })).option as unknown as Opt;
    const format = option.tooltip!.formatter as (items: unknown[]) => string;
    // ECharts hands over only the series sharing the nearest x (the download step at 10 s); the probes are looked up too.
    const text = format([{ seriesIndex: 0, value: [10, 90], axisValue: 10.1 }]);
    expect(text.replace(/<span[^>]*><\/span>/g, '').split('<br/>')).toEqual(['10.1 s', 'download: 90 Mbit/s', 'ICMP RTT: 8.5 ms']);
    // In the UDP probe's stall (3 s to 27 s) it has no value; after it, it is back.
    expect(format([{ axisValue: 28 }])).toContain('UDP RTT: 9.3 ms');
    // Before the load the download has no value either.
    expect(format([{ axisValue: 1 }])).not.toContain('download');
    expect(
      timeTooltip(
        [{ axisValue: 1 }],
        [],
        () => {
          throw new Error('no series');
        },
        String,
      ),
    ).toBe('1');
  });

  it('the drawn SVG has no line across the gap: the stall and the clipped value are in its text', () => {
    const svg = renderSvg(allScaled());
    expect(svg).toContain('UDP RTT stalled');
    expect(svg).toContain('2.4 s');
  });

  it('helpers: gaps need more than three typical spacings; the axis is robust only with an outlier; flat points carry NaN breaks', () => {
    expect(
      seriesGaps([
        [0, 1],
        [1, 1],
        [2, 1],
        [3, 1],
        [5.5, 1],
        [6.5, 1],
        [10, 1],
      ]),
    ).toEqual([{ from: 6.5, to: 10 }]);
    expect(
      withBreaks(
        [
          [0, 1],
          [1, 1],
          [5, 1],
        ],
        [{ from: 1, to: 5 }],
      ),
    ).toEqual([
      [0, 1],
      [1, 1],
      [3, null],
      [5, 1],
    ]);
    expect(robustAxisMax(Array.from({ length: 100 }, (_, i) => 10 + (i % 5)))).toBeUndefined();
    expect(robustAxisMax([...Array.from({ length: 100 }, () => 10), 500])).toBe(12);
    expect(niceCeil(110)).toBe(120);
    expect([
      ...flatPoints([
        [1, 2],
        [2, null],
      ]),
    ]).toEqual([1, 2, 2, Number.NaN]);
  });
});

describe('legends and heights', () => {
  it('a CDF of 8 lines shows all 8 legend entries, in rows, interactive too', () => {
    const series = ['rrul-shallow', 'rrul-deep', 'tcp_nup-shallow', 'tcp_nup-deep'].flatMap((trial) =>
      ['idle', 'loaded'].map((phase) => ({
        name: `${trial} ${phase}`,
        runId: 'r',
        count: 100,
        points: [
          [1, 50],
          [2, 100],
        ] as [number, number][],
        percentiles: { p50: 1, p90: 2, p99: 2, p999: 2, max: 2 },
      })),
    );
    const spec: CdfChart = {
      kind: 'cdf',
      id: 'c',
      title: 'ICMP round-trip time, idle vs loaded',
      notes: [],
      runIds: ['r'],
      metric: 'icmp_rtt',
      x: { label: 'round-trip time', unit: 'ms', scale: 'log' },
      y: { label: 'probes ≤ x', unit: '%', scale: 'linear' },
      series,
    };
    const figure = cdfOption(spec, renderContext({ interactive: true, size: { width: 640, height: 340 } }));
    const legend = (figure.option as unknown as Opt).legend;
    expect(legend.data).toHaveLength(8);
    expect(legend.type).toBeUndefined();
    // The rows of legend push the plot down; the figure grows so the plot keeps its minimum height.
    expect(figure.height).toBeGreaterThan(340);
    expect(figure.height).toBeGreaterThanOrEqual(MIN_PLOT_HEIGHT + 58 + 3 * 24);
  });

  it('box plots with long names lie in rows of their own (never squashed under turned labels), on a log axis when medians differ by orders of magnitude', () => {
    const categories = ['rrul-shallow ICMP idle', 'rrul-shallow ICMP loaded', 'rrul-deep ICMP idle', 'rrul-deep ICMP loaded', 'tcp_nup-deep irtt idle', 'tcp_nup-deep irtt loaded'];
    const spec: BoxChart = {
      kind: 'box',
      id: 'b',
      title: 'Probe round-trip time by phase',
      notes: [],
      runIds: ['r'],
      metric: 'rtt',
      x: { label: 'trial, probe and phase', categories },
      y: { label: 'round-trip time', unit: 'ms', scale: 'linear' },
      series: [
        {
          name: 'rtt',
          runId: 'r',
          boxes: categories.map((c) =>
            c.endsWith('idle') ? { min: 0.02, q1: 0.03, median: 0.04, q3: 0.05, max: 0.09, n: 50 } : { min: 150, q1: 180, median: 190, q3: 200, max: 210, n: 50 },
          ),
        },
      ],
    };
    const figure = boxOption(spec, renderContext({ interactive: true, size: { width: 640, height: 340 } }));
    const option = figure.option as unknown as { xAxis: { type: string }; yAxis: { type: string; data: string[] }; series: { layout: string }[] };
    expect(option.yAxis).toMatchObject({ type: 'category', data: categories });
    expect(option.xAxis.type).toBe('log');
    expect(option.series[0]!.layout).toBe('horizontal');
    expect(figure.height).toBeGreaterThanOrEqual(categories.length * BOX_ROW);
  });
});

describe('heatmap subtitle', () => {
  it("names the unit the cells are drawn in (µs), not the samples' (ms)", () => {
    const spec: HeatmapChart = {
      kind: 'heatmap',
      id: 'h',
      title: 'Average latency by zone',
      subtitle: 'ping, ms; each cell the mean over repetitions and runs of one pair',
      notes: [],
      runIds: ['r'],
      metric: 'Average Latency',
      x: { label: 'receiving zone', categories: ['a', 'b'] },
      y: { label: 'sending zone', categories: ['a', 'b'] },
      value: { label: 'latency', unit: 'ms', better: 'lower', min: 0.021, max: 0.085 },
      cells: [
        { x: 0, y: 1, value: 0.021, n: 3 },
        { x: 1, y: 0, value: 0.085, n: 3 },
      ],
    };
    const option = heatmapOption(spec, renderContext()).option as unknown as { title: { subtext: string } };
    expect(option.title.subtext).toBe('ping, µs; each cell the mean over repetitions and runs of one pair');
    expect(shownUnit('TCP, Mbit/s, items', 'Mbits/sec', 'Gbit/s')).toBe('TCP, Gbit/s, items');
  });
});
