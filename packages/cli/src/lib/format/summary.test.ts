import type { RunRecord, Sample } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { formatSummary } from './summary.js';

const trial = (id: string, tool: string, test: string) => ({
  id, tool, test, benchmarkName: tool, params: {}, cell: {}, client: 'client', server: 'server', status: 'succeeded' as const, attempts: 1, rawFiles: [], sampleCount: 3,
});
const sample = (trialId: string, metric: string, value: number, unit: string): Sample =>
  ({ metric, value, unit, timestamp: 0, labels: {}, runId: 'r', sampleId: `${trialId}-${metric}`, trialId } as unknown as Sample);

describe('the summary printed when a run ends', () => {
  it('reads like a network tool: metric names, µs/ms by magnitude, Gbit/s, tx/s — never ids or raw units', () => {
    const record = {
      runId: 'r', name: 'x', status: 'succeeded', startedAt: '', finishedAt: '', runDir: '', owner: '', netbenchVersion: '', hosts: [], phases: [], errors: [], labels: {},
      trials: [trial('t0001', 'netperf', 'TCP_RR'), trial('t0002', 'iperf3', 'tcp')],
    } as unknown as RunRecord;
    const text = formatSummary(record, [
      sample('t0001', 'TCP_RR_Transaction_Rate', 67_300.4, 'transactions_per_second'),
      sample('t0001', 'TCP_RR_Latency_p50', 15.2, 'us'),
      sample('t0001', 'TCP_RR_Latency_p99', 2_480, 'us'),
      sample('t0002', 'Throughput', 12_900, 'Mbits/sec'),
    ]);
    expect(text).toContain('Transaction rate 67,300 tx/s · Latency p50 15.2 µs · Latency p99 2.48 ms');
    expect(text).toContain('Throughput 12.9 Gbit/s');
    expect(text).not.toMatch(/transactions_per_second|Mbits\/sec|_Latency_| us\b/);
  });
});
