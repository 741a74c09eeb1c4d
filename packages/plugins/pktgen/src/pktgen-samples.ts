import type { Labels, SampleInput } from '@netbench/plugin-api';
import type { PktgenResult } from './parse-result.js';

/** What the receiving end counted during the trial (`/proc/net/dev` of the server's interface, after minus before). */
export interface ReceiverCount {
  readonly device: string;
  readonly packets: number;
  readonly dropped: number;
}

/**
 * Samples of one pktgen run: the sender's packet rate (`Packet Rate`,
 * packets/s), its bit rate at `size` bytes a frame (`Throughput`, Mbits/sec,
 * as pktgen computes it: no FCS, preamble or gap), packets sent and transmit
 * errors; with a receiver count, what arrived and its rate over the sender's
 * time (`Received Packet Rate`), and the share that did not (`Packet Loss`).
 */
export function pktgenSamples(result: PktgenResult, receiver?: ReceiverCount, extraLabels: Labels = {}): SampleInput[] {
  const labels: Labels = {
    ...(result.destination !== undefined ? { destination: result.destination } : {}),
    size: result.size,
    device: result.device,
    ...extraLabels,
  };
  const sample = (metric: string, value: number, unit: string): SampleInput => ({ metric, value, unit, labels });
  const samples = [
    sample('Packet Rate', result.pps, 'packets/s'),
    sample('Throughput', result.bitsPerSecond / 1e6, 'Mbits/sec'),
    sample('Packets Sent', result.packets, 'count'),
    sample('Packet Errors', result.errors, 'count'),
    sample('Send Time', result.elapsedUs / 1e6, 'seconds'),
  ];
  if (receiver) {
    const seconds = result.elapsedUs / 1e6;
    samples.push(
      { ...sample('Packets Received', receiver.packets, 'count'), labels: { ...labels, receiver_device: receiver.device } },
      { ...sample('Received Packet Rate', seconds > 0 ? receiver.packets / seconds : 0, 'packets/s'), labels: { ...labels, receiver_device: receiver.device } },
      { ...sample('Receiver Drops', receiver.dropped, 'count'), labels: { ...labels, receiver_device: receiver.device } },
      // Other traffic the receiver got meanwhile (ARP) can make it count a few more than were sent: never below 0.
      {
        ...sample('Packet Loss', result.packets > 0 ? Math.max(0, (1 - receiver.packets / result.packets) * 100) : 0, 'percent'),
        labels: { ...labels, receiver_device: receiver.device },
      },
    );
  }
  return samples;
}
