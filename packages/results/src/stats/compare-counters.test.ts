import type { TrialRecord } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { compareCounters, shortDiagnosis } from './compare-counters.js';

const shaped = (rate: number, throughput: number) => ({
  rule: 'shaped-link',
  host: 'shaped',
  summary: '…',
  threshold: '…',
  evidence: { dev: 'eth0', qdisc: 'tbf', rate, throughput, overlimits: 100, drops: 0 },
});

function trial(
  id: string,
  params: Record<string, string | number | boolean>,
  retrans: readonly [number, number],
  explain: { diagnoses?: NonNullable<TrialRecord['explain']>['diagnoses']; busy?: number; tool?: number } = {},
): TrialRecord {
  const end = (host: string, role: 'client' | 'server', r: number) => ({
    host,
    role,
    seconds: 5,
    protocols: { 'Tcp.RetransSegs': r, 'Tcp.OutSegs': 1000 },
    qdiscs: [{ drops: 0, overlimits: role === 'server' ? 50 : 0 }],
    softnet: [],
    cpus: explain.busy !== undefined ? [{ busy: explain.busy }] : [],
    cpuWindow: 'steady',
  });
  return {
    id,
    tool: 'iperf3',
    test: 'tcp',
    benchmarkName: 'shaped',
    params,
    cell: {},
    client: 'client',
    server: 'shaped',
    status: 'succeeded',
    attempts: 1,
    rawFiles: [],
    sampleCount: 1,
    explain: {
      diagnoses: explain.diagnoses ?? [],
      hosts: [end('client', 'client', retrans[0]), end('shaped', 'server', retrans[1])],
      ...(explain.tool !== undefined
        ? { toolCounters: [{ tool: 'iperf3', name: 'server_cpu_total', value: explain.tool, unit: 'percent', role: 'server' as const, host: 'shaped' }] }
        : {}),
    },
  } as TrialRecord;
}

const side = (runId: string, trials: TrialRecord[]) => trials.map((t) => ({ runId, trial: t }));

describe('compareCounters', () => {
  it('gives each side one value per trial (the largest over its ends) and what limited it, per configuration', () => {
    const a = side(
      'A',
      [1, 2, 3].map((r) => trial(`t${r}`, { streams: 1, repetition: r }, [r, 10 * r], { diagnoses: [shaped(50e6, (0.94 + r / 100) * 50e6)], busy: 0.5, tool: 10 * r })),
    );
    const b = side(
      'B',
      [1, 2, 3].map((r) => trial(`t${r}`, { streams: 1, repetition: r }, [0, r], { diagnoses: [shaped(100e6, 0.94 * 100e6)], busy: 0.25, tool: 5 })),
    );
    const [row, ...rest] = compareCounters(a, b);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ benchmark: 'shaped', tool: 'iperf3', test: 'tcp', params: { streams: 1 }, trials: { baseline: 3, candidate: 3 } });
    const counter = (name: string) => row!.counters.find((c) => c.name === name);
    // The server's retransmits were the larger on each trial: 10, 20, 30 against 1, 2, 3.
    expect(counter('tcp_retrans_segs')).toMatchObject({ unit: 'segments', baseline: { median: 20, min: 10, max: 30, n: 3, values: [10, 20, 30] }, candidate: { median: 2, n: 3 } });
    expect(counter('qdisc_overlimits')?.baseline?.median).toBe(50);
    expect(counter('cpu_busiest_busy')).toMatchObject({ unit: 'percent', baseline: { median: 50 }, candidate: { median: 25 } });
    expect(counter('iperf3.server_cpu_total')).toMatchObject({ baseline: { median: 20 }, candidate: { median: 5 } });
    // Nothing dropped anywhere, but whether the queue dropped is always shown; softnet drops that never moved are not.
    expect(counter('qdisc_drops')).toMatchObject({ baseline: { max: 0 } });
    expect(counter('softnet_dropped')).toBeUndefined();
    expect(row!.limitedBy.baseline).toEqual([{ rule: 'shaped-link', text: 'shaped-link 96 % of 50 Mbit/s', trials: 3, of: 3 }]);
    expect(row!.limitedBy.candidate).toEqual([{ rule: 'shaped-link', text: 'shaped-link 94 % of 100 Mbit/s', trials: 3, of: 3 }]);
  });

  it('never pools unlike configurations, leaves out trials without counters and one-sided configurations, and counts trials with no limit', () => {
    const a = side('A', [trial('t1', { streams: 1 }, [1, 1]), trial('t2', { streams: 4 }, [9, 9]), { ...trial('t3', { streams: 8 }, [0, 0]), explain: undefined } as TrialRecord]);
    const b = side('B', [
      trial('t1', { streams: 1 }, [2, 2], { diagnoses: [shaped(50e6, 49e6)] }),
      trial('t2', { streams: 4 }, [3, 3]),
      { ...trial('t4', { streams: 1 }, [7, 7]), status: 'failed' } as TrialRecord,
    ]);
    const rows = compareCounters(a, b);
    expect(rows.map((r) => r.params['streams'])).toEqual([1, 4]);
    const one = rows[0]!;
    expect(one.counters.find((c) => c.name === 'tcp_retrans_segs')).toMatchObject({ baseline: { values: [1] }, candidate: { values: [2] } });
    expect(rows[1]!.counters.find((c) => c.name === 'tcp_retrans_segs')).toMatchObject({ baseline: { values: [9] }, candidate: { values: [3] } });
    expect(one.limitedBy.baseline).toEqual([{ rule: 'none', text: 'no limit found', trials: 1, of: 1 }]);
    expect(one.limitedBy.candidate[0]).toMatchObject({ rule: 'shaped-link', trials: 1, of: 1 });
  });

  it('says each rule in a few words', () => {
    expect(shortDiagnosis(shaped(200e6, 191.4e6))).toBe('shaped-link 96 % of 200 Mbit/s');
    expect(shortDiagnosis({ rule: 'retransmits', summary: '', threshold: '', evidence: { retransSegs: 25, outSegs: 1000 } })).toBe('retransmits 2.5 %');
    expect(shortDiagnosis({ rule: 'receive-buffer', summary: '', threshold: '', evidence: { rcvbufErrors: 102293, inErrors: 0, inDatagrams: 1 } })).toBe(
      'receive-buffer 102,293 dropped',
    );
    expect(shortDiagnosis({ rule: 'mtu-mismatch', summary: '', threshold: '', evidence: { client: 1500, small: 1400 } })).toBe('mtu-mismatch client 1500, small 1400');
  });
});
