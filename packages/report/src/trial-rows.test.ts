import type { ShownTrial } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { diagnosisLines, toolCountersText, trialRows } from './trial-rows.js';

const trial = (id: string, over: Partial<ShownTrial>): ShownTrial => ({
  id,
  tool: 'netperf',
  test: 'TCP_RR',
  benchmark: 'b',
  status: 'succeeded',
  params: {},
  client: 'a',
  server: 'b',
  metrics: [],
  summary: {},
  ...over,
});

describe('trialRows: one summary row per trial', () => {
  it('reads like a network tool: rate or throughput, p50/p90/p99/p99.9 by magnitude, — for what the tool did not give', () => {
    const rows = trialRows([
      trial('t1', {
        params: { requestSize: 1 },
        summary: {
          headline: { metric: 'TCP_RR_Transaction_Rate', value: 23518.4, unit: 'transactions_per_second' },
          latency: { unit: 'us', p50: 13, p90: 38, p99: 1750, source: 'tool', metric: 'TCP_RR latency' },
        },
      }),
      trial('t2', {
        tool: 'ping',
        test: 'icmp',
        params: { requestSize: 64, direction: 'reverse' },
        summary: {
          headline: { metric: 'Average Latency', value: 0.078, unit: 'ms' },
          latency: { unit: 'ms', p50: 0.067, p90: 0.08, p99: 0.137, p999: 0.249, source: 'histogram', metric: 'Average Latency' },
          loss: { metric: 'Packet Loss', value: 0, unit: 'percent' },
        },
      }),
      trial('t3', { tool: 'iperf3', test: 'tcp', params: { requestSize: 64 }, summary: { headline: { metric: 'Throughput', value: 16200, unit: 'Mbits/sec' } } }),
      trial('t4', { status: 'failed', params: { requestSize: 64 } }),
    ]);
    expect(rows[0]).toEqual({ hosts: 'a → b', parameters: 'requestSize=1', result: '23,518 tx/s', p50: '13 µs', p90: '38 µs', p99: '1.75 ms', p999: '—', loss: '', n: '' });
    expect(rows[1]).toMatchObject({ hosts: 'a → b (reverse)', result: 'mean 78 µs', p50: '67 µs', p999: '249 µs', loss: '0%' });
    expect(rows[2]).toMatchObject({ result: '16.2 Gbit/s', p50: '', loss: '' });
    expect(rows[3]!.result).toBe('failed');
    for (const row of rows) expect(Object.values(row).join(' ')).not.toMatch(/e\+|transactions_per_second|Mbits\/sec/);
  });

  it('leaves the hosts of imported files blank and parameters shared by every trial out', () => {
    const rows = trialRows([trial('t1', { client: 'unknown', server: 'unknown', params: { duration: 5 } }), trial('t2', { params: { duration: 5 } })]);
    expect(rows.map((r) => [r.hosts, r.parameters])).toEqual([
      ['', ''],
      ['a → b', ''],
    ]);
  });

  it('tells plain and tunnel rows apart, and says how many HTTP requests failed and why', () => {
    const rate = { headline: { metric: 'HTTP_Request_Rate', value: 0, unit: 'requests/s' } };
    const rows = trialRows([
      trial('t1', { tunnel: 'none' }),
      trial('t2', { tunnel: 'wireguard' }),
      // examples/tunnels.yaml names its tunnels wg, ipsec, ovpn: the row says the type too.
      trial('t5', { tunnel: 'wg', tunnelType: 'wireguard' }),
      trial('t6', { tunnel: 'ipsec', tunnelType: 'ipsec' }),
      trial('t3', {
        tool: 'http',
        test: 'wrk',
        summary: {
          ...rate,
          errors: {
            count: 112578,
            of: 112600,
            kinds: [
              ['status', 112570],
              ['timeout', 8],
            ],
          },
        },
      }),
      trial('t4', { tool: 'http', test: 'wrk', summary: rate }),
    ]);
    expect(rows.map((r) => r.hosts).slice(0, 4)).toEqual(['a → b (plain)', 'a → b via wireguard', 'a → b via wg (wireguard)', 'a → b via ipsec']);
    expect(rows[4]!.result).toBe('0 req/s · 112,578 of 112,600 requests failed (error status 112,570, timeout 8)');
    expect(rows[5]!.result).toBe('0 req/s');
  });
});

describe("a tool's own counters under the trial", () => {
  it('says them per tool, with the end each was measured on', () => {
    const counters = [
      { tool: 'iperf3', name: 'client_cpu_total', value: 1.64, unit: 'percent', role: 'client' as const, host: 'client' },
      { tool: 'iperf3', name: 'sender_retransmits', value: 3384, unit: 'segments', role: 'server' as const, host: 'shaped' },
    ];
    expect(toolCountersText(counters)).toBe('iperf3 counted: client_cpu_total 1.64 percent (client), sender_retransmits 3,384 segments (server shaped)');
    const trial = { id: 't0001', explain: { diagnoses: [], toolCounters: counters } } as unknown as ShownTrial;
    expect(diagnosisLines([trial])).toEqual(['what limited each trial (host counters; docs/explain.md):', `  t0001  ${toolCountersText(counters)}`, '  no limit found: t0001']);
  });
});
