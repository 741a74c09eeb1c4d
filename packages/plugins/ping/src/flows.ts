import type { FlowCombine, FlowSupport, SampleInput } from '@netbench/plugin-api';
import { type PlainReply, readPlainReply } from './plain-reply.js';

/**
 * ping as a flow of a synchronized trial (docs/flows.md): a latency probe
 * next to bulk flows (docs/latency-under-load.md). Each reply is an interval
 * sample (`rtt`, ms) stamped when its line reached the controller, so the
 * probes share one clock with the bulk flows' interval samples. Final
 * latencies are per flow only: averaging two probes' percentiles would mean
 * nothing.
 */
export const pingFlows: FlowSupport = {
  intervals: true,
  combine(): FlowCombine | undefined {
    return undefined;
  },
};

/**
 * The interval sample of one reply line (`[TS] N bytes from A: icmp_seq=S
 * ttl=T time=R ms`), or `undefined` for any other line. `receivedAt` is the
 * controller's clock; ping's own `-D` time (the pinging host's clock) is kept
 * as the `host_clock` label (ms since the epoch) when it was printed.
 */
export function replySample(line: string, receivedAt: number): SampleInput | undefined {
  const reply: PlainReply = { timestamp: undefined, bytes: 0, from: '', seq: 0, ttl: 0, rttMs: 0 };
  if (!readPlainReply(line, '', reply)) return undefined;
  return {
    metric: 'rtt',
    value: reply.rttMs,
    unit: 'ms',
    timestamp: receivedAt,
    labels: { icmp_seq: reply.seq, ...(reply.timestamp !== undefined ? { host_clock: reply.timestamp } : {}) },
  };
}

/** Calls `onLine` for every complete line of a byte stream. */
export function eachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = '';
  stream.on('data', (chunk: Buffer | string) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}
