import { describe, expect, it } from 'vitest';
import { histogramOf, ResultsBuilder } from './__fixtures__/results.js';
import { chartsFor } from './charts-for.js';
import { intervalSweepCharts } from './interval-sweep-charts.js';

// µs round trips that fall as probes come more often (warm caches), with a tail.
const rtts = (medianUs: number) => Array.from({ length: 100 }, (_, i) => (i < 90 ? medianUs : medianUs * 4));

describe('latency by probe interval', () => {
  it('one chart, ping and irtt side by side, p50/p90/p99 per interval from the merged histograms, log x', () => {
    const b = new ResultsBuilder();
    for (const [interval, us] of [
      [0.001, 50],
      [0.01, 80],
      [0.1, 120],
      [1, 200],
    ] as const) {
      b.trial('ping', 'icmp', { direction: 'forward', count: 100, interval, size: 56 }).add('Average Latency', us / 1000, 'ms', {}, histogramOf(rtts(us)));
      b.trial('irtt', 'udp_rtt', { interval, duration: 5, fill: 'none' })
        .add('rtt_mean', us / 1000, 'ms', {}, histogramOf(rtts(us + 10)))
        // One-way delays have histograms too: not round trips, not charted here.
        .add('send_delay_mean', us / 2000, 'ms', {}, histogramOf(rtts(us / 2)));
    }
    const [chart, ...more] = intervalSweepCharts([b.build()]);
    expect(more).toEqual([]);
    expect(chart).toMatchObject({ kind: 'sweep', param: 'interval', x: { unit: 's', scale: 'log' }, y: { unit: 'ms' }, better: 'lower' });
    expect(chart!.series.map((s) => s.name)).toEqual(['ping p50', 'ping p90', 'ping p99', 'irtt p50', 'irtt p90', 'irtt p99']);
    const pingP50 = chart!.series[0]!;
    expect(pingP50.points.map((p) => p.x)).toEqual([0.001, 0.01, 0.1, 1]);
    expect(pingP50.points.map((p) => p.mean)).toEqual([0.05, 0.08, 0.12, 0.2].map((ms) => expect.closeTo(ms, 3)));
    // p99 is in the tail: 4 × the median.
    expect(chart!.series[2]!.points[3]!.mean).toBeCloseTo(0.8, 2);
    expect(chart!.series[3]!.points[0]!.mean).toBeCloseTo(0.06, 3);
    expect(pingP50.points[0]!.n).toBe(100);
    expect(chart!.notes.join(' ')).toContain('ping: Average Latency; irtt: rtt_mean');
    // chartsFor draws it among the sweeps.
    expect(chartsFor([b.build()]).some((c) => c.id === chart!.id)).toBe(true);
  });

  it('merges repetitions, splits directions, and draws nothing without a sweep', () => {
    const b = new ResultsBuilder();
    for (const interval of [0.2, 1]) {
      for (const direction of ['forward', 'reverse']) {
        b.trial('ping', 'icmp', { direction, count: 10, interval }).add('Average Latency', 0.1, 'ms', {}, histogramOf([100, 100]));
        b.trial('ping', 'icmp', { direction, count: 10, interval }).add('Average Latency', 0.3, 'ms', {}, histogramOf([300, 300]));
      }
    }
    const [chart] = intervalSweepCharts([b.build()]);
    expect(chart!.series.map((s) => s.name)).toEqual([
      'ping · forward p50',
      'ping · forward p90',
      'ping · forward p99',
      'ping · reverse p50',
      'ping · reverse p90',
      'ping · reverse p99',
    ]);
    expect(chart!.series[0]!.points[0]).toMatchObject({ x: 0.2, n: 4 });
    const single = new ResultsBuilder();
    single.trial('ping', 'icmp', { direction: 'forward', count: 10, interval: 0.2 }).add('Average Latency', 0.1, 'ms', {}, histogramOf([100]));
    expect(intervalSweepCharts([single.build()])).toEqual([]);
  });

  it('sockperf --mps is drawn at 1 / mps with the others; its one-way estimate (RTT/2) is left out', () => {
    const b = new ResultsBuilder();
    for (const [mps, us] of [
      [100, 120],
      [1000, 80],
      [10_000, 50],
    ] as const) {
      b.trial('sockperf', 'ping-pong', { protocol: 'udp', duration: 1, mps, full_rtt: true }).add('rtt_p50', us, 'us', { latency_kind: 'round-trip' }, histogramOf(rtts(us)));
      b.trial('sockperf', 'ping-pong', { protocol: 'tcp', duration: 1, mps, full_rtt: false }).add(
        'latency_p50',
        us / 2,
        'us',
        { latency_kind: 'one-way' },
        histogramOf(rtts(us / 2)),
      );
    }
    // "max" (as fast as possible) has no interval: not a point.
    b.trial('sockperf', 'ping-pong', { protocol: 'udp', duration: 1, mps: 'max', full_rtt: true }).add('rtt_p50', 30, 'us', { latency_kind: 'round-trip' }, histogramOf(rtts(30)));
    const [chart] = intervalSweepCharts([b.build()]);
    expect(chart!.series.map((s) => s.name)).toEqual(['sockperf p50', 'sockperf p90', 'sockperf p99']);
    expect(chart!.series[0]!.points.map((p) => [p.x, p.mean])).toEqual([
      [0.0001, expect.closeTo(0.05, 3)],
      [0.001, expect.closeTo(0.08, 3)],
      [0.01, expect.closeTo(0.12, 3)],
    ]);
  });
});
