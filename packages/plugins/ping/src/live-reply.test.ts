import { describe, expect, it } from 'vitest';
import { LIVE_RTT_METRIC, PingReplyReader } from './live-reply.js';

describe('PingReplyReader (live per-packet values)', () => {
  it('reads each reply line into an RTT sample with its time since ping started', () => {
    const reader = new PingReplyReader(1_000_000);
    expect(reader.sample('PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.', 1_000_010)).toBeUndefined();
    const first = reader.sample('64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=0.062 ms', 1_000_050);
    expect(first).toEqual({ metric: LIVE_RTT_METRIC, value: 0.062, unit: 'ms', timestamp: 1_000_050, labels: { icmp_seq: 1, interval_start: 0, interval_end: 0.05 } });
    const second = reader.sample('[1732500000.123456] 64 bytes from 10.0.0.2: icmp_seq=2 ttl=64 time=1.25 ms', 1_000_250);
    expect(second?.value).toBe(1.25);
    expect(second?.labels).toEqual({ icmp_seq: 2, interval_start: 0.05, interval_end: 0.25 });
  });

  it('ignores errors, duplicates of nothing and the summary', () => {
    const reader = new PingReplyReader(0);
    for (const line of [
      'From 10.0.0.1 icmp_seq=3 Destination Host Unreachable',
      '--- 10.0.0.2 ping statistics ---',
      '5 packets transmitted, 5 received, 0% packet loss, time 4005ms',
      'rtt min/avg/max/mdev = 0.041/0.052/0.062/0.007 ms',
      '64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=abc ms',
    ])
      expect(reader.sample(line, 10)).toBeUndefined();
  });
});
