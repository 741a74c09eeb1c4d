import { describe, expect, it } from 'vitest';
import { ResultsBuilder } from './__fixtures__/results.js';
import { barCharts } from './bar-charts.js';
import { chartsFor } from './charts-for.js';
import { meanInterval } from './confidence-interval.js';
import { heatmapCharts } from './heatmap-charts.js';
import { rrLatencyCharts } from './rr-latency-charts.js';
import type { Bar, BarChart, HeatmapChart } from './types.js';

const pair = (client: string, server: string) => ({ client_host: client, server_host: server });

/** The three-host lab run: TCP_RR between a→b, a→c, b→c, p99 117, 63 and 50 µs. */
function threePairs(repetitions = 1) {
  const b = new ResultsBuilder('20261125-040000-aaaaaa', 'three-pairs');
  const p99 = { a_b: 117, a_c: 63, b_c: 50 } as const;
  for (let r = 0; r < repetitions; r++) {
    for (const [key, value] of Object.entries(p99)) {
      const [client, server] = key.split('_') as [string, string];
      b.trial('netperf', 'TCP_RR', { duration: 1, ...(repetitions > 1 ? { repetition: r + 1 } : {}) }, {}, pair(client, server))
        .add('TCP_RR_Latency_p50', value / 4 + r, 'us')
        .add('TCP_RR_Latency_p90', value / 2 + r, 'us')
        .add('TCP_RR_Latency_p99', value + r, 'us');
    }
  }
  return b.build();
}

const allBars = (charts: readonly BarChart[]) => charts.flatMap((c) => c.series.flatMap((s) => s.bars.filter((b): b is Bar => b !== null)));

describe('never pool unlike things', () => {
  it('gives samples of three different pairs three bars, never one pooled mean and interval', () => {
    const run = threePairs();
    const bars = barCharts([run], { metrics: ['TCP_RR_Latency_p99'] });
    expect(bars).toHaveLength(1);
    expect(bars[0]!.x.categories).toEqual(['a → b', 'a → c', 'b → c']);
    expect(bars[0]!.series[0]!.bars.map((b) => b?.mean)).toEqual([117, 63, 50]);
    // One value per pair: no interval, and it says why.
    for (const bar of allBars(bars)) {
      expect(bar.n).toBe(1);
      expect(bar.low).toBeUndefined();
      expect(bar.noInterval).toMatch(/one value/);
    }
    // No chart of the run has a bar that mixes pairs (the pooled 77 µs mean).
    const pooledMean = (117 + 63 + 50) / 3;
    for (const chart of chartsFor([run]).filter((c): c is BarChart => c.kind === 'bar')) {
      for (const bar of allBars([chart])) {
        expect(bar.n).toBe(1);
        expect(bar.mean).not.toBeCloseTo(pooledMean, 3);
      }
    }
  });

  it('orders bars by configuration, not by which trial a random order ran first', () => {
    const b = new ResultsBuilder();
    for (const [size, rep] of [
      [1024, 1],
      [64, 1],
      [1024, 2],
      [64, 2],
    ] as const) {
      b.trial('netperf', 'TCP_RR', { requestSize: size, repetition: rep }, {}, pair('b', 'c')).add('TCP_RR_Latency_p99', size / 10, 'us');
      b.trial('netperf', 'TCP_RR', { requestSize: size, repetition: rep }, {}, pair('a', 'b')).add('TCP_RR_Latency_p99', size / 20, 'us');
    }
    const [chart] = barCharts([b.build()], { metrics: ['TCP_RR_Latency_p99'] });
    expect(chart!.x.categories).toEqual(['a → b · requestSize=64', 'a → b · requestSize=1024', 'b → c · requestSize=64', 'b → c · requestSize=1024']);
    expect(chart!.series[0]!.bars.map((bar) => bar?.mean)).toEqual([3.2, 51.2, 6.4, 102.4]);
  });

  it('draws per-pair netperf latency bars (p50/p90/p99 per pair)', () => {
    const [chart] = rrLatencyCharts([threePairs()]);
    expect(chart!.x.categories).toEqual(['a → b', 'a → c', 'b → c']);
    expect(chart!.series.map((s) => s.name)).toEqual(['p50', 'p90', 'p99']);
    expect(chart!.series[2]!.bars.map((b) => b?.mean)).toEqual([117, 63, 50]);
  });

  it('pools repetitions of the same pair only, with intervals inside the domain', () => {
    const bars = barCharts([threePairs(3)], { metrics: ['TCP_RR_Latency_p99'] });
    const [ab, ac, bc] = bars[0]!.series[0]!.bars as Bar[];
    expect([ab!.n, ac!.n, bc!.n]).toEqual([3, 3, 3]);
    expect(ab!.mean).toBeCloseTo(118, 10); // 117, 118, 119
    expect(ac!.mean).toBeCloseTo(64, 10);
    for (const bar of [ab!, ac!, bc!]) expect(bar.low).toBeGreaterThanOrEqual(0);
  });

  it('draws a client × server heatmap for a matrix of pairs', () => {
    const [heatmap] = heatmapCharts([threePairs()]) as [HeatmapChart];
    expect(heatmap.metric).toBe('TCP_RR_Latency_p50');
    expect(heatmap.y).toEqual({ label: 'sending host', categories: ['a', 'b'] });
    expect(heatmap.x).toEqual({ label: 'receiving host', categories: ['b', 'c'] });
    expect(heatmap.cells).toEqual([
      { x: 0, y: 0, value: 117 / 4, n: 1 },
      { x: 1, y: 0, value: 63 / 4, n: 1 },
      { x: 1, y: 1, value: 50 / 4, n: 1 },
    ]);
  });

  it('draws no host heatmap for one pair measured both ways', () => {
    const b = new ResultsBuilder();
    b.trial('ping', 'icmp', { direction: 'forward' }, {}, pair('a', 'b')).add('Average Latency', 1, 'ms', { direction: 'forward' });
    b.trial('ping', 'icmp', { direction: 'reverse' }, {}, pair('a', 'b')).add('Average Latency', 1.1, 'ms', { direction: 'reverse' });
    expect(heatmapCharts([b.build()])).toEqual([]);
  });

  it('keeps two pairs that share a zone pair out of one heatmap cell', () => {
    const b = new ResultsBuilder();
    const zones = (client: string, server: string, cz: string, sz: string) => ({ ...pair(client, server), client_zone: cz, server_zone: sz });
    b.trial('ping', 'icmp', {}, {}, zones('a', 'c', 'z1', 'z2')).add('Average Latency', 1, 'ms');
    b.trial('ping', 'icmp', {}, {}, zones('b', 'c', 'z1', 'z2')).add('Average Latency', 3, 'ms');
    b.trial('ping', 'icmp', {}, {}, zones('a', 'b', 'z1', 'z1')).add('Average Latency', 0.1, 'ms');
    const [heatmap] = heatmapCharts([b.build()]) as [HeatmapChart];
    // Zones would put a→c and b→c in one z1→z2 cell (mean 2 ms): the heatmap is by host instead.
    expect(heatmap.y.label).toBe('sending host');
    expect(heatmap.cells.map((c) => c.value).sort()).toEqual([0.1, 1, 3]);
    expect(heatmap.cells.every((c) => c.n === 1)).toBe(true);
  });

  it('gives trials that differ in a parameter a heatmap each', () => {
    const b = new ResultsBuilder();
    for (const size of [1, 1024]) {
      b.trial('netperf', 'TCP_RR', { requestSize: size }, {}, pair('a', 'b')).add('TCP_RR_Latency_p50', size === 1 ? 20 : 40, 'us');
      b.trial('netperf', 'TCP_RR', { requestSize: size }, {}, pair('a', 'c')).add('TCP_RR_Latency_p50', size === 1 ? 25 : 45, 'us');
    }
    const heatmaps = heatmapCharts([b.build()]);
    expect(heatmaps.map((h) => h.subtitle)).toEqual([expect.stringMatching(/requestSize=1,/), expect.stringMatching(/requestSize=1024,/)]);
    expect(heatmaps.map((h) => h.cells.map((c) => c.value))).toEqual([
      [20, 25],
      [40, 45],
    ]);
  });
});

describe('intervals inside the metric domain', () => {
  it('never goes below 0 for skewed non-negative values (Student t went to −30 µs here)', () => {
    for (const values of [
      [117, 63, 50],
      [1, 1, 1000],
      [0, 0, 5],
      [0.001, 900, 2, 3],
    ]) {
      const ci = meanInterval(values);
      expect(ci.method).toBe('bootstrap-percentile');
      expect(ci.low).toBeGreaterThanOrEqual(0);
      expect(ci.low).toBeGreaterThanOrEqual(Math.min(...values));
      expect(ci.high).toBeLessThanOrEqual(Math.max(...values));
      expect(ci.low!).toBeLessThanOrEqual(ci.mean);
      expect(ci.high!).toBeGreaterThanOrEqual(ci.mean);
    }
  });

  it('gives the same interval for the same values (fixed seed), another for another seed', () => {
    const values = [10, 12, 9, 15, 11, 30, 10, 13];
    expect(meanInterval(values)).toEqual(meanInterval([...values]));
    const other = meanInterval(values, 0.95, { seed: 7 });
    expect(other.mean).toBe(meanInterval(values).mean);
    expect([other.low, other.high]).not.toEqual([meanInterval(values).low, meanInterval(values).high]);
  });

  it('narrows with more values and widens with the confidence level', () => {
    const few = meanInterval([10, 14, 12, 11, 13]);
    const many = meanInterval(Array.from({ length: 50 }, (_, i) => [10, 14, 12, 11, 13][i % 5]!));
    expect(many.high! - many.low!).toBeLessThan(few.high! - few.low!);
    const wide = meanInterval([10, 14, 12, 11, 13, 9, 15], 0.99);
    const narrow = meanInterval([10, 14, 12, 11, 13, 9, 15], 0.8);
    expect(wide.high! - wide.low!).toBeGreaterThan(narrow.high! - narrow.low!);
  });

  it('gives no interval for one value, with the reason', () => {
    const ci = meanInterval([7]);
    expect(ci).toEqual({ mean: 7, n: 1, noInterval: expect.stringMatching(/one value/) });
    expect(meanInterval([2, 2, 2])).toMatchObject({ low: 2, high: 2 });
  });
});
