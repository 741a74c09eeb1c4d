import { describe, expect, it } from 'vitest';
import { histogramOf, ResultsBuilder } from './__fixtures__/results.js';
import { barCharts } from './bar-charts.js';
import { cdfCharts } from './cdf-charts.js';
import { chartsFor } from './charts-for.js';
import { heatmapCharts } from './heatmap-charts.js';
import { histogramCharts } from './histogram-charts.js';
import { sweepCharts } from './sweep-charts.js';
import { timeSeriesCharts } from './timeseries-charts.js';
import type { BarChart, HeatmapChart } from './types.js';
import { regionOfZone } from './zones.js';

const PING = { count: 20, size: 56, flood: false, interval: 0.01 };

describe('chart selection', () => {
  it('draws nothing for a run with one trial and no histogram, intervals, repetitions or matrix', () => {
    const b = new ResultsBuilder();
    b.trial('netperf', 'TCP_STREAM', { duration: 2, streams: 1 }).add('TCP_STREAM_Throughput', 9_400, 'Mbits/sec');
    expect(chartsFor([b.build()])).toEqual([]);
  });

  it('gives netperf TCP_RR its latency chart: p50/p90/p99 as measured, one run and one trial included', () => {
    const b = new ResultsBuilder();
    b.trial('netperf', 'TCP_RR', { duration: 2, streams: 1 })
      .add('TCP_RR_Latency_p50', 28, 'us')
      .add('TCP_RR_Latency_p90', 35, 'us')
      .add('TCP_RR_Latency_p99', 117, 'us')
      .add('TCP_RR_Transaction_Rate', 28_948, 'transactions_per_second');
    const charts = chartsFor([b.build()]);
    expect(charts.map((c) => c.id)).toEqual(['bar-tcp-rr-latency']);
    const chart = charts[0]! as BarChart;
    expect(chart.subtitle).toMatch(/as netperf measured them/);
    expect(chart.series.map((s) => [s.name, s.bars[0]?.mean, s.bars[0]?.n])).toEqual([
      ['p50', 28, 1],
      ['p90', 35, 1],
      ['p99', 117, 1],
    ]);
    expect(chart.y.unit).toBe('us');
    // Compared with a run that has no TCP_RR: nothing in common, no chart.
    const other = new ResultsBuilder();
    other.trial('ping', 'icmp', { count: 20 }).add('Average Latency', 0.1, 'ms');
    expect(chartsFor([b.build(), other.build()]).map((c) => c.id)).not.toContain('bar-tcp-rr-latency');
  });

  it('derives TCP_RR mean latency from the transaction rate when netperf printed no percentiles, and says so', () => {
    const b = new ResultsBuilder();
    b.trial('netperf', 'TCP_RR', { duration: 2, streams: 1, repetition: 1 }).add('TCP_RR_Transaction_Rate', 20_000, 'transactions_per_second');
    b.trial('netperf', 'TCP_RR', { duration: 2, streams: 1, repetition: 2 }).add('TCP_RR_Transaction_Rate', 25_000, 'transactions_per_second');
    const chart = chartsFor([b.build()], { kinds: ['bar'] }).find((c) => c.id === 'bar-tcp-rr-latency') as BarChart;
    expect(chart.series).toHaveLength(1);
    expect(chart.series[0]!.name).toBe('mean (1/tps, derived)');
    // 1/20,000 s = 50 µs and 1/25,000 s = 40 µs: mean 45 µs over the two repetitions.
    expect(chart.series[0]!.bars[0]).toMatchObject({ mean: 45, n: 2 });
    expect(chart.subtitle).toMatch(/derived from the transaction rate/);
    expect(chart.y.label).toBe('mean latency (derived)');
    // An interval of latency never reaches below 0.
    expect(chart.series[0]!.bars[0]!.low).toBeGreaterThanOrEqual(0);
  });

  it('maps zones to a sending × receiving heatmap, swapping for direction reverse, named by region when each is alone', () => {
    const b = new ResultsBuilder();
    const zones = { a: 'us-west1-a', b: 'europe-west1-c', c: 'asia-east1-a' };
    const rtt: Record<string, number> = { 'a>b': 130, 'b>a': 131, 'a>c': 118, 'c>a': 119, 'b>c': 251, 'c>b': 250 };
    for (const [x, y] of [
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
    ] as const) {
      for (const direction of ['forward', 'reverse']) {
        const [from, to] = direction === 'forward' ? [x, y] : [y, x];
        b.trial('ping', 'icmp', { direction, ...PING }, { zone: zones[x], extra_zone: zones[y] }, { client_zone: zones[x], server_zone: zones[y] })
          .add('Average Latency', rtt[`${from}>${to}`]!, 'ms')
          .add('Latency p99', 999, 'ms');
      }
    }
    const [heatmap, ...rest] = heatmapCharts([b.build()]);
    expect(rest).toEqual([]);
    expect(heatmap!.metric).toBe('Average Latency');
    expect(heatmap!.y).toEqual({ label: 'sending region', categories: ['asia-east1', 'europe-west1', 'us-west1'] });
    expect(heatmap!.x.categories).toEqual(['asia-east1', 'europe-west1', 'us-west1']);
    const at = (from: string, to: string) => heatmap!.cells.find((c) => heatmap!.y.categories[c.y] === from && heatmap!.x.categories[c.x] === to)?.value;
    expect(at('us-west1', 'europe-west1')).toBe(130);
    expect(at('europe-west1', 'us-west1')).toBe(131);
    expect(at('asia-east1', 'europe-west1')).toBe(250);
    expect(at('us-west1', 'us-west1')).toBeUndefined();
    expect(heatmap!.cells).toHaveLength(6);
    expect(heatmap!.value).toMatchObject({ unit: 'ms', better: 'lower', min: 118, max: 251 });
    // Two zones of one region: zones are kept apart.
    const zoned = heatmapCharts([b.build()], { heatmapAxis: 'zone' })[0]!;
    expect(zoned.y.label).toBe('sending zone');
    expect(zoned.y.categories).toContain('us-west1-a');
  });

  it('falls back to a two-axis matrix of text values when hosts carry no distinct zones', () => {
    const b = new ResultsBuilder();
    for (const from of ['x', 'y']) for (const to of ['p', 'q', 'r']) b.trial('iperf3', 'tcp', { streams: 1 }, { src: from, dst: to }).add('Throughput', 100, 'Mbits/sec');
    const heatmap = heatmapCharts([b.build()])[0] as HeatmapChart;
    expect(heatmap.y).toEqual({ label: 'src', categories: ['x', 'y'] });
    expect(heatmap.x).toEqual({ label: 'dst', categories: ['p', 'q', 'r'] });
    expect(heatmap.value.better).toBe('higher');
  });

  it('puts repetitions into bars with a bootstrap interval inside the values, and compares runs configuration by configuration', () => {
    const a = new ResultsBuilder('20261122-110256-aaaaaa', 'before');
    const values = [100, 110, 120];
    values.forEach((v, i) => a.trial('iperf3', 'tcp', { streams: 1, repetition: i + 1 }).add('Throughput', v, 'Mbits/sec'));
    const single = barCharts([a.build()]);
    expect(single).toHaveLength(1);
    const bar = single[0]!.series[0]!.bars[0]!;
    expect(bar).toMatchObject({ mean: 110, n: 3, basis: 'repetitions' });
    expect(bar.low).toBeGreaterThanOrEqual(100);
    expect(bar.high).toBeLessThanOrEqual(120);
    expect(bar.low!).toBeLessThan(bar.mean);
    expect(bar.high!).toBeGreaterThan(bar.mean);

    const b = new ResultsBuilder('20261122-120000-bbbbbb', 'after');
    [200, 190].forEach((v, i) => b.trial('iperf3', 'tcp', { streams: 1, repetition: i + 1 }).add('Throughput', v, 'Mbits/sec'));
    b.trial('iperf3', 'tcp', { streams: 8 }).add('Throughput', 900, 'Mbits/sec'); // only in one run: left out
    const [compare] = barCharts([a.build(), b.build()]) as [BarChart];
    expect(compare.title).toBe('Throughput (iperf3) by run');
    expect(compare.x.categories).toEqual(['iperf3 tcp']);
    expect(compare.series.map((s) => [s.name, s.bars[0]?.mean, s.bars[0]?.n])).toEqual([
      ['before', 110, 3],
      ['after', 195, 2],
    ]);
    expect(compare.confidence).toEqual({ level: 0.95, method: 'bootstrap-percentile' });
    expect(compare.notes.join(' ')).toMatch(/Some intervals rest on 2 values: a bootstrap of so few spans about their range/);
    expect(single[0]!.notes.join(' ')).toMatch(/rest on 3 values/);
  });

  it('uses per-stream values when a trial has no trial-level value', () => {
    const b = new ResultsBuilder();
    const t = b.trial('netperf', 'TCP_STREAM', { streams: 4, duration: 10 });
    [900, 950, 1000, 1050].forEach((v, stream) => t.add('TCP_STREAM_Throughput', v, 'Mbits/sec', { stream }));
    const bar = barCharts([b.build()])[0]!.series[0]!.bars[0]!;
    expect(bar).toMatchObject({ mean: 975, n: 4, basis: 'streams' });
  });

  it('draws a sweep over the varying numeric parameter, naming lockstep parameters instead of splitting lines', () => {
    const b = new ResultsBuilder();
    for (const size of [1, 64, 1024, 16384]) {
      for (const direction of ['forward']) {
        b.trial('netperf', 'TCP_RR', { requestSize: size, responseSize: size, duration: 1 }, { size, direction }).add('TCP_RR_Latency_p50', 30 + size / 1000, 'us');
      }
    }
    const [sweep, ...rest] = sweepCharts([b.build()]);
    expect(rest).toEqual([]);
    expect(sweep!.param).toBe('size');
    expect(sweep!.x).toEqual({ label: 'size (= requestSize, responseSize)', unit: 'bytes', scale: 'log' });
    expect(sweep!.series).toHaveLength(1);
    expect(sweep!.series[0]!.points.map((p) => p.x)).toEqual([1, 64, 1024, 16384]);
    expect(sweep!.better).toBe('lower');
  });

  it('draws per-interval time series, one line per trial, and skips one-interval trials', () => {
    const b = new ResultsBuilder();
    const t = b.trial('iperf3', 'tcp', { streams: 2, duration: 3, interval: 1 });
    [
      [0, 1.0007, 13_000],
      [1.0007, 2.0003, 13_600],
      [2.0003, 3.0008, 15_300],
    ].forEach(([start, end, v]) => t.add('Interval Throughput', v!, 'Mbits/sec', { interval_start: start!, interval_end: end!, omitted: false }));
    b.trial('iperf3', 'tcp', { streams: 4, duration: 1, interval: 1 }).add('Interval Throughput', 9, 'Mbits/sec', { interval_start: 0, interval_end: 1 });
    const [series] = timeSeriesCharts([b.build()]);
    expect(series!.series).toHaveLength(1);
    expect(series!.series[0]!.points).toEqual([
      [1.0007, 13_000],
      [2.0003, 13_600],
      [3.0008, 15_300],
    ]);
    expect(series!.series[0]!.mean).toBeCloseTo(13_966.67, 1);
    expect(series!.subtitle).toBe('one point per 1 s interval');
  });

  it('builds CDFs and shared-bin histograms from HdrHistograms, one series per direction', () => {
    const b = new ResultsBuilder();
    const forward = Array.from({ length: 200 }, (_, i) => 50 + (i % 40));
    const reverse = Array.from({ length: 100 }, (_, i) => 70 + (i % 20));
    b.trial('ping', 'icmp', { direction: 'forward', ...PING }).add('Average Latency', 0.069, 'ms', {}, histogramOf(forward));
    b.trial('ping', 'icmp', { direction: 'reverse', ...PING }).add('Average Latency', 0.079, 'ms', {}, histogramOf(reverse));
    const [cdf] = cdfCharts([b.build()]);
    expect(cdf!.series.map((s) => [s.name, s.count])).toEqual([
      ['forward', 200],
      ['reverse', 100],
    ]);
    const points = cdf!.series[0]!.points;
    expect(points[0]).toEqual([50, 0]);
    expect(points.at(-1)).toEqual([89, 100]);
    expect(points.every((p, i) => i === 0 || (p[0] >= points[i - 1]![0] && p[1] >= points[i - 1]![1]))).toBe(true);
    expect(cdf!.series[0]!.percentiles.p50).toBe(69);
    expect(cdf!.x.unit).toBe('us');
    const [histogram] = histogramCharts([b.build()]);
    expect(histogram!.edges[0]).toBe(50);
    for (const s of histogram!.series) expect(s.percents.reduce((x, y) => x + y, 0) + s.overflow).toBeCloseTo(100, 6);
    expect(histogram!.series[0]!.percents).toHaveLength(histogram!.edges.length - 1);
  });

  it('orders kinds, keeps ids unique and honours kinds and metrics options', () => {
    const b = new ResultsBuilder();
    b.trial('ping', 'icmp', { direction: 'forward', ...PING }).add('Average Latency', 0.07, 'ms', {}, histogramOf([60, 70, 80]));
    b.trial('ping', 'icmp', { direction: 'forward', ...PING }).add('Average Latency', 0.08, 'ms', {}, histogramOf([65, 75, 85]));
    const charts = chartsFor([b.build()]);
    expect(charts.map((c) => c.kind)).toEqual(['bar', 'cdf', 'histogram']);
    expect(new Set(charts.map((c) => c.id)).size).toBe(charts.length);
    expect(chartsFor([b.build()], { kinds: ['cdf'] }).map((c) => c.kind)).toEqual(['cdf']);
    expect(chartsFor([b.build()], { metrics: ['Nope'] })).toEqual([]);
    expect(JSON.parse(JSON.stringify(charts))).toEqual(charts);
  });

  it('knows GCP and AWS zone names', () => {
    expect(regionOfZone('us-west1-a')).toBe('us-west1');
    expect(regionOfZone('northamerica-northeast1-b')).toBe('northamerica-northeast1');
    expect(regionOfZone('us-east-1a')).toBe('us-east-1');
    expect(regionOfZone('local')).toBe('local');
  });
});
