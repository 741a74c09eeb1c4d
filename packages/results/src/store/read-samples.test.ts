import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { LatencyHistogram, type Sample } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { quickstartRun } from './__fixtures__/derive-run.js';
import { openStore } from './open-store.js';
import { allRows, readLabelSets } from './read-samples.js';
import type { ResultsStore } from './results-store.js';
import { runShow, showResult, summarise } from './show-result.js';

let dir: string;
let db: string;
let store: ResultsStore;
const real = quickstartRun();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-read-samples-'));
  db = join(dir, 'netbench.db');
  store = await openStore(db);
  store.ingest(real);
});
afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('reading a stored run', () => {
  it('reads label sets in chunks exactly as one row per set', () => {
    store.close();
    const raw = new DatabaseSync(db);
    const runPk = (raw.prepare('SELECT run_pk FROM runs WHERE run_id = ?').get(real.run.runId) as { run_pk: number }).run_pk;
    const perRow = new Map(
      (raw.prepare('SELECT set_no, labels FROM label_sets WHERE run_pk = ?').all(runPk) as { set_no: number; labels: string }[]).map((r) => [
        r.set_no,
        JSON.parse(r.labels) as unknown,
      ]),
    );
    expect(perRow.size).toBeGreaterThan(10);
    // Chunks of 3 and 7 set numbers, and one chunk for all: the same sets under the same numbers.
    for (const perRead of [3, 7, 50_000]) expect(readLabelSets(raw, runPk, undefined, perRead)).toEqual(perRow);
    const only = new Set([...perRow.keys()].filter((n) => n % 2 === 1));
    expect([...readLabelSets(raw, runPk, only).keys()].sort((x, y) => x - y)).toEqual([...only].sort((x, y) => x - y));
    raw.close();
  });

  it('gives rows as arrays, also where node:sqlite has no setReturnArrays (Node < 24)', () => {
    store.close();
    const raw = new DatabaseSync(db);
    const sql = 'SELECT run_id, sample_count FROM runs WHERE run_id = ?';
    const expected = [[real.run.runId, real.samples.length]];
    expect(allRows(raw.prepare(sql), ['run_id', 'sample_count'], real.run.runId)).toEqual(expected);
    const statement = raw.prepare(sql);
    const older = { all: (...params: string[]) => statement.all(...params) } as unknown as Parameters<typeof allRows>[0];
    expect(allRows(older, ['run_id', 'sample_count'], real.run.runId)).toEqual(expected);
    raw.close();
  });

  it('reads one metric with its histograms, and only histograms of that metric', () => {
    const ref = store.resolve(real.run.runId);
    for (const metric of ['Latency p50', 'Interval Throughput']) {
      const expected = real.samples.filter((s) => s.metric === metric);
      expect(expected.length).toBeGreaterThan(0);
      expect(store.samples(ref, { metric })).toEqual(expected);
    }
    const withHistogram = real.samples.find((s) => s.histogram)!;
    expect(store.samples(ref, { metric: withHistogram.metric }).filter((s) => s.histogram)).toEqual(real.samples.filter((s) => s.metric === withHistogram.metric && s.histogram));
  });

  it('keeps results.json key order, so exports of a stored run read the same', () => {
    const loaded = store.load(store.resolve(real.run.runId));
    expect(JSON.stringify(loaded.samples)).toBe(JSON.stringify(real.samples));
  });

  it('summarises a loaded run as showResult does', async () => {
    const loaded = store.load(store.resolve(real.run.runId));
    store.close();
    expect(runShow(db, loaded)).toEqual(await showResult({ db, run: real.run.runId }));
  });

  it('summarises a trial of 200,000 intervals (minimum and maximum without spreading them as arguments)', () => {
    const samples: Sample[] = Array.from({ length: 200_000 }, (_, i) => ({
      runId: 'r',
      sampleId: `r-${i}`,
      trialId: 't0001',
      metric: 'Interval Throughput',
      value: 1000 + ((i * 7919) % 1001),
      unit: 'Mbits/sec',
      timestamp: i,
      labels: {},
    }));
    const [shown] = summarise(samples);
    expect(shown).toMatchObject({ metric: 'Interval Throughput', n: 200_000, min: 1000, max: 2000, value: 1500 });
  });

  it("marks PKB's histogram carriers (value 0 with a histogram) as histograms, not 0 µs, and keeps real values with histograms", () => {
    const histogram = LatencyHistogram.create('us');
    histogram.record(100, 433_684);
    histogram.record(1000, 24);
    const sample = (metric: string, value: number): Sample => ({
      runId: 'r',
      sampleId: `r-${metric}`,
      trialId: 't0001',
      metric,
      value,
      unit: 'us',
      timestamp: 0,
      labels: {},
      histogram: histogram.encode(),
    });
    const [carrier, average] = summarise([sample('TCP_RR_Latency_Histogram', 0), sample('Average Latency', 100.05)]);
    expect(carrier).toMatchObject({ histogramOnly: true, p50: 100 });
    expect(average!.histogramOnly).toBeUndefined();
  });
});
