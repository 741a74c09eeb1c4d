import type { Labels, SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram } from '@netbench/plugin-api';
import type { FpingOutput, FpingTarget } from './parse-output.js';

const PERCENTILES: readonly (readonly [number, string])[] = [
  [50, 'Latency p50'],
  [90, 'Latency p90'],
  [99, 'Latency p99'],
  [99.9, 'Latency p99.9'],
];
const ICMP_HEADER_BYTES = 8;

/**
 * Samples of one fping output, per target (labelled `destination`), named
 * as the ping plugin names them (PerfKit Benchmarker's ping metrics, ms) so
 * fping and ping results line up: min/average/max/std dev, percentiles of
 * every reply (`Average Latency` carries the HdrHistogram, us), loss and
 * counts. Without per-packet round trips (`-c` with `-q`) only fping's
 * min/avg/max and the counts are known.
 */
export function fpingSamples(output: FpingOutput, extraLabels: Labels = {}): SampleInput[] {
  return output.targets.flatMap((target) => targetSamples(target, extraLabels));
}

function targetSamples(target: FpingTarget, extraLabels: Labels): SampleInput[] {
  const perPacket = target.rttsMs.length > 0;
  const labels: Labels = {
    destination: target.target,
    ...(target.packetBytes !== undefined ? { size: target.packetBytes - ICMP_HEADER_BYTES } : {}),
    per_packet_rtts: perPacket,
    ...extraLabels,
  };
  const sample = (metric: string, value: number, unit: string, extra: Partial<SampleInput> = {}): SampleInput => ({
    metric,
    value,
    unit,
    labels,
    ...(target.lastTimestamp !== undefined ? { timestamp: target.lastTimestamp } : {}),
    ...extra,
  });
  const samples: SampleInput[] = [];
  if (perPacket) {
    const histogram = LatencyHistogram.create('us');
    // Count equal microsecond values first and record each once: long runs repeat the same few hundred.
    const counts = new Map<number, number>();
    for (const rtt of target.rttsMs) counts.set(Math.round(rtt * 1000), (counts.get(Math.round(rtt * 1000)) ?? 0) + 1);
    for (const [us, count] of counts) histogram.record(us, count);
    const rtts = target.rttsMs;
    const mean = rtts.reduce((a, b) => a + b, 0) / rtts.length;
    // Population standard deviation, as ping's mdev.
    const stddev = Math.sqrt(rtts.reduce((sum, rtt) => sum + (rtt - mean) ** 2, 0) / rtts.length);
    samples.push(
      sample('Min Latency', Math.min(...rtts), 'ms'),
      sample('Average Latency', mean, 'ms', { histogram: histogram.encode() }),
      sample('Max Latency', Math.max(...rtts), 'ms'),
      sample('Latency Std Dev', stddev, 'ms'),
      ...PERCENTILES.map(([percentile, metric]) => sample(metric, histogram.percentile(percentile) / 1000, 'ms')),
    );
  } else if (target.summary) {
    samples.push(sample('Min Latency', target.summary.min, 'ms'), sample('Average Latency', target.summary.avg, 'ms'), sample('Max Latency', target.summary.max, 'ms'));
  }
  samples.push(
    sample('Packet Loss', target.lossPercent, 'percent'),
    sample('Packets Sent', target.sent, 'count'),
    sample('Packets Received', target.received, 'count'),
    sample('Duplicate Packets', target.duplicates, 'count'),
    sample('Packet Errors', target.icmpErrors, 'count'),
  );
  return samples;
}
