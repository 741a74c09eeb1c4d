import type { Labels, SampleInput } from '@netbench/plugin-api';
import type { Iperf3Result } from './parse-result.js';

const MBIT = 1e6;

/**
 * Samples of one iperf3 test. `Throughput` (Mbits/sec) is PerfKit
 * Benchmarker's name, taken at the receiver (what arrived); the rest follow
 * its style. Every sample of a direction is labelled `direction`
 * (forward: client → server, reverse: server → client), so `--bidir` gives
 * two of each. `Interval Throughput` is the time series, one per report
 * interval, labelled `interval_start`/`interval_end` (seconds, as iperf3 counts
 * them: from the start for `-O` warm-up intervals, from the end of the warm-up
 * for measured ones) and `omitted`.
 */
export function iperf3Samples(result: Iperf3Result, extraLabels: Labels = {}): SampleInput[] {
  const labels: Labels = {
    protocol: result.protocol,
    streams: result.streams,
    duration: result.duration,
    omit: result.omit,
    reverse: result.reverse,
    bidir: result.bidir,
    ...(result.blockSize === undefined ? {} : { block_size: result.blockSize }),
    // Bits/s per stream; 0 = unlimited.
    ...(result.targetBitrate === undefined ? {} : { target_bitrate: result.targetBitrate }),
    ...(result.congestion === undefined ? {} : { congestion: result.congestion }),
    // What each end used (iperf3 reports them by role: the sender is the server with -R).
    ...ccLabels(result),
    ...(result.tcpMssDefault === undefined ? {} : { tcp_mss_default: result.tcpMssDefault }),
    ...extraLabels,
  };
  const at = (secondsIntoTest: number) => (result.startedAt === undefined ? {} : { timestamp: Math.round(result.startedAt + secondsIntoTest * 1000) });
  const samples: SampleInput[] = [];

  for (const flow of result.flows) {
    const flowLabels = { ...labels, direction: flow.direction };
    const end = at(result.omit + Math.max(flow.sent.end, flow.received.end));
    const sample = (metric: string, value: number, unit: string): SampleInput => ({ metric, value, unit, labels: flowLabels, ...end });
    samples.push(
      sample('Throughput', flow.received.bits_per_second / MBIT, 'Mbits/sec'),
      sample('Sent Throughput', flow.sent.bits_per_second / MBIT, 'Mbits/sec'),
      sample('Bytes Sent', flow.sent.bytes, 'bytes'),
      sample('Bytes Received', flow.received.bytes, 'bytes'),
    );
    if (result.protocol === 'tcp' && flow.sent.retransmits !== undefined) samples.push(sample('Retransmits', flow.sent.retransmits, 'count'));
    if (result.protocol === 'udp') {
      if (flow.received.jitter_ms !== undefined) samples.push(sample('Jitter', flow.received.jitter_ms, 'ms'));
      if (flow.received.lost_packets !== undefined) samples.push(sample('Lost Packets', flow.received.lost_packets, 'count'));
      if (flow.received.lost_percent !== undefined) samples.push(sample('Packet Loss', flow.received.lost_percent, 'percent'));
      if (flow.sent.packets !== undefined) samples.push(sample('Packets Sent', flow.sent.packets, 'count'));
      if (flow.outOfOrder !== undefined) samples.push(sample('Out Of Order', flow.outOfOrder, 'count'));
    }
  }

  if (result.cpu) {
    const end = at(result.duration + result.omit);
    for (const role of ['client', 'server'] as const) {
      const name = role === 'client' ? 'Client' : 'Server';
      const cpu = result.cpu[role];
      samples.push(
        { metric: `${name} CPU Utilization`, value: cpu.total, unit: 'percent', labels, ...end },
        { metric: `${name} CPU User`, value: cpu.user, unit: 'percent', labels, ...end },
        { metric: `${name} CPU System`, value: cpu.system, unit: 'percent', labels, ...end },
      );
    }
  }

  for (const interval of result.intervals) {
    samples.push({
      metric: 'Interval Throughput',
      value: interval.bitsPerSecond / MBIT,
      unit: 'Mbits/sec',
      labels: { ...labels, direction: interval.direction, interval_start: interval.start, interval_end: interval.end, omitted: interval.omitted },
      // Omitted intervals count from the very start; measured ones restart at 0 after the warm-up.
      ...at(interval.omitted ? interval.end : result.omit + interval.end),
    });
  }
  return samples;
}

/** `client_cc` and `server_cc`: the congestion control each end's socket used, from iperf3's sender/receiver report. */
function ccLabels(result: Iperf3Result): Labels {
  const [client, server] = result.reverse ? [result.receiverCongestion, result.congestion] : [result.congestion, result.receiverCongestion];
  return { ...(client === undefined ? {} : { client_cc: client }), ...(server === undefined ? {} : { server_cc: server }) };
}
