import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '@netbench/core';
import { withStore } from '@netbench/results';
import { afterAll, describe, expect, it } from 'vitest';
import type { BridgeEvent } from '../shared/bridge-types.js';
import { createDesktopApi } from './desktop-api.js';

// Real runs in the local lab (network namespaces; needs root), stored in a temporary store.
const repo = join(import.meta.dirname, '../../../..');
const home = mkdtempSync(join(tmpdir(), 'nbt-desktop-runs-'));
const db = join(home, 'netbench.db');
const desktop = createDesktopApi({
  registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }),
  version: 'test',
  shell: 'browser',
  db,
  runsDir: join(home, 'runs'),
});
afterAll(async () => {
  await desktop.dispose();
  rmSync(home, { recursive: true, force: true });
});

const spec = (ping: string) =>
  [
    'name: run-control',
    'hosts:',
    '  a: { cloud: local }',
    '  b: { cloud: local }',
    'benchmarks:',
    `  - { tool: ping, client: a, server: b, direction: forward, ${ping} }`,
    '',
  ].join('\n');

describe('RunControl with the real engine', () => {
  it('runs, streams every event, draws live charts, stores the run and lists what was torn down', async () => {
    const events: BridgeEvent[] = [];
    const off = desktop.runs.subscribe((e) => events.push(e));
    const { runId } = await desktop.api.startRun({ text: spec('count: 10, interval: 0.02') });
    const ended = await desktop.runs.wait(runId);
    off();
    expect(ended.status).toBe('succeeded');
    const types = events.filter((e) => e.kind === 'run-event').map((e) => (e.kind === 'run-event' ? e.event.type : ''));
    expect(types).toEqual(expect.arrayContaining(['run-started', 'host-ready', 'trial-started', 'sample', 'trial-finished', 'run-finished']));
    expect(events.at(-1)).toMatchObject({ kind: 'run-ended', runId });
    expect(ended.teardown.length).toBeGreaterThan(0);
    expect(ended.teardown.every((t) => t.state === 'deleted')).toBe(true);
    const charts = await desktop.api.liveCharts({ runId });
    expect(charts.map((c) => c.kind)).toContain('cdf');
    const live = await desktop.api.liveRun({ runId });
    expect(live.ended?.status).toBe('succeeded');
    // The results pages read the store the run was written to.
    const list = await desktop.api.listRuns({});
    expect(list.runs.map((r) => r.runId)).toContain(runId);
    const page = await desktop.api.showRun({ runId });
    expect(page.show.trials[0]?.metrics.find((m) => m.metric === 'Average Latency')).toBeDefined();
    const csv = await desktop.api.exportRun({ runId, format: 'csv' });
    expect(csv.content.split('\n')[0]).toContain('metric');
    const stored = await withStore(db, (store) => store.samples(store.resolve(runId)));
    expect(csv.content.trim().split('\n').length - 1).toBe(stored.length);
  });

  it('charts live values while a trial runs, and keeps them when it ends (ping stores totals, not its replies)', async () => {
    const { runId } = await desktop.api.startRun({ text: spec('count: 40, interval: 0.05') });
    const during = await new Promise<Awaited<ReturnType<typeof desktop.api.liveCharts>>>((resolve) => {
      let asked = false;
      const off = desktop.runs.subscribe((e) => {
        // Ask on the second batch: the timeseries needs two points.
        if (e.kind === 'run-event' && e.event.type === 'trial-interval' && !asked && desktop.runs.liveCharts(runId).some((c) => c.kind === 'timeseries')) {
          asked = true;
          off();
          resolve(desktop.api.liveCharts({ runId }));
        }
      });
    });
    const ended = await desktop.runs.wait(runId);
    expect(ended.status).toBe('succeeded');
    expect(during.find((c) => c.kind === 'timeseries')?.title).toBe('RTT over time');
    // The trial was still running: nothing stored yet, so no CDF.
    expect(during.some((c) => c.kind === 'cdf')).toBe(false);
    const after = await desktop.api.liveCharts({ runId });
    expect(after.some((c) => c.kind === 'cdf')).toBe(true);
    // The finished trial's time series stays (it used to vanish with its live values), now with every reply.
    const points = (charts: typeof after) => {
      const chart = charts.find((c) => c.title === 'RTT over time');
      return chart?.kind === 'timeseries' ? chart.series[0]!.points.length : 0;
    };
    expect(points(after)).toBeGreaterThan(points(during));
    // Live values are not part of the run's event list (a snapshot stays small).
    expect((await desktop.api.liveRun({ runId })).events.some((e) => e.type === 'trial-interval')).toBe(false);
  });

  it('cancel stops the trials, tears down and keeps the run', async () => {
    const { runId } = await desktop.api.startRun({ text: spec('count: 400, interval: 0.05') });
    await new Promise<void>((resolve) => {
      const off = desktop.runs.subscribe((e) => {
        if (e.kind === 'run-event' && e.event.type === 'trial-started') {
          off();
          resolve();
        }
      });
    });
    expect(desktop.runs.active()).toContain(runId);
    expect(await desktop.api.cancelRun({ runId })).toEqual({ cancelled: true });
    const ended = await desktop.runs.wait(runId);
    expect(ended.status).toBe('interrupted');
    expect(ended.teardown.every((t) => t.state === 'deleted')).toBe(true);
    expect(await desktop.api.cancelRun({ runId })).toEqual({ cancelled: false });
    const list = await desktop.api.listRuns({ status: 'interrupted' });
    expect(list.runs.map((r) => r.runId)).toEqual([runId]);
  });

  it('refuses a run above the max-cost guard before creating anything', async () => {
    const text = [
      'name: costly',
      'hosts:',
      '  a: { cloud: aws, zone: us-east-1a, machineType: m5.large }',
      '  b: { cloud: aws, zone: us-east-1b, machineType: m5.large }',
      'benchmarks:',
      '  - { tool: iperf3, client: a, server: b, duration: 60 }',
      '',
    ].join('\n');
    await expect(desktop.api.startRun({ text, maxCostUsd: 0.0001 })).rejects.toThrow(/above --max-cost/);
  });
});
