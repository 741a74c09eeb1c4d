import { describe, expect, it } from 'vitest';
import { keyCounters } from './key-counters.js';
import type { TrialExplainRecord } from './run-record.js';

const end = (host: string, role: 'client' | 'server', extra: Record<string, unknown>) => ({ host, role, seconds: 5, ...extra });

describe('keyCounters', () => {
  it("reads each end's retransmits, UDP errors, qdisc and softnet drops and busiest CPU, then the tool's own counters", () => {
    const explain = {
      diagnoses: [],
      hosts: [
        end('a', 'client', {
          protocols: { 'Tcp.RetransSegs': 7, 'Tcp.OutSegs': 700 },
          qdiscs: [
            { drops: 1, overlimits: 2 },
            { drops: 3, overlimits: 40 },
          ],
          softnet: [{ dropped: 0 }, { dropped: 5 }],
          cpus: [{ busy: 0.25 }, { busy: 0.9876 }],
          cpuWindow: 'steady',
        }),
        end('b', 'server', { protocols: { 'Udp.RcvbufErrors': 12 }, qdiscs: [], softnet: [], cpus: [{ busy: 1 }], cpuWindow: 'whole' }),
      ],
      toolCounters: [{ tool: 'iperf3', name: 'server_cpu_total', value: 40.5, unit: 'percent', role: 'server', host: 'b' }],
    } as unknown as TrialExplainRecord;
    const counters = keyCounters(explain);
    const of = (name: string, host?: string) => counters.find((c) => c.name === name && c.host === host);
    expect(of('tcp_retrans_segs', 'a')).toEqual({ name: 'tcp_retrans_segs', value: 7, unit: 'segments', host: 'a', role: 'client', source: 'counters' });
    expect(of('tcp_out_segs', 'a')?.value).toBe(700);
    expect(of('qdisc_drops', 'a')?.value).toBe(4);
    expect(of('qdisc_overlimits', 'a')?.value).toBe(42);
    expect(of('softnet_dropped', 'a')?.value).toBe(5);
    expect(of('cpu_busiest_busy', 'a')).toMatchObject({ value: 98.8, unit: 'percent' });
    // A counter that did not move is 0; an end without a steady CPU window (a short trial) has no CPU counter.
    expect(of('tcp_retrans_segs', 'b')?.value).toBe(0);
    expect(of('udp_rcvbuf_errors', 'b')?.value).toBe(12);
    expect(of('cpu_busiest_busy', 'b')).toBeUndefined();
    expect(of('iperf3.server_cpu_total', 'b')).toEqual({ name: 'iperf3.server_cpu_total', value: 40.5, unit: 'percent', host: 'b', role: 'server', source: 'iperf3' });
  });

  it('reads a record with missing parts without throwing', () => {
    expect(keyCounters({ diagnoses: [], hosts: [{ host: 'x', role: 'client' }] }).map((c) => [c.name, c.value])).toEqual([
      ['tcp_retrans_segs', 0],
      ['tcp_out_segs', 0],
      ['udp_rcvbuf_errors', 0],
      ['udp_in_errors', 0],
      ['qdisc_drops', 0],
      ['qdisc_overlimits', 0],
      ['softnet_dropped', 0],
    ]);
  });
});
