import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveRun, quickstartRun } from './__fixtures__/derive-run.js';
import { deleteResults } from './delete-results.js';
import { listResults } from './list-results.js';
import { openStore } from './open-store.js';
import type { ResultsStore } from './results-store.js';
import { APPLICATION_ID, SCHEMA_VERSION } from './schema.js';
import { showResult } from './show-result.js';

let dir: string;
let db: string;
let store: ResultsStore;
const real = quickstartRun();
const a = deriveRun(real, { runId: '20261101-080000-aaaaaa', startedAt: '2026-11-01T08:00:00.000Z' });
const b = deriveRun(real, { runId: '20261102-080000-bbbbbb', startedAt: '2026-11-02T08:00:00.000Z', name: 'nightly', tools: ['ping', 'netperf'], labels: { campaign: 'q4' } });
const c = deriveRun(real, { runId: '20261103-080000-cccccc', startedAt: '2026-11-03T08:00:00.000Z', name: 'nightly', scale: 1.1 });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-store-'));
  db = join(dir, 'nested', 'netbench.db');
  store = await openStore(db);
});
afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the results store', () => {
  it('creates a WAL database marked as ours at the current schema version', () => {
    store.close();
    const raw = new DatabaseSync(db);
    expect(raw.prepare('PRAGMA application_id').get()).toEqual({ application_id: APPLICATION_ID });
    expect(raw.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    raw.close();
  });

  it('gives back a real run exactly as its results.json held it', () => {
    expect(store.ingest(real)).toEqual({ runId: real.run.runId, samples: real.samples.length, replaced: false });
    expect(store.load(store.resolve(real.run.runId))).toEqual(real);
    expect(real.samples.some((s) => s.histogram)).toBe(true);
  });

  it('lists label keys with their runs and values, and names keys with too many values without listing them', () => {
    expect(store.labelKeys()).toEqual([]);
    store.ingest(a);
    store.ingest(b);
    const keys = store.labelKeys();
    const campaign = keys.find((k) => k.key === 'campaign')!;
    expect(campaign).toEqual({ key: 'campaign', runs: 1, values: [{ value: 'q4', runs: 1 }], manyValues: false });
    const test = keys.find((k) => k.key === 'test')!;
    expect(test.runs).toBe(2);
    expect(test.values.map((v) => v.value).sort()).toEqual([...new Set(real.samples.flatMap((s) => (s.labels['test'] ? [s.labels['test']] : [])))].sort());
    // Most used keys first.
    expect(keys.map((k) => k.runs)).toEqual([...keys.map((k) => k.runs)].sort((x, y) => y - x));
    // With a limit of 1, a key of several values is named but not listed.
    const capped = store.labelKeys(1).find((k) => k.key === 'test')!;
    expect(capped).toEqual({ key: 'test', runs: 2, values: [], manyValues: true });
  });

  it('keeps labels as rows, queryable by key and value', () => {
    store.ingest(real);
    store.close();
    const raw = new DatabaseSync(db);
    const rows = raw.prepare("SELECT DISTINCT l.value FROM labels l WHERE l.key = 'direction' ORDER BY 1").all();
    expect(rows).toEqual([{ value: 'forward' }, { value: 'reverse' }]);
    const perTrial = raw
      .prepare(`SELECT count(*) AS n FROM samples s JOIN labels l ON l.run_pk = s.run_pk AND l.set_no = s.label_set
      WHERE l.key = 'test' AND l.value = 'TCP_RR'`)
      .get() as { n: number };
    expect(perTrial.n).toBe(real.samples.filter((s) => s.labels['test'] === 'TCP_RR').length);
    expect(raw.prepare('SELECT count(*) AS n FROM raw_files').get()).toEqual({ n: real.run.trials.flatMap((t) => t.rawFiles).length });
    raw.close();
  });

  it('replaces a run stored again under the same id', () => {
    store.ingest(real);
    expect(store.ingest(real).replaced).toBe(true);
    expect(store.list().total).toBe(1);
    expect(store.samples(store.resolve('latest'))).toHaveLength(real.samples.length);
  });

  it('lists runs newest first with filters on spec, tool, labels and dates', () => {
    for (const run of [a, b, c]) store.ingest(run);
    const ids = (filter: Parameters<ResultsStore['list']>[0]) => store.list(filter).runs.map((r) => r.runId.slice(-6));
    expect(ids({})).toEqual(['cccccc', 'bbbbbb', 'aaaaaa']);
    expect(ids({ spec: 'nightly' })).toEqual(['cccccc', 'bbbbbb']);
    expect(ids({ tool: 'iperf3' })).toEqual(['cccccc', 'aaaaaa']);
    expect(ids({ labels: [['campaign', 'q4']] })).toEqual(['bbbbbb']);
    expect(
      ids({
        labels: [
          ['direction', 'reverse'],
          ['count', '20'],
        ],
      }),
    ).toEqual(['cccccc', 'bbbbbb', 'aaaaaa']);
    expect(ids({ labels: [['direction', 'sideways']] })).toEqual([]);
    expect(ids({ since: new Date('2026-11-02T00:00:00Z'), until: new Date('2026-11-03T00:00:00Z') })).toEqual(['bbbbbb']);
    const limited = store.list({ limit: 2 });
    expect(limited.runs).toHaveLength(2);
    expect(limited.total).toBe(3);
    expect(store.list({ spec: 'nightly' }).runs[1]).toMatchObject({ name: 'nightly', tools: ['netperf', 'ping'], trials: 4, status: 'succeeded' });
  });

  it('finds runs by id, prefix, suffix, latest~N and folder, and says when it cannot', () => {
    for (const run of [a, b, c]) store.ingest(run);
    expect(store.resolve('bbbbbb').runId).toBe(b.run.runId);
    expect(store.resolve('20261101').runId).toBe(a.run.runId);
    expect(store.resolve('latest').runId).toBe(c.run.runId);
    expect(store.resolve('latest~2').runId).toBe(a.run.runId);
    expect(store.resolve(`/somewhere/runs/${b.run.runId}/`).runId).toBe(b.run.runId);
    expect(() => store.resolve('latest~3')).toThrow(/fewer than 4 runs/);
    expect(() => store.resolve('2026110')).toThrow(/matches several runs/);
    expect(() => store.resolve('zzzzzz')).toThrow(/no run zzzzzz in the store/);
  });

  it('selects samples by labels and metric, run by run', () => {
    for (const run of [a, b, c]) store.ingest(run);
    const selected = store.select([['direction', 'reverse']], 'Latency p50');
    expect(selected.map((r) => r.ref.runId.slice(-6))).toEqual(['aaaaaa', 'bbbbbb', 'cccccc']);
    expect(selected.every((r) => r.samples.length === 1 && r.samples[0]!.labels['direction'] === 'reverse')).toBe(true);
    expect(selected[2]!.samples[0]!.value).toBeCloseTo(selected[0]!.samples[0]!.value * 1.1, 10);
    expect(store.select([['campaign', 'q4']]).map((r) => r.ref.runId)).toEqual([b.run.runId]);
  });

  it('deletes all named runs or none, with every row they own', async () => {
    for (const run of [a, b, c]) store.ingest(run);
    store.close();
    await expect(deleteResults({ db, runs: ['aaaaaa', 'ghost0'] })).rejects.toThrow(/no run ghost0/);
    expect((await listResults({ db })).total).toBe(3);
    expect(await deleteResults({ db, runs: ['aaaaaa', 'bbbbbb', 'aaaaaa'] })).toEqual({ db, deleted: [a.run.runId, b.run.runId] });
    expect((await listResults({ db })).runs.map((r) => r.runId)).toEqual([c.run.runId]);
    const raw = new DatabaseSync(db);
    for (const table of ['trials', 'samples', 'labels', 'label_sets', 'histograms', 'raw_files', 'hosts', 'run_metrics']) {
      const orphans = raw.prepare(`SELECT count(*) AS n FROM ${table} WHERE run_pk NOT IN (SELECT run_pk FROM runs)`).get() as { n: number };
      expect(orphans.n, table).toBe(0);
    }
    raw.close();
  });

  it("summarises a run per trial with histogram percentiles in the sample's unit", async () => {
    store.ingest(real);
    store.close();
    const show = await showResult({ db, run: 'latest' });
    const avg = show.trials[0]!.metrics.find((m) => m.metric === 'Average Latency')!;
    const p50 = real.samples.find((s) => s.trialId === 't0001' && s.metric === 'Latency p50')!.value;
    expect(avg).toMatchObject({ unit: 'ms', observations: 20 });
    expect(avg.p50).toBeCloseTo(p50, 6);
    const intervals = show.trials.find((t) => t.tool === 'iperf3')!.metrics.find((m) => m.metric === 'Interval Throughput')!;
    expect(intervals.n).toBeGreaterThanOrEqual(1);
    expect(show.runMetrics.map((m) => m.metric)).toEqual(['phase_duration']);
  });

  it('lists nothing, without creating a file, when no store exists yet', async () => {
    const missing = join(dir, 'none', 'netbench.db');
    expect(await listResults({ db: missing })).toEqual({ db: missing, runs: [], total: 0 });
    await expect(showResult({ db: missing, run: 'latest' })).rejects.toThrow(/no results store at/);
  });
});
