import type { Labels, SampleInput } from '@netbench/plugin-api';
import type { IperfFlow, IperfResult } from './parse/iperf-result.js';

const MBIT = 1e6;

/**
 * Samples of one iperf 2 output. The headline is PerfKit Benchmarker's
 * iperf benchmark's: `Throughput` (TCP) or `UDP Throughput` (UDP), Mbits/sec,
 * summed over streams; here it is what the receiver got when the output
 * says (a UDP client's server report, a server's own report), else what the
 * sender sent, labelled `measured_at`. The counters PKB keeps as metadata
 * (writes, retries, RTT, jitter, lost/total datagrams, out of order) are
 * samples of their own. Every sample is labelled `direction` (forward:
 * client → server). `Interval Throughput` is the `-i` time series.
 */
export function iperfSamples(result: IperfResult, extraLabels: Labels = {}): SampleInput[] {
  const labels: Labels = {
    protocol: result.protocol,
    report_from: result.side,
    enhanced_reports: result.enhanced,
    ...(result.bufferBytes !== undefined ? { buffer_size: result.bufferBytes } : {}),
    ...(result.windowBytes !== undefined ? { window_size: result.windowBytes } : {}),
    ...(result.datagramBytes !== undefined ? { datagram_size: result.datagramBytes } : {}),
    ...extraLabels,
  };
  const at = (seconds: number) => (result.startedAt === undefined ? {} : { timestamp: Math.round(result.startedAt + seconds * 1000) });
  const samples: SampleInput[] = [];
  for (const flow of result.flows) samples.push(...flowSamples(result, flow, { ...labels, direction: flow.direction, streams: flow.streams }, at));
  for (const interval of result.intervals) {
    samples.push({
      metric: 'Interval Throughput',
      value: interval.bitsPerSecond / MBIT,
      unit: 'Mbits/sec',
      labels: { ...labels, direction: interval.direction, interval_start: interval.start, interval_end: interval.end },
      ...at(interval.end),
    });
  }
  return samples;
}

function flowSamples(result: IperfResult, flow: IperfFlow, labels: Labels, at: (seconds: number) => { timestamp?: number }): SampleInput[] {
  const headline = flow.received ?? flow.sent!;
  const end = at(Math.max(flow.sent?.seconds ?? 0, flow.received?.seconds ?? 0));
  const sample = (metric: string, value: number | undefined, unit: string, extra: Labels = {}): SampleInput[] =>
    value === undefined || !Number.isFinite(value) ? [] : [{ metric, value, unit, labels: { ...labels, ...extra }, ...end }];
  const udp = result.protocol === 'udp';
  const { sent, received } = flow;
  const samples: SampleInput[] = [
    ...sample(udp ? 'UDP Throughput' : 'Throughput', headline.bitsPerSecond / MBIT, 'Mbits/sec', { measured_at: flow.received ? 'receiver' : 'sender' }),
    ...(sent ? sample('Sent Throughput', sent.bitsPerSecond / MBIT, 'Mbits/sec') : []),
    ...sample('Writes', sent?.writes, 'count'),
    ...sample('Write Errors', sent?.writeErrors, 'count'),
  ];
  if (!udp) {
    samples.push(...sample('Retransmits', sent?.retries, 'count'), ...sample('RTT', sent?.rttUs, 'us'));
  } else {
    const lossPercent = received?.lost !== undefined && received.total ? (received.lost / received.total) * 100 : undefined;
    samples.push(
      ...sample('Packets Per Second', sent?.pps, 'packets/sec'),
      ...sample('Jitter', received?.jitterMs, 'ms'),
      ...sample('Lost Datagrams', received?.lost, 'count'),
      ...sample('Total Datagrams', received?.total, 'count'),
      ...sample('Packet Loss', lossPercent, 'percent'),
      ...sample('Out Of Order', flow.outOfOrder, 'count'),
    );
  }
  return samples;
}
