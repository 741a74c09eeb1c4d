import { describe, expect, it } from 'vitest';
import { errorSummary, type SummarisedMetric, trialSummary } from './trial-summary.js';

const m = (metric: string, value: number, unit: string, extra: Partial<SummarisedMetric> = {}): SummarisedMetric => ({ metric, value, unit, ...extra });

describe('one line per trial', () => {
  it('takes netperf RR percentiles as printed, leaving out the p99.9 it does not give', () => {
    const summary = trialSummary([
      m('TCP_RR_Transaction_Rate', 21931, 'transactions_per_second'),
      m('TCP_RR_Latency_p50', 26, 'us'),
      m('TCP_RR_Latency_p90', 33, 'us'),
      m('TCP_RR_Latency_p99', 1.17, 'ms'),
      m('TCP_RR_Latency_mean', 45.5, 'us'),
    ]);
    expect(summary.headline).toEqual({ metric: 'TCP_RR_Transaction_Rate', value: 21931, unit: 'transactions_per_second' });
    // The p99 in ms is converted into the family's unit (µs), not mixed.
    expect(summary.latency).toEqual({ unit: 'us', p50: 26, p90: 33, p99: 1170, source: 'tool', metric: 'TCP_RR latency' });
    expect(summary.latency).not.toHaveProperty('p999');
  });

  it('gives ping its mean latency as the result, its four percentiles and its loss', () => {
    const summary = trialSummary([
      m('Average Latency', 0.053, 'ms', { p50: 0.049, p90: 0.072, p99: 0.086, p999: 0.111 }),
      m('Latency p50', 0.049, 'ms'),
      m('Latency p90', 0.072, 'ms'),
      m('Latency p99', 0.086, 'ms'),
      m('Latency p99.9', 0.111, 'ms'),
      m('Packet Loss', 0, '%'),
    ]);
    expect(summary.headline?.metric).toBe('Average Latency');
    expect(summary.latency).toMatchObject({ p50: 0.049, p90: 0.072, p99: 0.086, p999: 0.111, source: 'tool' });
    expect(summary.loss).toEqual({ metric: 'Packet Loss', value: 0, unit: '%' });
  });

  it('falls back to histogram percentiles, and puts throughput before rates', () => {
    const summary = trialSummary([m('Request_Rate', 900, 'requests_per_second'), m('Throughput', 940, 'Mbits/sec'), m('rtt', 2, 'ms', { p50: 1.9, p90: 2.4, p99: 3.1, p999: 4 })]);
    expect(summary.headline?.metric).toBe('Throughput');
    expect(summary.latency).toEqual({ unit: 'ms', p50: 1.9, p90: 2.4, p99: 3.1, p999: 4, source: 'histogram', metric: 'rtt' });
  });

  it('never reads p99.99 as p99.9, and has no latency where there is none', () => {
    const http = trialSummary([m('HTTP_Latency_p50', 1, 'ms'), m('HTTP_Latency_p99_99', 9, 'ms')]);
    expect(http.latency).toEqual({ unit: 'ms', p50: 1, source: 'tool', metric: 'HTTP latency' });
    expect(trialSummary([m('Throughput', 1, 'Mbits/sec')]).latency).toBeUndefined();
  });

  it('errors: the total of the samples without error_kind, out of the requests, by kind (largest first, zeros left out)', () => {
    const e = (value: number, labels: Record<string, string> = {}) => ({ metric: 'HTTP_Errors', value, labels });
    expect(
      errorSummary([
        { metric: 'HTTP_Requests', value: 51590, labels: {} },
        e(51590),
        e(0, { error_kind: 'connect' }),
        e(51580, { error_kind: 'status' }),
        e(10, { error_kind: 'timeout' }),
      ]),
    ).toEqual({
      count: 51590,
      of: 51590,
      kinds: [
        ['status', 51580],
        ['timeout', 10],
      ],
    });
    expect(errorSummary([e(0), e(0, { error_kind: 'status' })])).toBeUndefined();
  });
});

describe("the summary from what the trial's tool declared", () => {
  // A third-party tool with names no built-in pattern knows: its result and loss come from its `metrics` alone.
  const declared = {
    goodput_mbps: { role: 'throughput', better: 'higher', primary: true },
    msg_lat_median: { role: 'latency', better: 'lower', percentiles: { p50: 'msg_lat_median', p90: 'msg_lat_90th', p99: 'msg_lat_99th' } },
    dropped_share: { role: 'loss', better: 'lower' },
  } as const;
  const trial = [m('msg_lat_median', 180, 'us'), m('msg_lat_90th', 240, 'us'), m('msg_lat_99th', 1.2, 'ms'), m('goodput_mbps', 412, 'Mbits/sec'), m('dropped_share', 0.4, '%')];

  it('fills the result, the percentiles and the loss of a third-party tool, which name matching leaves empty', () => {
    const summary = trialSummary(trial, declared);
    expect(summary.headline).toEqual({ metric: 'goodput_mbps', value: 412, unit: 'Mbits/sec' });
    expect(summary.latency).toEqual({ unit: 'us', p50: 180, p90: 240, p99: 1200, source: 'tool', metric: 'msg_lat_median' });
    expect(summary.loss).toEqual({ metric: 'dropped_share', value: 0.4, unit: '%' });
    // Without its declarations (an imported file) nothing matches the built-in names.
    expect(trialSummary(trial)).toEqual({});
  });

  it("a latency tool's result is its declared mean, else its primary latency; no built-in name is matched", () => {
    const latencyOnly = { rtt_avg: { role: 'latency', better: 'lower', statistic: 'mean' }, rtt_p50: { role: 'latency', better: 'lower', primary: true } } as const;
    expect(trialSummary([m('rtt_p50', 1, 'ms'), m('rtt_avg', 1.2, 'ms')], latencyOnly).headline?.metric).toBe('rtt_avg');
    expect(trialSummary([m('rtt_p50', 1, 'ms')], latencyOnly).headline?.metric).toBe('rtt_p50');
    // `Packet Loss` is ping's name, but this tool did not declare it: it is not the loss.
    expect(trialSummary([m('rtt_p50', 1, 'ms'), m('Packet Loss', 3, '%')], latencyOnly).loss).toBeUndefined();
  });

  it("percentiles from a declared latency's histogram when it names none", () => {
    const summary = trialSummary([m('one_way', 2, 'ms', { p50: 1.9, p90: 2.4, p99: 3.1, p999: 4, observations: 9000 }), m('other', 5, 'ms', { p50: 5 })], {
      one_way: { role: 'latency', better: 'lower', primary: true },
    });
    expect(summary.latency).toMatchObject({ p50: 1.9, p999: 4, source: 'histogram', metric: 'one_way', n: 9000 });
  });
});
