import type { Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { ResultsBuilder } from './__fixtures__/results.js';
import { chartsFor } from './charts-for.js';
import { loadBoxCharts, loadCdfCharts, loadTimeSeriesCharts } from './load-charts.js';

const T0 = 1_763_809_376_000;

/**
 * One tcp_bidirectional-like load trial, 1 s idle + 4 s load + 2 s idle, 1 s
 * steps: a ping every second (0.1 ms idle, 20 ms loaded), one upload and one
 * download flow reporting each second of the load; the flows carry the test's layout as labels.
 */
function loadRun() {
  const b = new ResultsBuilder();
  const trial = b.trial('load', 'tcp_bidirectional', { load_test: 'tcp_bidirectional', load_idle: 1, load_duration: 4, load_step: 1, load_flows: 2 });
  const times: number[] = [];
  const at = (seconds: number) => times.push(T0 + seconds * 1000);
  for (let s = 0; s <= 7; s += 1) {
    const loaded = s >= 2 && s <= 5;
    trial.add('rtt', loaded ? 20 : 0.1, 'ms', { tool: 'ping', flow: 'icmp', series: 'interval' });
    at(s + (loaded ? 0.02 : 0.0001));
  }
  for (let s = 2; s <= 5; s += 1) {
    trial.add('TCP_STREAM_Throughput', 40, 'Mbits/sec', { tool: 'netperf', flow: 'up-1', series: 'interval', interval_seconds: 1 });
    at(s);
    trial.add('TCP_MAERTS_Throughput', 50 + s, 'Mbits/sec', { tool: 'netperf', flow: 'down-1', series: 'interval', interval_seconds: 1 });
    at(s + 0.01);
  }
  const results = b.build();
  const samples: Sample[] = results.samples.map((s, i) => ({ ...s, timestamp: times[i]! }));
  return [{ ...results, samples }];
}

describe('latency-under-load charts', () => {
  it('all scaled: the directions summed per step on the left axis, every probe on the right axis, from the barrier', () => {
    const [chart] = loadTimeSeriesCharts(loadRun());
    expect(chart).toMatchObject({ kind: 'timeseries', y: { unit: 'Mbits/sec' }, y2: { unit: 'ms' } });
    expect(chart!.series.map((s) => [s.name, s.axis])).toEqual([
      ['download', undefined],
      ['upload', undefined],
      ['ICMP RTT', 2],
    ]);
    expect(chart!.series[0]!.points).toEqual([
      [2, 52],
      [3, 53],
      [4, 54],
      [5, 55],
    ]);
    const icmp = chart!.series[2]!.points;
    // The barrier is the first ping's send (its arrival minus its RTT).
    expect(icmp[0]).toEqual([0, 0.1]);
    expect(icmp).toHaveLength(8);
  });

  it('CDF: idle and loaded probes apart (ramp and drain left out)', () => {
    const [cdf] = loadCdfCharts(loadRun());
    expect(cdf!.series.map((s) => [s.name, s.count, s.percentiles.p50])).toEqual([
      ['idle', 3, 0.1],
      ['loaded', 3, 20],
    ]);
    expect(cdf!.series[1]!.points.at(-1)).toEqual([20, 100]);
  });

  it('box plots: loaded throughput per direction and total, and RTT per phase', () => {
    const [rate, rtt] = loadBoxCharts(loadRun());
    expect(rate!.x.categories).toEqual(['download', 'upload', 'total']);
    expect(rate!.series[0]!.boxes[0]).toMatchObject({ min: 52, median: 53.5, max: 55, n: 4 });
    expect(rate!.series[0]!.boxes[2]).toMatchObject({ min: 92, max: 95, n: 4 });
    expect(rtt!.x.categories).toEqual(['ICMP idle', 'ICMP loaded']);
    expect(rtt!.series[0]!.boxes[1]).toMatchObject({ median: 20, n: 3 });
  });

  it('chartsFor includes them; runs without load trials get none', () => {
    const kinds = chartsFor(loadRun())
      .filter((c) => c.id.startsWith('load-'))
      .map((c) => c.kind);
    expect(kinds).toEqual(['timeseries', 'cdf', 'box', 'box']);
    const plain = new ResultsBuilder();
    plain.trial('ping', 'icmp', {}).add('rtt', 1, 'ms', { flow: 'icmp', series: 'interval' });
    // Charts fill in while the trial runs: only the probes so far.
    const [live] = loadRun().map((r) => ({ ...r, samples: r.samples.slice(0, 3) }));
    expect(loadTimeSeriesCharts([live!])[0]!.series.map((s) => [s.name, s.points.length])).toEqual([['ICMP RTT', 3]]);
    expect(loadTimeSeriesCharts([plain.build()])).toEqual([]);
  });

  it('irtt probes: an RTT line and both one-way delays on the right axis, and their own CDF and boxes', () => {
    const b = new ResultsBuilder();
    const trial = b.trial('load', 'tcp_nup', { load_test: 'tcp_nup', load_idle: 1, load_duration: 4, load_step: 1, load_flows: 1 });
    const times: number[] = [];
    for (let s = 0; s <= 7; s += 1) {
      const loaded = s >= 2 && s <= 5;
      // An upload: the send delay carries the queue, the receive delay stays idle.
      for (const [metric, ms] of [
        ['rtt', loaded ? 20.1 : 0.2],
        ['send_delay', loaded ? 20 : 0.1],
        ['receive_delay', 0.1],
      ] as const) {
        trial.add(metric, ms, 'ms', { tool: 'irtt', flow: 'irtt', series: 'interval' });
        times.push(T0 + s * 1000 + (loaded ? 20.1 : 0.2));
      }
    }
    const results = b.build();
    const run = [{ ...results, samples: results.samples.map((x, i) => ({ ...x, timestamp: times[i]! })) }];
    const [chart] = loadTimeSeriesCharts(run);
    expect(chart!.series.map((x) => [x.name, x.axis, x.points.length])).toEqual([
      ['irtt RTT', 2, 8],
      ['irtt send delay', 2, 8],
      ['irtt receive delay', 2, 8],
    ]);
    // The barrier is the first irtt packet's send (its arrival minus its RTT).
    expect(chart!.series[0]!.points[0]).toEqual([0, 0.2]);
    const [cdf] = loadCdfCharts(run);
    expect(cdf!.title).toMatch(/^irtt round-trip time/);
    expect(cdf!.series.map((x) => [x.name, x.count, x.percentiles.p50])).toEqual([
      ['idle', 3, 0.2],
      ['loaded', 3, 20.1],
    ]);
    const [rtt] = loadBoxCharts(run);
    expect(rtt!.x.categories).toEqual(['irtt idle', 'irtt loaded']);
  });

  it('all scaled: flows whose intervals run longer than the step sum to their total at every step, not a zigzag', () => {
    // Two uploads of 50 Mbit/s each, netperf demo intervals of 0.24 s (a busy machine) against a 0.2 s step, ends offset by 0.1 s.
    const b = new ResultsBuilder();
    const trial = b.trial('load', 'tcp_nup', { load_test: 'tcp_nup', load_idle: 0, load_duration: 5, load_step: 0.2, load_flows: 2 });
    const times: number[] = [];
    trial.add('rtt', 0.1, 'ms', { tool: 'ping', flow: 'icmp', series: 'interval' });
    times.push(T0 + 0.1);
    for (const [flow, offset] of [
      ['up-1', 0],
      ['up-2', 0.1],
    ] as const) {
      for (let end = 0.24 + offset; end <= 4.8; end += 0.24) {
        trial.add('TCP_STREAM_Throughput', 50, 'Mbits/sec', { tool: 'netperf', flow, series: 'interval', interval_seconds: 0.24 });
        times.push(T0 + end * 1000);
      }
    }
    const results = b.build();
    const [chart] = loadTimeSeriesCharts([{ ...results, samples: results.samples.map((x, i) => ({ ...x, timestamp: times[i]! })) }]);
    const upload = chart!.series.find((x) => x.name === 'upload')!.points;
    // Where both flows have reported (from 0.4 s to before the first one's last end), every step holds both: 100.
    const both = upload.filter(([t]) => t >= 0.4 && t <= 4.4);
    expect(both.length).toBeGreaterThan(15);
    expect(new Set(both.map(([, v]) => v))).toEqual(new Set([100]));
  });

  it('titles name the trial by its benchmark, with its queue and congestion control; the charts are first in chartsFor', () => {
    const b = new ResultsBuilder();
    const times: number[] = [];
    for (const [name, depth] of [
      ['rrul-shallow', '5ms'],
      ['rrul-deep', '200ms'],
    ] as const) {
      const trial = b.trial(
        'load',
        'rrul',
        {},
        {},
        {
          load_test: 'rrul',
          load_idle: 1,
          load_duration: 2,
          load_step: 1,
          load_flows: 1,
          benchmark: name,
          host_server_link_ingress_rate: '100mbit',
          host_server_link_qdisc: 'tbf',
          host_server_link_latency: depth,
          host_client_tcp_congestion_control: 'cubic',
          host_server_tcp_congestion_control: 'cubic',
        },
      );
      for (let s = 0; s <= 3; s += 1) {
        trial.add('rtt', s === 2 ? 20 : 0.1, 'ms', { tool: 'ping', flow: 'icmp', series: 'interval' });
        times.push(T0 + s * 1000 + 1);
      }
    }
    const results = b.build();
    const run = { ...results.run, trials: results.run.trials.map((t, i) => ({ ...t, benchmarkName: i === 0 ? 'rrul-shallow' : 'rrul-deep' })) };
    const input = [{ run, samples: results.samples.map((x, i) => ({ ...x, timestamp: times[i]! })) }];
    const [shallow, deep] = loadTimeSeriesCharts(input);
    expect(shallow!.title).toBe('Latency under load over time: rrul-shallow · server 100mbit tbf, 5ms queue · cubic');
    expect(deep!.title).toBe('Latency under load over time: rrul-deep · server 100mbit tbf, 200ms queue · cubic');
    expect(deep!.span).toEqual([0, 3]);
    // Trials of different queues: the CDF names each trial's in its subtitle, and its lines by the benchmark.
    const [cdf] = loadCdfCharts(input);
    expect(cdf!.subtitle).toContain('rrul-deep: server 100mbit tbf, 200ms queue · cubic');
    expect(cdf!.series.map((x) => x.name)).toEqual(['rrul-shallow idle', 'rrul-shallow loaded', 'rrul-deep idle', 'rrul-deep loaded']);
    expect(chartsFor(input)[0]!.id).toMatch(/^load-all-scaled/);
  });
});
