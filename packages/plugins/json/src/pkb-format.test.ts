import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord, Sample } from '@netbench/plugin-api';
import { isPlugin } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import jsonPlugin, { formatPkbSamples, pkbLabels, pkbSample } from './index.js';

const run = { name: 'quickstart', owner: 'ana' } as const;
const sample: Sample = {
  runId: '20261122-110256-k3f9a2',
  sampleId: '20261122-110256-k3f9a2-7',
  trialId: 't0001',
  metric: 'latency_p99',
  value: 0.123,
  unit: 'ms',
  timestamp: 1_763_809_376_512,
  labels: { tool: 'ping', benchmark: 'ping', zeta: 1, alpha: true, path: 'a|b' },
  histogram: { encoding: 'hdr-base64', unit: 'us', data: 'HISTFAAA', count: 3 },
};

describe('PKB json', () => {
  it('writes PKB label strings sorted by key, without pipes inside items', () => {
    expect(pkbLabels({ b: 2, a: 'x', c: false })).toBe('|a:x|,|b:2|,|c:false|');
    expect(pkbLabels({ path: 'a|b' })).toBe('|path:a/b|');
    expect(pkbLabels({})).toBe('');
  });

  it("turns a sample into PKB's sample shape (seconds, run/sample uri, no histogram)", () => {
    expect(pkbSample(run, sample)).toEqual({
      metric: 'latency_p99',
      value: 0.123,
      unit: 'ms',
      timestamp: 1_763_809_376.512,
      test: 'ping',
      product_name: 'netbench',
      official: false,
      owner: 'ana',
      run_uri: '20261122-110256-k3f9a2',
      sample_uri: '20261122-110256-k3f9a2-7',
      labels: '|alpha:true|,|benchmark:ping|,|path:a/b|,|tool:ping|,|zeta:1|',
    });
    // A run-level sample has no benchmark: the spec name is the test.
    expect(pkbSample(run, { ...sample, labels: { phase: 'provision' } }).test).toBe('quickstart');
  });

  it('writes one JSON object per line', () => {
    const text = formatPkbSamples(run, [sample, { ...sample, sampleId: 's2', value: 2 }]);
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[1]!)).toMatchObject({ sample_uri: 's2', value: 2 });
    expect(text).not.toContain('HISTFAAA');
    expect(formatPkbSamples(run, [sample], true).split('\n').length).toBeGreaterThan(10);
  });

  it('publishes into the run folder by default and to a chosen file', async () => {
    expect(isPlugin(jsonPlugin)).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), 'nbt-json-'));
    try {
      const ctx = { runId: sample.runId, runDir: dir, signal: new AbortController().signal, log: { debug() {}, info() {}, warn() {} } };
      const record = { ...run, runId: sample.runId } as unknown as RunRecord;
      const settings = jsonPlugin.schema.parse({});
      const result = await jsonPlugin.publish(record, [sample], settings, ctx);
      expect(result).toEqual({ location: join(dir, 'results.pkb.jsonl'), count: 1 });
      expect(JSON.parse(await readFile(result.location!, 'utf8'))).toMatchObject({ run_uri: sample.runId, owner: 'ana' });
      const chosen = await jsonPlugin.publish(record, [sample, sample], jsonPlugin.schema.parse({ file: join(dir, 'out', 'x.jsonl') }), ctx);
      expect((await readFile(chosen.location!, 'utf8')).trim().split('\n')).toHaveLength(2);
      expect(() => jsonPlugin.schema.parse({ path: 'x' })).toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it("adds each trial's key counters as counters.* lines and its diagnosis as limited_by on its samples", () => {
    const explained = {
      id: 't0001',
      tool: 'iperf3',
      test: 'tcp',
      benchmarkName: 'shaped',
      params: { streams: 1 },
      cell: {},
      client: 'client',
      server: 'shaped',
      status: 'succeeded',
      attempts: 1,
      rawFiles: [],
      sampleCount: 2,
      finishedAt: '2026-11-22T11:03:00.000Z',
      explain: {
        diagnoses: [
          { rule: 'shaped-link', summary: '', threshold: '', evidence: {} },
          { rule: 'queue-drops', summary: '', threshold: '', evidence: {} },
        ],
        hosts: [{ host: 'shaped', role: 'server', seconds: 5, protocols: { 'Tcp.RetransSegs': 12 }, qdiscs: [{ drops: 3, overlimits: 900 }], softnet: [], cpus: [] }],
        toolCounters: [{ tool: 'iperf3', name: 'server_cpu_total', value: 4.5, unit: 'percent', role: 'server', host: 'shaped' }],
      },
    } as unknown as RunRecord['trials'][number];
    const quiet = { ...explained, id: 't0002', explain: { diagnoses: [], hosts: [] } } as unknown as RunRecord['trials'][number];
    const unread = { ...explained, id: 't0003', explain: undefined } as unknown as RunRecord['trials'][number];
    const samples: Sample[] = [
      { ...sample, labels: { ...sample.labels, direction: 'reverse' } },
      { ...sample, sampleId: 'x-8', metric: 'Throughput', labels: { ...sample.labels, direction: 'reverse' } },
      { ...sample, sampleId: 'x-9', trialId: 't0002' },
      { ...sample, sampleId: 'x-10', trialId: 't0003' },
    ];
    const lines = formatPkbSamples({ ...run, runId: sample.runId, trials: [explained, quiet, unread] }, samples)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ReturnType<typeof pkbSample>);
    expect(lines[0]!.labels).toContain('|limited_by:queue-drops+shaped-link|');
    expect(lines[2]!.labels).toContain('|limited_by:none|');
    expect(lines[3]!.labels).not.toContain('limited_by');
    const counter = (metric: string) => lines.find((l) => l.metric === metric);
    expect(counter('counters.tcp_retrans_segs')).toMatchObject({
      value: 12,
      unit: 'segments',
      test: 'ping',
      run_uri: sample.runId,
      timestamp: Date.parse('2026-11-22T11:03:00.000Z') / 1000,
      sample_uri: `${sample.runId}-t0001-counters-shaped-tcp_retrans_segs`,
    });
    // The trial's shared labels, then where and what it was.
    expect(counter('counters.tcp_retrans_segs')!.labels).toBe(
      '|alpha:true|,|benchmark:ping|,|direction:reverse|,|host:shaped|,|limited_by:queue-drops+shaped-link|,|path:a/b|,|role:server|,|source:counters|,|tool:ping|,|zeta:1|',
    );
    expect(counter('counters.qdisc_overlimits')?.value).toBe(900);
    expect(counter('counters.iperf3.server_cpu_total')).toMatchObject({ value: 4.5, unit: 'percent' });
    expect(counter('counters.iperf3.server_cpu_total')!.labels).toContain('|counter_tool:iperf3|');
    // One line per counter of the one end of t0001; t0002 has no ends, t0003 no counters.
    expect(lines.filter((l) => l.metric.startsWith('counters.'))).toHaveLength(8);
    // A run without trials is exported as before.
    expect(formatPkbSamples(run, samples)).not.toContain('limited_by');
  });
});
