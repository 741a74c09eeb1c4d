import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staticRegistry } from '@netbench/core';
import type { RunResults } from '@netbench/plugin-api';
import { chartsFor, compareResults, exportResults, ResultsStore, showResult, withStore } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDesktopApi } from './desktop-api.js';
import { dispatchCall } from './dispatch-call.js';

// A real run (the quickstart's results.json: ping, netperf, iperf3 with
// histograms and intervals) and one of 20,000 iperf3 intervals.
const home = mkdtempSync(join(tmpdir(), 'nbt-desktop-results-'));
const db = join(home, 'netbench.db');
const real = JSON.parse(readFileSync(join(import.meta.dirname, '../../../results/src/store/__fixtures__/quickstart-results.json'), 'utf8')) as RunResults;
const long = '20260401-000000-intervals';
// The real run again, every value 10 % higher: a candidate the verdicts tell apart.
const slower = '20260402-000000-higher';
const desktop = createDesktopApi({ registry: staticRegistry([]), version: 'test', shell: 'browser', db });

beforeAll(async () => {
  const trial = real.run.trials.find((t) => t.tool === 'iperf3')!;
  await withStore(db, (store) => {
    store.ingest(real);
    store.ingest({
      run: { ...real.run, runId: long, name: 'long', trials: [trial] },
      samples: Array.from({ length: 20_000 }, (_, i) => ({
        runId: long,
        sampleId: `${long}-${i + 1}`,
        trialId: trial.id,
        metric: 'Interval Throughput',
        value: 900 + (i % 37),
        unit: 'Mbits/sec',
        timestamp: Date.parse(real.run.startedAt) + i * 100,
        labels: { tool: 'iperf3', test: trial.test, interval_start: i / 10, interval_end: (i + 1) / 10 },
      })),
    });
    store.ingest({
      run: { ...real.run, runId: slower, name: 'higher' },
      samples: real.samples.map((s) => ({ ...s, runId: slower, sampleId: `${slower}-${s.sampleId}`, value: s.value * 1.1 })),
    });
  });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("a stored run's page", () => {
  it('is what `results show` and chartsFor of the exported run give, from one read', async () => {
    for (const runId of [real.run.runId, long]) {
      const page = await desktop.api.showRun({ runId });
      expect(page.show).toEqual(await showResult({ db, run: runId }));
      expect(page.charts).toEqual(chartsFor(await exportResults({ db, runs: [runId] })));
    }
    const { charts } = await desktop.api.showRun({ runId: long });
    const series = charts.find((c) => c.kind === 'timeseries')!;
    expect(series.kind === 'timeseries' && series.series[0]!.points.length).toBe(20_000);
  });

  it('answers other calls while it reads a big run', async () => {
    const order: string[] = [];
    await Promise.all([
      desktop.api.showRun({ runId: long }).then(() => order.push('showRun')),
      // Started after, answered before: the read yields between its steps.
      new Promise((resolve) => setImmediate(resolve)).then(() => order.push('other')),
    ]);
    expect(order).toEqual(['other', 'showRun']);
  });

  it('says which run is missing', async () => {
    const envelope = await dispatchCall(desktop.api, 'showRun', { runId: 'nosuchrun' });
    expect(envelope).toMatchObject({ ok: false, error: { message: expect.stringMatching(/no run nosuchrun/) } });
  });
});

describe('two stored runs compared', () => {
  it("are core's compareResults verdicts and chartsFor of the exported runs, each run read once", async () => {
    const load = vi.spyOn(ResultsStore.prototype, 'load');
    const samples = vi.spyOn(ResultsStore.prototype, 'samples');
    try {
      for (const [baseline, candidate] of [
        [real.run.runId, slower],
        [slower, real.run.runId],
        [real.run.runId, long],
        [long, long],
      ] as const) {
        load.mockClear();
        samples.mockClear();
        const page = await desktop.api.compareRuns({ baseline, candidate });
        expect([load.mock.calls.length, samples.mock.calls.length]).toEqual([baseline === candidate ? 1 : 2, 0]);
        expect(page.comparison).toEqual(await compareResults({ db, baseline: { runs: [baseline] }, candidate: { runs: [candidate] } }));
        expect(page.charts).toEqual(chartsFor(await exportResults({ db, runs: [baseline, candidate] })));
      }
    } finally {
      load.mockRestore();
      samples.mockRestore();
    }
    // Not an empty comparison: every nonzero value is 10 % higher.
    const { comparison } = await desktop.api.compareRuns({ baseline: real.run.runId, candidate: slower });
    expect(comparison.rows.length).toBeGreaterThan(3);
    const measured = comparison.rows.filter((r) => r.statistic === 'value' && r.baseline.value !== 0);
    expect(measured.length).toBeGreaterThan(20);
    for (const row of measured) expect(row.deltaPct).toBeCloseTo(10, 6);
    expect(comparison.candidate).toEqual({ selection: slower, runs: [slower], samples: real.samples.length, startedAt: expect.any(String) });
  });

  it('says which run is missing', async () => {
    const envelope = await dispatchCall(desktop.api, 'compareRuns', { baseline: real.run.runId, candidate: 'nosuchrun' });
    expect(envelope).toMatchObject({ ok: false, error: { message: expect.stringMatching(/no run nosuchrun/) } });
  });
});
