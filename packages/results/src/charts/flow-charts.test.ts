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
  for (const [flow, values] of [
    ['c->s1', [100, 110]],
    ['c->s2', [200, 190]],
  ] as const) {
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
    expect(chart).toMatchObject({ kind: 'timeseries', stack: 'flows', metric: 'UDP_RR_Transaction_Rate', title: 'UDP_RR_Transaction_Rate per flow over time: t0001 UDP_RR' });
    expect(chart!.series.map((s) => [s.name, s.points])).toEqual([
      [
        'c->s1',
        [
          [1, 100],
          [2, 110],
        ],
      ],
      [
        'c->s2',
        [
          [1, 200],
          [2, 190],
        ],
      ],
    ]);
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

  it('stacks without holes: flows whose intervals run longer than the grid still fill every grid point, 0 where a flow has not started', () => {
    // The grid is the median interval (0.25 s): flow a reports 0.25 s intervals, flow b starts 1 s later with 0.3 s intervals.
    // Binned by their ends, b would skip a grid point every few intervals (a hole in the stack).
    const b = new ResultsBuilder();
    const trial = b.trial('netperf', 'TCP_STREAM', { duration: 4 });
    const times: number[] = [];
    for (let end = 0.25; end <= 4 + 1e-9; end += 0.25) {
      trial.add('TCP_STREAM_Throughput', 10, 'Mbits/sec', { flow: 'a', series: 'interval', interval_seconds: 0.25 });
      times.push(T0 + end * 1000);
    }
    for (let end = 1.3; end <= 4 + 1e-9; end += 0.3) {
      trial.add('TCP_STREAM_Throughput', 20, 'Mbits/sec', { flow: 'b', series: 'interval', interval_seconds: 0.3 });
      times.push(T0 + end * 1000);
    }
    const results = b.build();
    const [chart] = flowTimeSeriesCharts([{ ...results, samples: results.samples.map((x, i) => ({ ...x, timestamp: times[i]! })) }]);
    const [a, bb] = chart!.series;
    // One grid for every flow: the same x at every index.
    expect(bb!.points.map((p) => p[0])).toEqual(a!.points.map((p) => p[0]));
    expect(a!.points).toHaveLength(16);
    // b is 0 before it started and 20 at every grid point it sent, none missing.
    expect(bb!.points.filter(([t]) => t <= 1).every(([, v]) => v === 0)).toBe(true);
    expect(bb!.points.filter(([t]) => t > 1.1).every(([, v]) => v === 20)).toBe(true);
    expect(chart!.span).toEqual([0, 4]);
  });

  it('draws every probe of a round-trip time line where it arrived (no binning to the interval grid)', () => {
    // 200 ICMP probes every 0.2 s over 40 s, next to netperf flows of 1 s intervals: binned to 1 s, 4 of every 5 probes would be dropped.
    const b = new ResultsBuilder();
    const trial = b.trial(
      'load',
      'rrul',
      { duration: 40 },
      {},
      {
        load_test: 'rrul',
        benchmark: 'rrul-deep',
        host_client_link_ingress_rate: '100mbit',
        host_client_link_qdisc: 'tbf',
        host_client_link_latency: '200ms',
        host_server_link_ingress_rate: '100mbit',
        host_server_link_qdisc: 'tbf',
        host_server_link_latency: '200ms',
        host_client_tcp_congestion_control: 'cubic',
        host_server_tcp_congestion_control: 'cubic',
      },
    );
    const times: number[] = [];
    for (let i = 1; i <= 200; i++) {
      trial.add('rtt', 1 + (i % 7), 'ms', { tool: 'ping', flow: 'icmp', series: 'interval' });
      times.push(T0 + i * 200 + 1);
    }
    for (let i = 1; i <= 40; i++) {
      trial.add('TCP_STREAM_Throughput', 50, 'Mbits/sec', { tool: 'netperf', flow: 'up-1', series: 'interval', interval_seconds: 1 });
      times.push(T0 + i * 1000);
    }
    const results = b.build();
    const run = { ...results.run, trials: results.run.trials.map((t) => ({ ...t, benchmarkName: 'rrul-deep' })) };
    const charts = flowTimeSeriesCharts([{ run, samples: results.samples.map((x, i) => ({ ...x, timestamp: times[i]! })) }]);
    const rtt = charts.find((c) => c.metric === 'rtt')!;
    expect(rtt.series[0]!.points).toHaveLength(200);
    // The trial's clock starts when its first netperf interval began (T0), before the first probe was sent (0.199 s): the probe arrived at 0.201 s.
    expect(rtt.series[0]!.points[0]).toEqual([0.201, 2]);
    // Titles name the benchmark, its queue and congestion control.
    expect(rtt.title).toBe('rtt per flow over time: rrul-deep · 100mbit tbf, 200ms queue · cubic');
    const rate = charts.find((c) => c.metric === 'TCP_STREAM_Throughput')!;
    expect(rate.span).toEqual(rtt.span);
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
