import type { Labels, MetricDeclaration, SampleInput } from '@netbench/plugin-api';
import { LatencyHistogram } from '@netbench/plugin-api';
import type { IrttDurationStats, IrttResult } from './parse-result.js';

const PERCENTILES: readonly (readonly [number, string])[] = [
  [50, 'p50'],
  [90, 'p90'],
  [99, 'p99'],
  [99.9, 'p99_9'],
];
const MS_PER_NS = 1e-6;

/** The headline metrics, for charts, the report's results cell and `compare`. */
export const IRTT_METRICS: Readonly<Record<string, MetricDeclaration>> = {
  rtt_p50: { role: 'latency', better: 'lower', primary: true },
  // The result; the percentiles come from its histogram of every received packet.
  rtt_mean: { role: 'latency', better: 'lower', statistic: 'mean' },
  rtt_p99: { role: 'latency', better: 'lower' },
  send_delay_median: { role: 'latency', better: 'lower' },
  receive_delay_median: { role: 'latency', better: 'lower' },
  ipdv_mean: { role: 'jitter', better: 'lower' },
  packet_loss: { role: 'loss', better: 'lower' },
  upstream_loss: { role: 'loss', better: 'lower' },
  downstream_loss: { role: 'loss', better: 'lower' },
};

/**
 * Samples of one irtt run, times in ms. Summary statistics are irtt's own
 * (`stats`); percentiles and the histograms (µs, on `rtt_mean`,
 * `send_delay_mean`, `receive_delay_mean`) come from every received packet of
 * `round_trips`. One-way delays compare the two hosts' wall clocks: exact
 * between namespaces of one machine, only as good as clock sync elsewhere.
 * With `perPacket`, every packet is a sample too (`series: per_packet`,
 * stamped with its send time); lost ones are `packet_lost` with their direction.
 */
export function irttSamples(result: IrttResult, extraLabels: Labels = {}, options: { perPacket?: boolean } = {}): SampleInput[] {
  const labels: Labels = {
    destination: result.remoteAddress,
    packet_length: result.length,
    irtt_version: result.version,
    ...extraLabels,
  };
  const end = result.startTime === undefined ? undefined : result.startTime + result.durationNs * MS_PER_NS;
  const sample = (metric: string, value: number, unit: string, extra: Partial<SampleInput> = {}): SampleInput => ({
    metric,
    value,
    unit,
    labels,
    ...(end === undefined ? {} : { timestamp: Math.round(end) }),
    ...extra,
  });
  const received = result.roundTrips.filter((trip) => trip.lost === 'false');
  const histogram = (pick: (trip: (typeof received)[number]) => number | undefined) => {
    const h = LatencyHistogram.create('us');
    for (const trip of received) {
      const ns = pick(trip);
      if (ns !== undefined && ns >= 0) h.record(ns / 1000);
    }
    return h;
  };
  const samples: SampleInput[] = [];
  const stats = (prefix: string, series: IrttDurationStats | undefined, h?: LatencyHistogram) => {
    if (!series) return;
    const withHistogram = h && h.count > 0 ? { histogram: h.encode() } : {};
    samples.push(
      sample(`${prefix}_min`, series.min * MS_PER_NS, 'ms'),
      sample(`${prefix}_mean`, series.mean * MS_PER_NS, 'ms', withHistogram),
      ...(series.median === undefined ? [] : [sample(`${prefix}_median`, series.median * MS_PER_NS, 'ms')]),
      sample(`${prefix}_max`, series.max * MS_PER_NS, 'ms'),
      sample(`${prefix}_stddev`, series.stddev * MS_PER_NS, 'ms'),
    );
    if (h && h.count > 0) for (const [p, name] of PERCENTILES) samples.push(sample(`${prefix}_${name}`, h.percentile(p) / 1000, 'ms'));
  };
  stats(
    'rtt',
    result.rtt,
    histogram((trip) => trip.rtt),
  );
  stats(
    'send_delay',
    result.sendDelay,
    histogram((trip) => trip.sendDelay),
  );
  stats(
    'receive_delay',
    result.receiveDelay,
    histogram((trip) => trip.receiveDelay),
  );
  stats('ipdv', result.ipdv);
  stats('send_ipdv', result.sendIpdv);
  stats('receive_ipdv', result.receiveIpdv);
  samples.push(
    sample('packet_loss', result.lossPercent, 'percent'),
    sample('packets_sent', result.packetsSent, 'count'),
    sample('packets_received', result.packetsReceived, 'count'),
    sample('duplicates', result.duplicates, 'count'),
    sample('late_packets', result.latePackets, 'count'),
    sample('timer_misses', result.timerMisses, 'count'),
  );
  if (result.serverPacketsReceived !== undefined) {
    samples.push(
      sample('server_packets_received', result.serverPacketsReceived, 'count'),
      sample('upstream_loss', result.upstreamLossPercent ?? 0, 'percent'),
      sample('downstream_loss', result.downstreamLossPercent ?? 0, 'percent'),
    );
  }
  if (options.perPacket) samples.push(...perPacketSamples(result, labels));
  return samples;
}

const LOST_DIRECTION = { true: 'unknown', true_up: 'up', true_down: 'down' } as const;

function perPacketSamples(result: IrttResult, labels: Labels): SampleInput[] {
  const out: SampleInput[] = [];
  const series = { ...labels, series: 'per_packet' };
  for (const trip of result.roundTrips) {
    const timestamp = trip.sentAt === undefined ? undefined : Math.round(trip.sentAt);
    const at = timestamp === undefined ? {} : { timestamp };
    if (trip.lost !== 'false') {
      out.push({ metric: 'packet_lost', value: 1, unit: 'count', labels: { ...series, lost: LOST_DIRECTION[trip.lost] }, ...at });
      continue;
    }
    for (const [metric, ns] of [
      ['rtt', trip.rtt],
      ['send_delay', trip.sendDelay],
      ['receive_delay', trip.receiveDelay],
    ] as const) {
      if (ns !== undefined) out.push({ metric, value: ns * MS_PER_NS, unit: 'ms', labels: series, ...at });
    }
  }
  return out;
}
