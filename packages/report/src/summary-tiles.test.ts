import type { ChartSpec, ShownTrial } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { MAX_TILES, splitCharts, summaryTiles } from './summary-tiles.js';

const trial = (id: string, over: Partial<ShownTrial>): ShownTrial => ({
  id,
  tool: 'netperf',
  test: 'TCP_STREAM',
  benchmark: 'netperf',
  status: 'succeeded',
  params: {},
  client: 'a',
  server: 'b',
  metrics: [],
  summary: {},
  ...over,
});

describe('summary tiles', () => {
  it('a load trial: goodput, idle and loaded p50, their increase and RPM, under the benchmark name', () => {
    const load = {
      goodput: { metric: 'goodput_total', value: 95.8, unit: 'Mbits/sec' },
      probe: 'icmp',
      idle: { metric: 'latency_idle_p50', value: 0.053, unit: 'ms' },
      loaded: { metric: 'latency_loaded_p50', value: 185, unit: 'ms' },
      increase: { metric: 'latency_increase', value: 185, unit: 'ms' },
      responsiveness: { metric: 'responsiveness', value: 329.4, unit: 'RPM' },
    };
    const tiles = summaryTiles([
      trial('t0001', { tool: 'load', test: 'rrul', benchmark: 'rrul-deep', params: { download_flows: 4 }, summary: { load } }),
      trial('t0002', { tool: 'load', test: 'tcp_nup', benchmark: 'tcp_nup-deep', params: { download_flows: 0 }, summary: { load } }),
    ])!;
    // Benchmarks with names of their own: no parameters in the title (they differ between differently named benchmarks).
    expect(tiles.map((t) => t.title)).toEqual(['rrul-deep', 'tcp_nup-deep']);
    expect(tiles[0]!.stats).toEqual([
      { label: 'goodput', value: '95.8 Mbit/s' },
      { label: 'icmp idle p50', value: '53 µs' },
      { label: 'icmp loaded p50', value: '185 ms' },
      { label: 'latency increase', value: '185 ms' },
      { label: 'responsiveness', value: '329 RPM' },
    ]);
  });

  it('repetitions of one configuration are one tile: the mean and the range', () => {
    const rate = (v: number) => ({ headline: { metric: 'Throughput', value: v, unit: 'Mbits/sec' } });
    const tiles = summaryTiles([
      trial('t0001', { params: { streams: 1, repetition: 0 }, summary: rate(900) }),
      trial('t0002', { params: { streams: 1, repetition: 1 }, summary: rate(1100) }),
      trial('t0003', { params: { streams: 4, repetition: 0 }, summary: rate(3000) }),
      trial('t0004', { params: { streams: 4, repetition: 1 }, status: 'failed' }),
    ])!;
    expect(tiles.map((t) => [t.title, t.subtitle, t.status])).toEqual([
      ['netperf TCP_STREAM · streams=1', 'a → b · 2 repetitions', 'succeeded'],
      ['netperf TCP_STREAM · streams=4', 'a → b · 2 repetitions', '1 of 2 failed'],
    ]);
    expect(tiles[0]!.stats[0]).toEqual({ label: 'Throughput', value: '1 Gbit/s (900 Mbit/s–1.1 Gbit/s)' });
  });

  it('too many configurations: no tiles (the table leads)', () => {
    const many = Array.from({ length: MAX_TILES + 1 }, (_, i) =>
      trial(`t${i}`, { params: { size: i }, summary: { headline: { metric: 'Throughput', value: i + 1, unit: 'Mbits/sec' } } }),
    );
    expect(summaryTiles(many)).toBeUndefined();
  });

  it('splitCharts folds per-flow detail, and with tiles the bar charts of three configurations or fewer', () => {
    const bar = (n: number, runs = 1) =>
      ({
        kind: 'bar',
        id: `bar${n}-${runs}`,
        series: Array.from({ length: runs }, () => ({})),
        x: { label: 'c', categories: Array.from({ length: n }, (_, i) => String(i)) },
      }) as unknown as ChartSpec;
    const flow = { kind: 'timeseries', id: 'flows-rtt-t1', detail: true } as unknown as ChartSpec;
    const all = { kind: 'timeseries', id: 'load-all-scaled-t1' } as unknown as ChartSpec;
    expect(splitCharts([all, bar(3), bar(5), flow], true)).toEqual({ first: [all, bar(5)], more: [bar(3), flow] });
    expect(splitCharts([all, bar(3), flow], false)).toEqual({ first: [all, bar(3)], more: [flow] });
    // Bars comparing runs stay up front.
    expect(splitCharts([bar(2, 2)], true).first).toHaveLength(1);
  });
});
