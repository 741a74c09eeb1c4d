import { describe, expect, it } from 'vitest';
import type { RunRecord, Sample } from '@netbench/plugin-api';
import { formatSummary } from './summary.js';

const trial = {
  id: 't0001', tool: 'netperf', test: 'TCP_RR', benchmarkName: 'netperf', params: { duration: 10, streams: 1, nodelay: false }, cell: {},
  client: 'client', server: 'server', status: 'succeeded' as const, attempts: 1, rawFiles: [], sampleCount: 1,
};
const record: RunRecord = {
  runId: '20261125-020000-abcdef', name: 'summary', status: 'succeeded', startedAt: '2026-11-25T02:00:00.000Z', finishedAt: '2026-11-25T02:00:12.000Z',
  runDir: '/tmp/x', owner: 'me', netbenchVersion: '0.1.0', hosts: [], trials: [trial], phases: [], errors: [], labels: {},
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
