import { describe, expect, it } from 'vitest';
import { trialPath } from '../paths/trial-path.js';
import { ResultsBuilder } from './__fixtures__/results.js';
import { barCharts } from './bar-charts.js';
import { pathRatios, plainPathFirst } from './path-overhead.js';
import { rrLatencyCharts } from './rr-latency-charts.js';

// Tunnels measured in random order (examples/tunnels.yaml): two repetitions of each path.
function tunnelRun() {
  const b = new ResultsBuilder();
  const order = ['wg', 'none', 'ipsec', 'none', 'ipsec', 'wg'];
  const stream: Record<string, number> = { none: 4000, wg: 400, ipsec: 100 };
  const p50: Record<string, number> = { none: 20, wg: 120, ipsec: 140 };
  order.forEach((tunnel, i) => {
    const repetition = i < 3 ? 1 : 2;
    b.trial('netperf', 'TCP_STREAM', { duration: 5, repetition }).add('TCP_STREAM_Throughput', stream[tunnel]! * (repetition === 1 ? 0.9 : 1.1), 'Mbits/sec', { tunnel });
    b.trial('netperf', 'TCP_RR', { duration: 5, repetition }).add('TCP_RR_Latency_p50', p50[tunnel]! * (repetition === 1 ? 0.9 : 1.1), 'us', { tunnel });
  });
  return b.build();
}

describe('tunnels beside the plain path', () => {
  it('bars: plain path first, tunnels by name, whatever order they ran in; a note gives each tunnel as a ratio of the plain path', () => {
    const [chart] = barCharts([tunnelRun()], { metrics: ['TCP_STREAM_Throughput'] });
    expect(chart?.x.categories).toEqual(['tunnel=none', 'tunnel=ipsec', 'tunnel=wg']);
    expect(chart?.series[0]?.bars.map((b) => b?.mean)).toEqual([4000, 100, 400]);
    expect(chart?.notes.at(-1)).toBe("Through each tunnel, mean ÷ the plain path's mean (tunnel=none, same configuration otherwise): ipsec 0.025×, wg 0.1×.");
  });

  it('netperf latency bars: the same order, a ratio per percentile series', () => {
    const [chart] = rrLatencyCharts([tunnelRun()]);
    expect(chart?.x.categories).toEqual(['tunnel=none', 'tunnel=ipsec', 'tunnel=wg']);
    expect(chart?.notes.at(-1)).toBe("Through each tunnel, mean ÷ the plain path's mean (tunnel=none, same configuration otherwise): p50 ipsec 7×, wg 6×.");
  });

  it('only like is compared with like: a tunnel without a plain path of the same configuration gets no ratio', () => {
    const config = (tunnel: string, pair: string) =>
      new Map([
        ['pair', pair],
        ['tunnel', tunnel],
      ]);
    const bar = (mean: number) => ({ mean, n: 1, basis: 'repetitions' as const });
    expect(pathRatios([config('none', 'a → b'), config('wg', 'c → d')], [bar(10), bar(5)])).toBeUndefined();
    expect(pathRatios([config('none', 'a → b'), config('wg', 'a → b'), config('wg', 'c → d')], [bar(10), bar(5), bar(1)])).toBe('wg 0.5×');
    // Pairs stay together, each with its plain path first.
    const ordered = plainPathFirst([config('wg', 'a → b'), config('wg', 'c → d'), config('none', 'c → d'), config('none', 'a → b')], (c) => c);
    expect(ordered.map((c) => `${c.get('pair')} ${c.get('tunnel')}`)).toEqual(['a → b none', 'a → b wg', 'c → d none', 'c → d wg']);
    // No tunnel labels: untouched.
    const plain = [new Map([['pair', 'x']]), new Map([['pair', 'a']])];
    expect(plainPathFirst(plain, (c) => c)).toEqual(plain);
  });

  it('trial tables say which path a trial went, only when the run has tunnels', () => {
    expect(trialPath('a', 'b', [{ labels: { tunnel: 'wg' } }])).toBe('a → b via wg');
    expect(trialPath('a', 'b', [{ labels: { tunnel: 'none' } }])).toBe('a → b (plain)');
    expect(trialPath('a', 'b', [{ labels: { tool: 'ping' } }])).toBe('a → b');
    expect(trialPath('a', 'b', [])).toBe('a → b');
  });
});
