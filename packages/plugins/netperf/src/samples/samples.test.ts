import { readFileSync } from 'node:fs';
import { LatencyHistogram, type SampleInput } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { parseNetperf } from '../parse/parse.js';
import { parseNetperfOutput } from '../parse/parse-netperf.js';
import { trialSamples } from './aggregate.js';

const fixture = (name: string) => readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), 'utf8');
const byMetric = (samples: readonly SampleInput[]) => Object.fromEntries(samples.map((s) => [s.metric, s]));

describe('single-stream samples (PKB names)', () => {
  it('names TCP_RR samples as PKB does', () => {
    const samples = parseNetperf(fixture('omni-csv-tcp_rr.txt'));
    expect(samples.map((s) => [s.metric, s.value, s.unit])).toEqual([
      ['TCP_RR_Transaction_Rate', 27204.47, 'transactions_per_second'],
      ['TCP_RR_Latency_p50', 34, 'us'],
      ['TCP_RR_Latency_p90', 41, 'us'],
      ['TCP_RR_Latency_p99', 70, 'us'],
      ['TCP_RR_Latency_min', 22, 'us'],
      ['TCP_RR_Latency_max', 3172, 'us'],
      ['TCP_RR_Latency_stddev', 46.62, 'us'],
      ['TCP_RR_Latency_mean', 36.64, 'us'],
      // One request and one response packet per transaction.
      ['TCP_RR_Packet_Rate', 54408.94, 'packets_per_second'],
      ['TCP_RR_Local_Transport_Retransmissions', 0, 'count'],
      ['TCP_RR_Remote_Transport_Retransmissions', 0, 'count'],
    ]);
    // parse() names the test (for netbench import); run() labels come from the trial.
    expect(samples[0]?.labels).toEqual({ transport_mss: 1448, test: 'TCP_RR' });
  });

  it('names bulk samples <TEST>_Throughput in Mbits/sec, without latency', () => {
    for (const [name, metric, value] of [
      ['omni-csv-tcp_stream.txt', 'TCP_STREAM_Throughput', 5553.06],
      ['omni-csv-udp_stream.txt', 'UDP_STREAM_Throughput', 2916.36],
      ['classic-tcp_maerts.txt', 'TCP_MAERTS_Throughput', 6610.87],
    ] as const) {
      const samples = parseNetperf(fixture(name));
      expect(samples[0]).toMatchObject({ metric, value, unit: 'Mbits/sec' });
      expect(samples.some((s) => s.metric.includes('Latency'))).toBe(false);
    }
  });

  it("labels confidence runs with PKB's metadata names", () => {
    const [rate] = parseNetperf(fixture('confidence-csv-tcp_rr.txt'));
    expect(rate?.labels).toEqual({ confidence_level: 99, confidence_iter: 10, confidence_width_percent: 39.291, confidence_achieved: false, transport_mss: 1448, test: 'TCP_RR' });
  });

  it("carries netperf's histogram in <TEST>_Latency_Histogram", () => {
    const histogram = byMetric(parseNetperf(fixture('handmade-histogram-tcp_rr.txt'))).TCP_RR_Latency_Histogram;
    expect(histogram?.value).toBe(0);
    expect(histogram?.histogram?.count).toBe(444658);
    const decoded = LatencyHistogram.decode(histogram!.histogram!);
    expect(decoded.percentile(50)).toBe(100);
    expect(decoded.max).toBeGreaterThanOrEqual(5000);
  });

  it('converts other bit and byte units to Mbit/s', () => {
    const kilo = fixture('omni-csv-tcp_stream.txt').replace('5553.06,10^6bits/s', '5553060.00,10^3bits/s');
    expect(parseNetperf(kilo)[0]?.value).toBeCloseTo(5553.06, 6);
    const mbytes = fixture('omni-csv-tcp_stream.txt').replace('5553.06,10^6bits/s', '100,MBytes/s');
    expect(parseNetperf(mbytes)[0]?.value).toBeCloseTo((100 * 1048576 * 8) / 1e6, 6);
  });
});

describe('multi-stream samples', () => {
  const rr = ['omni-csv-tcp_rr.txt', 'loopback-omni-csv-tcp_rr.txt', 'omni-csv-sizes-tcp_rr.txt'].map((name) => parseNetperfOutput(fixture(name)));

  it("labels every stream's samples and adds PKB's throughput statistics", () => {
    const samples = trialSamples(rr, { sending_thread_count: 3 });
    const streamRates = samples.filter((s) => s.metric === 'TCP_RR_Transaction_Rate');
    expect(streamRates.map((s) => [s.value, s.labels?.stream])).toEqual([
      [27204.47, 0],
      [25666.94, 1],
      [23002.72, 2],
    ]);
    const all = byMetric(samples.filter((s) => s.labels?.stream === undefined));
    expect(all.TCP_RR_Throughput_total).toMatchObject({ value: 27204.47 + 25666.94 + 23002.72, unit: 'transactions_per_second', labels: { sending_thread_count: 3 } });
    expect(all.TCP_RR_Throughput_min?.value).toBe(23002.72);
    expect(all.TCP_RR_Throughput_max?.value).toBe(27204.47);
    expect(all.TCP_RR_Throughput_average?.value).toBeCloseTo((27204.47 + 25666.94 + 23002.72) / 3, 8);
    expect(all.TCP_RR_Throughput_p50?.value).toBe(25666.94);
    expect(all.TCP_RR_Transaction_Rate).toBeUndefined();
  });

  it('aggregates latency over all transactions, saying how', () => {
    const all = byMetric(trialSamples(rr).filter((s) => s.labels?.stream === undefined));
    expect(all.TCP_RR_Latency_min).toMatchObject({ value: 22, labels: { aggregation: 'min_of_streams' } });
    expect(all.TCP_RR_Latency_max).toMatchObject({ value: 8621, labels: { aggregation: 'max_of_streams' } });
    // Transactions = rate x elapsed (1.00 s each): the mean is weighted by them.
    const mean = (27204.47 * 36.64 + 25666.94 * 38.86 + 23002.72 * 43.35) / (27204.47 + 25666.94 + 23002.72);
    expect(all.TCP_RR_Latency_mean).toMatchObject({ labels: { aggregation: 'transaction_weighted_mean' } });
    expect(all.TCP_RR_Latency_mean?.value).toBeCloseTo(mean, 8);
    expect(all.TCP_RR_Latency_stddev?.labels?.aggregation).toBe('pooled');
    // Pooled stddev is at least the smallest per-stream stddev when the means differ.
    expect(all.TCP_RR_Latency_stddev?.value).toBeGreaterThan(27.07);
    const p50 = all.TCP_RR_Latency_p50;
    expect(p50?.labels?.aggregation).toBe('interpolated_cdf');
    expect(p50?.value).toBeGreaterThanOrEqual(34);
    expect(p50?.value).toBeLessThanOrEqual(41);
    expect(all.TCP_RR_Latency_p99?.value).toBeGreaterThanOrEqual(65);
    expect(all.TCP_RR_Latency_p99?.value).toBeLessThanOrEqual(78);
  });

  it('merges printed histograms when every stream has one, as PKB does', () => {
    const withHistogram = parseNetperfOutput(fixture('handmade-histogram-tcp_rr.txt'));
    const all = byMetric(trialSamples([withHistogram, withHistogram]).filter((s) => s.labels?.stream === undefined));
    expect(all.TCP_RR_Latency_Histogram?.histogram?.count).toBe(2 * 444658);
    expect(all.TCP_RR_Latency_p50).toMatchObject({ value: 100, labels: { aggregation: 'merged_histogram' } });
    expect(all.TCP_RR_Latency_p99?.value).toBe(200);
  });

  it('sums bulk throughput and retransmissions', () => {
    const streams = ['omni-csv-tcp_stream.txt', 'confidence-csv-tcp_stream.txt'].map((name) => parseNetperfOutput(fixture(name)));
    const all = byMetric(trialSamples(streams).filter((s) => s.labels?.stream === undefined));
    expect(all.TCP_STREAM_Throughput_total).toMatchObject({ value: 5553.06 + 5745.04, unit: 'Mbits/sec' });
    expect(all.TCP_STREAM_Local_Transport_Retransmissions?.value).toBe(248 + 225);
    expect(Object.keys(all).some((metric) => metric.includes('Latency'))).toBe(false);
  });
});
