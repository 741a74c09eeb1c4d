import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPlugin } from '@netbench/plugin-api';
import type { RunRecord, Sample } from '@netbench/plugin-api';
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

  it('turns a sample into PKB\'s sample shape (seconds, run/sample uri, no histogram)', () => {
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
});
