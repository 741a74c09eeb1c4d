import { describe, expect, it } from 'vitest';
import { ResultsBuilder } from './__fixtures__/results.js';
import { chartsFor } from './charts-for.js';
import { additive, flowBarCharts, flowTimeSeriesCharts } from './flow-charts.js';

const T0 = 1_763_809_376_000;

/** One synchronized trial of two flows: two interval samples each (ends 1.0x s and 2.0x s after start), finals and the aggregate. */
function flowsRun() {
  const b = new ResultsBuilder();
  const trial = b.trial('netperf', 'UDP_RR', { duration: 2, burst: 8 });
  const ends: number[] = [];
  for (const [flow, values] of [['c->s1', [100, 110]], ['c->s2', [200, 190]]] as const) {
    values.forEach((value, i) => {
      trial.add('UDP_RR_Transaction_Rate', value, 'tps', { flow, series: 'interval', interval_seconds: 1 });
      ends.push(T0 + 1000 * (i + 1) + (flow === 'c->s2' ? 4 : 0));
    });
    trial.add('UDP_RR_Transaction_Rate', values[0] + 5, 'tps', { flow });
  }
  trial.add('UDP_RR_Transaction_Rate', 310, 'tps', { flow: 'aggregate', aggregation: 'sum_of_flows', flow_count: 2, flow_min: 105, flow_median: 155, flow_max: 205 });
  // An ordinary trial next to it.
  b.trial('netperf', 'TCP_RR', { duration: 2 }).add('TCP_RR_Transaction_Rate', 50, 'tps');
  const results = b.build();
  let i = 0;
  const samples = results.samples.map((s) => (s.labels['series'] === 'interval' ? { ...s, timestamp: ends[i++]! } : s));
  return { ...results, samples };
}

describe('flow charts', () => {
  it('stacks each flow on a shared interval grid, so the top edge is their sum', () => {
    const [chart, ...rest] = flowTimeSeriesCharts([flowsRun()]);
    expect(rest).toEqual([]);
    expect(chart).toMatchObject({ kind: 'timeseries', stack: 'flows', metric: 'UDP_RR_Transaction_Rate', title: 'UDP_RR_Transaction_Rate per flow over time (t0001)' });
    expect(chart!.series.map((s) => [s.name, s.points])).toEqual([['c->s1', [[1, 100], [2, 110]]], ['c->s2', [[1, 200], [2, 190]]]]);
  });

  it('draws round-trip times of several probes as lines, never stacked into a sum', () => {
    const b = new ResultsBuilder();
    const trial = b.trial('load', 'rrul', { duration: 2 });
    for (const flow of ['icmp', 'udp']) {
      for (const value of [0.5, 0.7]) trial.add('rtt', value, 'ms', { flow, series: 'interval', interval_seconds: 1 });
    }
    const results = b.build();
    let i = 0;
    const samples = results.samples.map((s) => ({ ...s, timestamp: T0 + 1000 * (1 + (i++ % 2)) }));
    const [chart] = flowTimeSeriesCharts([{ ...results, samples }]);
    expect(chart!.stack).toBeUndefined();
    expect(chart!.notes.join(' ')).toMatch(/one line per flow/i);
    expect(additive('rtt', 'ms')).toBe(false);
    expect(additive('Throughput', 'Mbits/sec')).toBe(true);
    expect(additive('Average Latency', 'count')).toBe(false);
  });

  it('draws the aggregate as one bar per trial with the spread across flows in the notes', () => {
    const [chart] = flowBarCharts([flowsRun()]);
    expect(chart).toMatchObject({ kind: 'bar', metric: 'UDP_RR_Transaction_Rate', x: { categories: ['t0001 UDP_RR burst=8'] } });
    expect(chart!.series[0]!.bars).toEqual([{ mean: 310, n: 2, basis: 'streams' }]);
    expect(chart!.notes.join('\n')).toContain('flows 105–205 (median 155)');
  });

  it('keeps flow samples out of the ordinary charts, where they would be pooled with their sum', () => {
    const charts = chartsFor([flowsRun()]);
    const ordinary = charts.filter((c) => !c.id.startsWith('flows'));
    expect(JSON.stringify(ordinary)).not.toContain('UDP_RR');
    expect(charts.some((c) => c.id.startsWith('flows-aggregate'))).toBe(true);
  });
});
