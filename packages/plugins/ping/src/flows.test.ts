import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { eachLine, pingFlows, replySample } from './flows.js';
import { pingPlugin } from './plugin.js';

describe('ping as a flow', () => {
  test('declares flows with interval samples and aggregates nothing across probes', () => {
    expect(pingPlugin().flows).toBe(pingFlows);
    expect(pingFlows.intervals).toBe(true);
    expect(pingFlows.combine('Latency p50', 'ms')).toBeUndefined();
  });

  test("each reply line is an rtt sample on the controller clock, with ping's own -D time as a label", () => {
    expect(replySample('[1732512345.123456] 64 bytes from 10.213.0.2: icmp_seq=7 ttl=64 time=12.5 ms', 42)).toEqual({
      metric: 'rtt',
      value: 12.5,
      unit: 'ms',
      timestamp: 42,
      labels: { icmp_seq: 7, host_clock: 1732512345123 },
    });
    expect(replySample('64 bytes from 10.213.0.2: icmp_seq=1 ttl=64 time=0.045 ms', 1)?.labels).toEqual({ icmp_seq: 1 });
    expect(replySample('PING 10.213.0.2 (10.213.0.2) 56(84) bytes of data.', 1)).toBeUndefined();
    expect(replySample('From 10.213.0.1 icmp_seq=3 Destination Host Unreachable', 1)).toBeUndefined();
  });

  test('lines split across chunks are read whole', () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    eachLine(stream, (line) => lines.push(line));
    stream.write('64 bytes from a: icmp_seq=1 ttl=64 ti');
    stream.write('me=1 ms\n64 bytes');
    stream.write(' from a: icmp_seq=2 ttl=64 time=2 ms\n');
    expect(lines.map((l) => replySample(l, 0)?.value)).toEqual([1, 2]);
  });
});
