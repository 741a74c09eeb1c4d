import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveRun, quickstartRun } from './__fixtures__/derive-run.js';
import { openStore } from './open-store.js';
import type { ResultsStore } from './results-store.js';

let dir: string;
let store: ResultsStore;
const real = quickstartRun();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-headlines-'));
  store = await openStore(join(dir, 'netbench.db'));
});
afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

describe("run headlines (the history's one number per run)", () => {
  it("is the median of the run's throughput when it has one, else its latency; none without either", () => {
    const all = deriveRun(real, { runId: '20261101-080000-aaaaaa', startedAt: '2026-11-01T08:00:00.000Z' });
    const latency = deriveRun(real, { runId: '20261102-080000-bbbbbb', startedAt: '2026-11-02T08:00:00.000Z', tools: ['ping'] });
    const none = { run: { ...all.run, runId: '20261103-080000-cccccc', trials: [] }, samples: [] };
    for (const run of [all, latency, none]) store.ingest(run);
    const headlines = store.headlines([all.run.runId, latency.run.runId, none.run.runId, 'no-such-run']);

    const h = headlines.get(all.run.runId)!;
    expect(h.role).toBe('throughput');
    const values = all.samples.filter((s) => s.metric === h.metric && s.unit === h.unit).map((s) => s.value);
    expect(h.n).toBe(values.length);
    expect(h.value).toBeCloseTo(median(values), 9);

    expect(headlines.get(latency.run.runId)).toMatchObject({ role: 'latency', metric: 'Average Latency', unit: 'ms' });
    expect(headlines.has(none.run.runId)).toBe(false);
    expect(headlines.has('no-such-run')).toBe(false);
  });

  it("is a latency-under-load run's total goodput, not a flow's throughput", () => {
    const load = JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__/load-results.json'), 'utf8')) as RunResults;
    store.ingest(load);
    const h = store.headlines([load.run.runId]).get(load.run.runId)!;
    const totals = load.samples.filter((s) => s.metric === 'goodput_total').map((s) => s.value);
    expect(h).toMatchObject({ metric: 'goodput_total', unit: 'Mbits/sec', role: 'throughput', n: 3 });
    expect(h.value).toBeCloseTo(median(totals), 9);
  });

  it("is a mesh run's aggregate (the sum of its flows), not the median of flows, streams and sum pooled", () => {
    const every = JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__/every-tool-results.json'), 'utf8')) as RunResults;
    const mesh: RunResults = {
      run: { ...every.run, runId: '20261207-112208-meshxx', trials: every.run.trials.filter((t) => t.id === 't0018') },
      samples: every.samples.filter((s) => s.trialId === 't0018').map((s) => ({ ...s, runId: '20261207-112208-meshxx' })),
    };
    store.ingest(mesh);
    const h = store.headlines([mesh.run.runId]).get(mesh.run.runId)!;
    const aggregate = mesh.samples.find((s) => s.labels.flow === 'aggregate' && s.metric === 'TCP_STREAM_Throughput')!;
    expect(h).toMatchObject({ metric: 'TCP_STREAM_Throughput', role: 'throughput', n: 1 });
    expect(h.value).toBe(aggregate.value);
  });

  it("is a third-party tool's declared primary metric, which no built-in name matches", () => {
    const base = deriveRun(real, { runId: '20261104-080000-dddddd', startedAt: '2026-11-04T08:00:00.000Z', tools: ['ping'] });
    // The same samples renamed as a third-party tool would call them.
    const renamed: RunResults = {
      run: { ...base.run, metrics: { owd_mean_ms: { role: 'latency', better: 'lower', primary: true } } },
      samples: base.samples.map((s) => (s.metric === 'Average Latency' ? { ...s, metric: 'owd_mean_ms' } : s)),
    };
    const undeclared: RunResults = {
      run: { ...renamed.run, runId: '20261105-080000-eeeeee', metrics: undefined },
      samples: renamed.samples.map((s) => ({ ...s, runId: '20261105-080000-eeeeee' })),
    };
    store.ingest(renamed);
    store.ingest(undeclared);
    const headlines = store.headlines([renamed.run.runId, undeclared.run.runId]);
    expect(headlines.get(renamed.run.runId)).toMatchObject({ metric: 'owd_mean_ms', role: 'latency', unit: 'ms' });
    expect(headlines.get(undeclared.run.runId)?.metric).not.toBe('owd_mean_ms');
  });
});
