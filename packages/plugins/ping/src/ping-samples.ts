import type { Labels, SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram } from '@netbench/plugin-api';
import type { PingOutput } from './parse-output.js';

/** Percentiles reported from the per-packet RTT histogram, with their metric names. */
const PERCENTILES: readonly (readonly [number, string])[] = [
  [50, 'Latency p50'],
  [90, 'Latency p90'],
  [99, 'Latency p99'],
  [99.9, 'Latency p99.9'],
];

/**
 * Samples of one ping run. Names follow PerfKit Benchmarker's ping benchmark
 * (`Min Latency`, `Average Latency`, `Max Latency`, `Latency Std Dev`, ms) so
 * results line up with PKB's; percentiles come from the per-packet RTTs, which
 * PKB does not keep. `Average Latency` carries the histogram (us) of every RTT.
 */
export function pingSamples(output: PingOutput, extraLabels: Labels = {}): SampleInput[] {
  const rtts = output.replies.flatMap((reply) => (reply.rttMs === undefined ? [] : [reply.rttMs]));
  const perPacket = rtts.length > 0;
  const labels: Labels = {
    destination: output.address,
    size: output.payloadBytes,
    flood: output.flood,
    // Flood (-f), quiet (-q) and tiny payloads (-s < 16) give no per-packet RTTs: no histogram, no percentiles.
    per_packet_rtts: perPacket,
    ...extraLabels,
  };
  // With -D, the last line's time is when the measurement ended (useful for `netbench import`).
  const timestamp = [...output.replies, ...output.errorReplies].reduce<number | undefined>(
    (latest, line) => (line.timestamp === undefined ? latest : Math.max(latest ?? 0, line.timestamp)),
    undefined,
  );
  const sample = (metric: string, value: number, unit: string, extra: Partial<SampleInput> = {}): SampleInput => ({
    metric,
    value,
    unit,
    labels,
    ...(timestamp === undefined ? {} : { timestamp }),
    ...extra,
  });

  const samples: SampleInput[] = [];
  const histogram = LatencyHistogram.create('us');
  // Replies repeat the same few hundred microsecond values: count them first, then record each once (a 100,000-packet log in milliseconds).
  const counts = new Map<number, number>();
  for (const rtt of rtts) {
    const us = Math.round(rtt * 1000);
    counts.set(us, (counts.get(us) ?? 0) + 1);
  }
  for (const [us, count] of counts) histogram.record(us, count);
  if (output.rtt) {
    samples.push(
      sample('Min Latency', output.rtt.min, 'ms'),
      sample('Average Latency', output.rtt.avg, 'ms', perPacket ? { histogram: histogram.encode() } : {}),
      sample('Max Latency', output.rtt.max, 'ms'),
      sample('Latency Std Dev', output.rtt.mdev, 'ms'),
    );
  }
  if (perPacket) {
    for (const [percentile, metric] of PERCENTILES) samples.push(sample(metric, histogram.percentile(percentile) / 1000, 'ms'));
  }
  const { summary } = output;
  samples.push(
    sample('Packet Loss', summary.lossPercent, 'percent'),
    sample('Packets Sent', summary.transmitted, 'count'),
    sample('Packets Received', summary.received, 'count'),
    sample('Duplicate Packets', summary.duplicates, 'count'),
    sample('Packet Errors', summary.errors, 'count'),
  );
  if (output.ipg) {
    samples.push(sample('Interpacket Gap', output.ipg.gapMs, 'ms'), sample('Latency EWMA', output.ipg.ewmaMs, 'ms'));
  }
  return samples;
}
