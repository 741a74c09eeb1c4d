import type { Sample, SampleInput } from '@netbench/plugin-api';
import { describe, expect, test } from 'vitest';
import { loadPhase, loadSummary, percentile, trimmedMean95 } from './load-summary.js';

const T0 = 1_000_000;
const window = { t0: T0, idleSeconds: 2, loadSeconds: 10 };
let id = 0;
const sample = (metric: string, value: number, at: number, labels: Sample['labels']): Sample => ({
  runId: 'r',
  sampleId: `s${(id += 1)}`,
  trialId: 't0001',
  metric,
  value,
  unit: metric === 'rtt' ? 'ms' : 'x',
  timestamp: T0 + at * 1000,
  labels: { series: 'interval', ...labels },
});
const ping = (at: number, ms: number) => sample('rtt', ms, at, { tool: 'ping', flow: 'icmp' });
const udp = (at: number, rate: number) => sample('UDP_RR_Transaction_Rate', rate, at, { tool: 'netperf', flow: 'udp' });
const final = (metric: string, value: number, flow: string): SampleInput => ({ metric, value, unit: 'Mbits/sec', labels: { flow } });

describe('latency-under-load summary', () => {
  test('phases: idle before the load and from 1 s after it, the first second of load is ramp', () => {
    expect(loadPhase(window, T0 + 1500, true)).toBe('idle');
    expect(loadPhase(window, T0 + 2500, true)).toBe('ramp');
    expect(loadPhase(window, T0 + 3500, true)).toBe('loaded');
    expect(loadPhase(window, T0 + 12_000, true)).toBe('loaded');
    expect(loadPhase(window, T0 + 12_500, true)).toBe('drain');
    expect(loadPhase(window, T0 + 13_500, true)).toBe('idle');
    expect(loadPhase(window, T0 + 5000, false)).toBe('idle');
  });

  test('percentiles interpolate between closest ranks; the trimmed mean drops what lies above the 95th percentile', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([5], 99)).toBe(5);
    expect(percentile([], 50)).toBeNaN();
    const values = [...Array.from({ length: 99 }, () => 10), 1000];
    expect(trimmedMean95(values)).toBe(10);
  });

  test('idle and loaded percentiles per probe, the increase, RPM from trimmed loaded RTTs, goodput per flow and in total', () => {
    const intervals = [
      ...[0.5, 1, 1.5].map((at) => ping(at, 0.1)),
      ping(2.5, 50), // ramp: left out
      ...[4, 6, 8, 10].map((at) => ping(at, 20)),
      ping(12.5, 30), // drain: left out
      ping(13.5, 0.2),
      udp(1, 10_000), // 0.1 ms
      udp(5, 50), // 20 ms
      sample('TCP_STREAM_Throughput', 40, 5, { tool: 'netperf', flow: 'up-1' }),
    ];
    const finals = [
      final('TCP_STREAM_Throughput', 45, 'up-1'),
      final('TCP_STREAM_Throughput', 47, 'up-2'),
      final('TCP_MAERTS_Throughput', 90, 'down-1'),
      final('TCP_STREAM_Throughput', 99, 'ignored-stream'),
    ].map((s, i) => (i === 3 ? { ...s, labels: { ...s.labels, stream: 1 } } : s));
    const out = loadSummary(window, intervals, finals);
    const get = (metric: string, probe?: string) => out.find((s) => s.metric === metric && (probe === undefined || s.labels?.probe === probe));
    expect(get('latency_idle_p50', 'icmp')?.value).toBe(0.1);
    expect(get('latency_idle_p50', 'icmp')?.labels?.probe_count).toBe(4);
    expect(get('latency_loaded_p50', 'icmp')).toMatchObject({ value: 20, unit: 'ms', labels: { load_direction: 'both', probe_count: 4 } });
    expect(get('latency_increase', 'icmp')?.value).toBe(19.9);
    expect(get('latency_loaded_p50', 'udp')?.value).toBe(20);
    expect(get('latency_idle_p50', 'udp')?.value).toBe(0.1);
    // Mean over probe kinds of each kind's trimmed loaded RTT: (20 + 20) / 2 → 3,000 round trips per minute.
    expect(get('responsiveness')).toMatchObject({ value: 3000, unit: 'RPM', labels: { probe: 'icmp+udp' } });
    expect(out.filter((s) => s.metric === 'goodput').map((s) => [s.labels?.flow, s.value])).toEqual([
      ['up-1', 45],
      ['up-2', 47],
      ['down-1', 90],
    ]);
    expect(get('goodput_upload')?.value).toBe(92);
    expect(get('goodput_download')?.value).toBe(90);
    expect(get('goodput_total')?.value).toBe(182);
  });

  test('without bulk flows (the ping test) every probe is idle and there is no loaded figure', () => {
    const out = loadSummary(window, [ping(1, 0.1), ping(5, 0.3)], []);
    expect(out.map((s) => s.metric)).toEqual(['latency_idle_p50', 'latency_idle_p90', 'latency_idle_p99']);
    expect(out[0]!.value).toBe(0.2);
  });

  test('irtt probes: RTT counts toward RPM, one-way delays get their own idle/loaded figures (which way the queue filled)', () => {
    const irtt = (metric: string, at: number, ms: number) => sample(metric, ms, at, { tool: 'irtt', flow: 'irtt' });
    const intervals = [
      ...[0.5, 1.5, 13.5].flatMap((at) => [irtt('rtt', at, 0.2), irtt('send_delay', at, 0.1), irtt('receive_delay', at, 0.1)]),
      // An upload fills the queue toward the server: the send delay grows, the receive delay stays.
      ...[4, 6, 8].flatMap((at) => [irtt('rtt', at, 30.1), irtt('send_delay', at, 30), irtt('receive_delay', at, 0.1)]),
      ping(4, 30),
    ];
    const out = loadSummary(window, intervals, [final('TCP_STREAM_Throughput', 90, 'up-1')]);
    const get = (metric: string, probe: string) => out.find((s) => s.metric === metric && s.labels?.probe === probe);
    expect(get('latency_idle_p50', 'irtt')?.value).toBe(0.2);
    expect(get('latency_loaded_p50', 'irtt')).toMatchObject({ value: 30.1, labels: { load_direction: 'upload', probe_count: 3 } });
    expect(get('send_delay_increase', 'irtt')?.value).toBe(29.9);
    expect(get('receive_delay_increase', 'irtt')?.value).toBe(0);
    expect(get('send_delay_loaded_p99', 'irtt')?.value).toBe(30);
    // One-way delays are not round trips: RPM averages the icmp and irtt RTTs only (60,000 / 30.05).
    expect(get('responsiveness', 'icmp+irtt')?.value).toBe(Math.round(60_000 / 30.05));
    expect(out.some((s) => s.metric.startsWith('send_delay') && s.labels?.probe !== 'irtt')).toBe(false);
  });
});
