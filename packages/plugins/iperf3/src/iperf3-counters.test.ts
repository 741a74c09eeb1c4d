import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';
import { iperf3Counters } from './iperf3-counters.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const ends = { client: { name: 'a' }, server: { name: 'b' } };

describe('iperf3 counters', () => {
  it('gives each end the CPU its iperf3 used and the sender its retransmits, by role', () => {
    const json = JSON.parse(fixture('tcp-reverse.json')) as { end: { cpu_utilization_percent: { host_total: number; remote_total: number }; sum_sent: { retransmits: number } } };
    const counters = iperf3Counters({ test: 'tcp', params: {}, ...ends, samples: plugin.parse(fixture('tcp-reverse.json')) });
    expect(counters).toContainEqual({ name: 'client_cpu_total', value: json.end.cpu_utilization_percent.host_total, unit: 'percent', role: 'client' });
    expect(counters).toContainEqual({ name: 'server_cpu_total', value: json.end.cpu_utilization_percent.remote_total, unit: 'percent', role: 'server' });
    // -R: the server sends, so the retransmits are the server's.
    expect(counters).toContainEqual({ name: 'sender_retransmits', value: json.end.sum_sent.retransmits, unit: 'segments', role: 'server' });
  });

  it('leaves out what the output does not report (UDP has no retransmits)', () => {
    const counters = iperf3Counters({ test: 'udp', params: {}, ...ends, samples: plugin.parse(fixture('udp.json')) });
    expect(counters.map((c) => c.name)).not.toContain('sender_retransmits');
    expect(counters.map((c) => c.name)).toContain('server_cpu_total');
  });
});
