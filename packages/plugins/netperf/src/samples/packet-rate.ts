import type { Labels, SampleInput } from '@netbench/plugin-api';
import type { NetperfResult } from '../result.js';

export const PACKETS_PER_SECOND = 'packets_per_second';

/** Largest UDP payload in one IPv4 packet on a 1500-byte MTU (bigger messages fragment). */
const UDP_PAYLOAD_MAX = 1472;
/** Largest TCP payload in one segment on a 1500-byte MTU without options (bigger requests take more segments). */
const TCP_PAYLOAD_MAX = 1460;

/**
 * Packets per second of one netperf process, where netperf's own figures
 * say it exactly (PKB's netperf_aggregate reads packet rates the same way):
 * - UDP_RR / TCP_RR: every transaction is one request packet and one response
 *   packet while both fit one packet, so 2 × transactions/s (TCP's pure ACKs,
 *   if any, are not counted: with a response due at once they ride on it);
 * - UDP_STREAM: messages the receiver got per second, remote receive
 *   throughput over message size, while a message fits one packet.
 * Nothing otherwise (TCP_CRR opens connections; TCP streams segment freely).
 */
export function packetRate(result: NetperfResult): { value: number; labels: Labels } | undefined {
  const { test, fields } = result;
  const size = (name: string) => {
    const value = Number(fields[name]);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  if (test === 'UDP_RR' || test === 'TCP_RR') {
    const max = test === 'UDP_RR' ? UDP_PAYLOAD_MAX : TCP_PAYLOAD_MAX;
    const request = size('REQUEST_SIZE') ?? 1;
    const response = size('RESPONSE_SIZE') ?? 1;
    if (request > max || response > max) return undefined;
    return { value: 2 * result.throughput, labels: { packets_per_transaction: 2 } };
  }
  if (test === 'UDP_STREAM') {
    const message = size('LOCAL_SEND_SIZE');
    const received = Number(fields.REMOTE_RECV_THROUGHPUT);
    if (message === undefined || message > UDP_PAYLOAD_MAX || !Number.isFinite(received) || !/10\^6bits\/s/.test(result.rawThroughputUnits)) return undefined;
    return { value: (received * 1e6) / (8 * message), labels: { packet_rate_from: 'remote_receive_throughput' } };
  }
  return undefined;
}

/** `<TEST>_Packet_Rate` of one process, when `packetRate` knows it. */
export function packetRateSamples(result: NetperfResult, labels: Labels): SampleInput[] {
  const rate = packetRate(result);
  return rate ? [{ metric: `${result.test}_Packet_Rate`, value: rate.value, unit: PACKETS_PER_SECOND, labels: { ...labels, ...rate.labels } }] : [];
}

/** `<TEST>_Packet_Rate_total` over a trial's streams, when every stream's rate is known. */
export function packetRateTotal(results: readonly NetperfResult[], labels: Labels): SampleInput[] {
  const rates = results.map(packetRate);
  if (rates.length === 0 || rates.some((rate) => rate === undefined)) return [];
  const total = rates.reduce((sum, rate) => sum + rate!.value, 0);
  return [{ metric: `${results[0]!.test}_Packet_Rate_total`, value: total, unit: PACKETS_PER_SECOND, labels: { ...labels, ...rates[0]!.labels } }];
}
