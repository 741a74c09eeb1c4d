import { readFileSync } from 'node:fs';
import type { SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { parsePingOutput } from './parse-output.js';
import { pingSamples } from './ping-samples.js';
import { pingPlugin } from './plugin.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const samplesOf = (name: string) => pingSamples(parsePingOutput(fixture(name), name));
const byMetric = (samples: readonly SampleInput[]) => Object.fromEntries(samples.map((s) => [s.metric, s]));
const values = (samples: readonly SampleInput[]) => Object.fromEntries(samples.map((s) => [s.metric, s.value]));

describe('pingSamples', () => {
  it('gives PKB-named summary metrics, percentiles and counts for a normal run', () => {
    const samples = samplesOf('ping-normal.txt');
    expect(values(samples)).toEqual({
      'Min Latency': 0.057,
      'Average Latency': 0.084,
      'Max Latency': 0.112,
      'Latency Std Dev': 0.012,
      // Nearest-rank percentiles of the 20 RTTs in the fixture.
      'Latency p50': 0.084,
      'Latency p90': 0.096,
      'Latency p99': 0.112,
      'Latency p99.9': 0.112,
      'Packet Loss': 0,
      'Packets Sent': 20,
      'Packets Received': 20,
      'Duplicate Packets': 0,
      'Packet Errors': 0,
    });
    const units = Object.fromEntries(samples.map((s) => [s.metric, s.unit]));
    expect(units).toMatchObject({ 'Min Latency': 'ms', 'Latency p99.9': 'ms', 'Packet Loss': 'percent', 'Packets Sent': 'count' });
    expect(samples[0]!.labels).toEqual({ destination: '10.213.7.2', size: 56, flood: false, per_packet_rtts: true });
  });

  it('attaches the histogram of every RTT (us) to Average Latency only', () => {
    const samples = samplesOf('ping-normal.txt');
    const average = byMetric(samples)['Average Latency']!;
    expect(average.histogram).toMatchObject({ encoding: 'hdr-base64', unit: 'us', count: 20 });
    const histogram = LatencyHistogram.decode(average.histogram!);
    expect(histogram.min).toBe(57);
    expect(histogram.max).toBe(112);
    expect(histogram.percentile(50)).toBe(84);
    expect(samples.filter((s) => s.histogram)).toHaveLength(1);
  });

  it('dates samples by the last -D timestamp', () => {
    const samples = samplesOf('ping-timestamps.txt');
    expect(new Set(samples.map((s) => s.timestamp))).toEqual(new Set([1795346081470]));
    expect(values(samples)).toMatchObject({ 'Latency p50': 0.077, 'Latency p90': 0.09, 'Latency p99': 0.097, 'Latency p99.9': 0.097 });
  });

  it('flood: summary stats and ipg/ewma, no histogram or percentiles, labelled so', () => {
    const samples = samplesOf('ping-flood.txt');
    const metrics = values(samples);
    expect(metrics).toMatchObject({ 'Average Latency': 0.011, 'Interpacket Gap': 0.02, 'Latency EWMA': 0.012, 'Packets Sent': 500 });
    expect(metrics['Latency p50']).toBeUndefined();
    expect(samples.some((s) => s.histogram)).toBe(false);
    expect(samples[0]!.labels).toMatchObject({ flood: true, per_packet_rtts: false });
  });

  it('100% loss: loss and counts only', () => {
    expect(values(samplesOf('ping-loss-100.txt'))).toEqual({
      'Packet Loss': 100,
      'Packets Sent': 3,
      'Packets Received': 0,
      'Duplicate Packets': 0,
      'Packet Errors': 0,
    });
  });

  it('counts errors of unreachable runs', () => {
    expect(values(samplesOf('ping-unreachable.txt'))).toMatchObject({ 'Packet Loss': 100, 'Packet Errors': 2 });
  });

  it('keeps duplicates in the histogram, as ping keeps them in its own stats', () => {
    const samples = samplesOf('ping-duplicates.txt');
    expect(byMetric(samples)['Average Latency']!.histogram!.count).toBe(7);
    expect(values(samples)).toMatchObject({ 'Duplicate Packets': 4, 'Packets Received': 3, 'Latency p50': 0.19, 'Latency p90': 0.27 });
  });

  it('keeps large RTTs within HdrHistogram precision (3 significant digits)', () => {
    const metrics = values(samplesOf('ping-partial-loss.txt'));
    expect(metrics['Packet Loss']).toBe(75);
    expect(metrics['Latency p50']).toBeGreaterThanOrEqual(293);
    expect(metrics['Latency p50']).toBeLessThan(293 * 1.001);
    expect(metrics['Latency p99']).toBeGreaterThanOrEqual(350);
    expect(metrics['Latency p99']).toBeLessThan(350 * 1.001);
  });

  it('no RTTs (tiny payload): counts only, labelled per_packet_rtts false', () => {
    const samples = samplesOf('ping-no-time.txt');
    expect(samples.map((s) => s.metric)).toEqual(['Packet Loss', 'Packets Sent', 'Packets Received', 'Duplicate Packets', 'Packet Errors']);
    expect(samples[0]!.labels).toMatchObject({ size: 8, per_packet_rtts: false });
  });

  it('is what the plugin parse() returns (labelled test: icmp, for import), with extra labels merged by run()', () => {
    const raw = fixture('ping-normal.txt');
    const expected = samplesOf('ping-normal.txt').map((s) => ({ ...s, labels: { ...s.labels, test: 'icmp' } }));
    expect(pingPlugin().parse(raw, { source: 'x.txt' })).toEqual(expected);
    const labelled = pingSamples(parsePingOutput(raw), { direction: 'reverse', count: 20 });
    expect(labelled[0]!.labels).toMatchObject({ direction: 'reverse', count: 20, destination: '10.213.7.2' });
  });
});
