import type { Labels, SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram } from '@netbench/plugin-api';
import type { Hping3Output } from './parse-output.js';

const PERCENTILES: readonly (readonly [number, string])[] = [
  [50, 'Latency p50'],
  [90, 'Latency p90'],
  [99, 'Latency p99'],
];
/** hping3 prints every RTT as milliseconds with one decimal (`rtt=0.9 ms`). */
export const RTT_RESOLUTION_MS = 0.1;

/** What a flood run adds that hping3 does not print: how long it sent, and what the receiver counted. */
export interface FloodFacts {
  readonly seconds: number;
  readonly received?: { readonly device: string; readonly packets: number };
}

/**
 * syn: PerfKit-style latency names as the ping plugin's (ms), from every reply
 * line as printed (0.1 ms steps: `Average Latency` carries the histogram, us),
 * labelled `rtt_resolution_ms: 0.1`; loss and counts. flood: packets sent and,
 * with `flood` facts, the send rate and what the receiver counted.
 */
export function hping3Samples(output: Hping3Output, extraLabels: Labels = {}, flood?: FloodFacts): SampleInput[] {
  const labels: Labels = { destination: output.target, rtt_resolution_ms: RTT_RESOLUTION_MS, ...extraLabels };
  const sample = (metric: string, value: number, unit: string, extra: Partial<SampleInput> = {}): SampleInput => ({ metric, value, unit, labels, ...extra });
  if (output.flood) {
    const samples = [sample('Packets Sent', output.transmitted, 'count')];
    if (flood && flood.seconds > 0) {
      samples.push(sample('Packet Rate', output.transmitted / flood.seconds, 'packets/s'), sample('Send Time', flood.seconds, 'seconds'));
      if (flood.received) {
        const rl = { ...labels, receiver_device: flood.received.device };
        samples.push(
          { ...sample('Packets Received', flood.received.packets, 'count'), labels: rl },
          { ...sample('Received Packet Rate', flood.received.packets / flood.seconds, 'packets/s'), labels: rl },
        );
      }
    }
    return samples;
  }
  const samples: SampleInput[] = [];
  const rtts = output.replies.filter((r) => !r.duplicate).map((r) => r.rttMs);
  if (rtts.length > 0) {
    const histogram = LatencyHistogram.create('us');
    const counts = new Map<number, number>();
    for (const rtt of rtts) counts.set(Math.round(rtt * 1000), (counts.get(Math.round(rtt * 1000)) ?? 0) + 1);
    for (const [us, count] of counts) histogram.record(us, count);
    const mean = rtts.reduce((a, b) => a + b, 0) / rtts.length;
    const stddev = Math.sqrt(rtts.reduce((sum, rtt) => sum + (rtt - mean) ** 2, 0) / rtts.length);
    samples.push(
      sample('Min Latency', Math.min(...rtts), 'ms'),
      sample('Average Latency', mean, 'ms', { histogram: histogram.encode() }),
      sample('Max Latency', Math.max(...rtts), 'ms'),
      sample('Latency Std Dev', stddev, 'ms'),
      ...PERCENTILES.map(([percentile, metric]) => sample(metric, histogram.percentile(percentile) / 1000, 'ms')),
    );
  } else if (output.summary) {
    samples.push(sample('Min Latency', output.summary.min, 'ms'), sample('Average Latency', output.summary.avg, 'ms'), sample('Max Latency', output.summary.max, 'ms'));
  }
  const flags = [...new Set(output.replies.map((r) => r.flags))].sort().join(',');
  samples.push(
    sample('Packet Loss', output.lossPercent, 'percent'),
    sample('Packets Sent', output.transmitted, 'count'),
    sample('Packets Received', output.received, 'count', flags ? { labels: { ...labels, reply_flags: flags } } : {}),
    sample('Duplicate Packets', output.replies.filter((r) => r.duplicate).length, 'count'),
  );
  return samples;
}
