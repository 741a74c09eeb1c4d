import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartsFor, exportResults, showResult, staticRegistry, withStore, type RunResults } from '@netbench/core';
import { createDesktopApi } from './desktop-api.js';
import { dispatchCall } from './dispatch-call.js';

// A real run (the quickstart's results.json: ping, netperf, iperf3 with
// histograms and intervals) and one of 20,000 iperf3 intervals.
const home = mkdtempSync(join(tmpdir(), 'nbt-desktop-results-'));
const db = join(home, 'netbench.db');
const real = JSON.parse(readFileSync(join(import.meta.dirname, '../../../core/src/store/__fixtures__/quickstart-results.json'), 'utf8')) as RunResults;
const long = '20260401-000000-intervals';
const desktop = createDesktopApi({ registry: staticRegistry([]), version: 'test', shell: 'browser', db });

beforeAll(async () => {
  const trial = real.run.trials.find((t) => t.tool === 'iperf3')!;
  await withStore(db, (store) => {
    store.ingest(real);
    store.ingest({
      run: { ...real.run, runId: long, name: 'long', trials: [trial] },
      samples: Array.from({ length: 20_000 }, (_, i) => ({
        runId: long, sampleId: `${long}-${i + 1}`, trialId: trial.id, metric: 'Interval Throughput', value: 900 + (i % 37), unit: 'Mbits/sec',
        timestamp: Date.parse(real.run.startedAt) + i * 100, labels: { tool: 'iperf3', test: trial.test, interval_start: i / 10, interval_end: (i + 1) / 10 },
      })),
    });
  });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('a stored run\'s page', () => {
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
