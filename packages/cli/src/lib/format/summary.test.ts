import type { RunRecord, Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { formatSummary } from './summary.js';

const trial = {
  id: 't0001',
  tool: 'netperf',
  test: 'TCP_RR',
  benchmarkName: 'netperf',
  params: { duration: 10, streams: 1, nodelay: false },
  cell: {},
  client: 'client',
  server: 'server',
  status: 'succeeded' as const,
  attempts: 1,
  rawFiles: [],
  sampleCount: 1,
};
const record: RunRecord = {
  runId: '20261125-020000-abcdef',
  name: 'summary',
  status: 'succeeded',
  startedAt: '2026-11-25T02:00:00.000Z',
  finishedAt: '2026-11-25T02:00:12.000Z',
  runDir: '/tmp/x',
  owner: 'me',
  netbenchVersion: '0.1.0',
  hosts: [],
  trials: [trial],
  phases: [],
  errors: [],
  labels: {},
};
const sample: Sample = { metric: 'TCP_RR_Latency_p50', value: 41, unit: 'us', timestamp: 0, labels: {}, runId: record.runId, sampleId: 's1', trialId: 't0001' };

describe('the run summary', () => {
  it('shows every parameter that decides the result, the duration included; off switches are left out', () => {
    const text = formatSummary(record, [sample]);
    expect(text).toContain('duration=10');
    expect(text).toContain('streams=1');
    expect(text).not.toContain('nodelay');
  });
});

const trialOf = (id: string, tool: string, test: string) => ({
  id,
  tool,
  test,
  benchmarkName: tool,
  params: {},
  cell: {},
  client: 'client',
  server: 'server',
  status: 'succeeded' as const,
  attempts: 1,
  rawFiles: [],
  sampleCount: 3,
});
const sampleOf = (trialId: string, metric: string, value: number, unit: string): Sample =>
  ({ metric, value, unit, timestamp: 0, labels: {}, runId: 'r', sampleId: `${trialId}-${metric}`, trialId }) as unknown as Sample;

describe('the summary printed when a run ends', () => {
  it('reads like a network tool: metric names, µs/ms by magnitude, Gbit/s, tx/s — never ids or raw units', () => {
    const record = {
      runId: 'r',
      name: 'x',
      status: 'succeeded',
      startedAt: '',
      finishedAt: '',
      runDir: '',
      owner: '',
      netbenchVersion: '',
      hosts: [],
      phases: [],
      errors: [],
      labels: {},
      trials: [trialOf('t0001', 'netperf', 'TCP_RR'), trialOf('t0002', 'iperf3', 'tcp')],
    } as unknown as RunRecord;
    const text = formatSummary(record, [
      sampleOf('t0001', 'TCP_RR_Transaction_Rate', 67_300.4, 'transactions_per_second'),
      sampleOf('t0001', 'TCP_RR_Latency_p50', 15.2, 'us'),
      sampleOf('t0001', 'TCP_RR_Latency_p99', 2_480, 'us'),
      sampleOf('t0002', 'Throughput', 12_900, 'Mbits/sec'),
    ]);
    expect(text).toContain('67,300 tx/s · p50 15.2 µs · p99 2.48 ms');
    expect(text).toContain('12.9 Gbit/s');
    expect(text).not.toMatch(/transactions_per_second|Mbits\/sec|_Latency_| us\b/);
  });
});

describe('the run summary of a latency-under-load run', () => {
  it("is each trial's total goodput and idle → loaded latency, not a flow's throughput", async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const load = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../results/src/store/__fixtures__/load-results.json'), 'utf8')) as {
      run: RunRecord;
      samples: Sample[];
    };
    const text = formatSummary(load.run, load.samples);
    const row = text.split('\n').find((line) => line.startsWith('t0003'))!;
    expect(row).toMatch(/goodput 19\.3 Mbit\/s · icmp idle 582 µs → loaded 101 ms \(\+100 ms\) · \d+ RPM$/);
    expect(row).not.toMatch(/TCP_STREAM throughput/);
  });
});

describe('the run summary of every tool (a real local-lab run: results/src/store/__fixtures__/every-tool-results.json)', () => {
  it('says what results show says: the headline per tool, percentiles n can support, the mesh as its aggregate', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const run = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../results/src/store/__fixtures__/every-tool-results.json'), 'utf8')) as {
      run: RunRecord;
      samples: Sample[];
    };
    const rows = formatSummary(run.run, run.samples).split('\n');
    const row = (id: string) => rows.find((line) => line.startsWith(id))!;
    // 20 pings: p50 with its n, never a p99 (it would need 500).
    expect(row('t0001')).toMatch(/mean [\d.]+ µs · p50 [\d.]+ µs · n 20 · loss 0%$/);
    expect(row('t0001')).not.toMatch(/p99/);
    // wrk is requests/s, shown once (not its three per-thread rates).
    expect(row('t0015')).toMatch(/ [\d,]+ req\/s · p50 /);
    expect(row('t0015')).not.toMatch(/Thread request rate/);
    // iperf 2 UDP has its throughput; the mesh is "2 flows at once" and the sum of its flows.
    expect(row('t0014')).toMatch(/ [\d.]+ [GM]bit\/s · loss /);
    const aggregate = run.samples.find((s) => s.trialId === 't0018' && s.labels.flow === 'aggregate' && s.metric === 'TCP_STREAM_Throughput')!;
    expect(row('t0018')).toMatch(/2 flows at once/);
    expect(row('t0018')).toContain(`${(aggregate.value / 1000).toFixed(1)} Gbit/s`);
  });
});
