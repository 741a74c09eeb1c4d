import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staticRegistry } from '@netbench/core';
import type { RunRecord, Sample } from '@netbench/plugin-api';
import { withStore } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesktopApi } from './desktop-api.js';
import { dispatchCall } from './dispatch-call.js';
import { storeLabels } from './store-labels.js';

// A real results store holding six ping runs, three measured from zone-a and
// three from zone-b (five repetitions each), plus a run whose samples carry
// 300 distinct interval ends.
const home = mkdtempSync(join(tmpdir(), 'nbt-desktop-labels-'));
const db = join(home, 'netbench.db');
const T0 = Date.parse('2026-03-01T00:00:00Z');
const desktop = createDesktopApi({ registry: staticRegistry([]), version: 'test', shell: 'browser', db });

function record(runId: string, i: number, params: Record<string, string | number> = {}): RunRecord {
  const at = (ms: number) => new Date(T0 + i * 60_000 + ms).toISOString();
  return {
    runId,
    name: 'zones',
    status: 'succeeded',
    startedAt: at(0),
    finishedAt: at(30_000),
    runDir: `/tmp/${runId}`,
    owner: 'test',
    netbenchVersion: 'test',
    hosts: [],
    phases: [],
    errors: [],
    labels: {},
    trials: [
      {
        id: 't0001',
        tool: 'ping',
        test: 'icmp',
        benchmarkName: 'ping',
        params,
        cell: {},
        client: 'a',
        server: 'b',
        status: 'succeeded',
        attempts: 1,
        rawFiles: [],
        sampleCount: 5,
      },
    ],
  };
}

function sample(runId: string, n: number, value: number, labels: Record<string, string | number>): Sample {
  return { runId, sampleId: `${runId}-${n}`, trialId: 't0001', metric: 'Average Latency', value, unit: 'us', timestamp: T0 + n, labels: { tool: 'ping', test: 'icmp', ...labels } };
}

beforeAll(async () => {
  await withStore(db, (store) => {
    for (let i = 0; i < 6; i++) {
      const zone = i % 2 === 0 ? 'zone-a' : 'zone-b';
      const runId = `20260301-00000${i}-zones`;
      const base = zone === 'zone-a' ? 100 : 180;
      store.ingest({ run: record(runId, i), samples: Array.from({ length: 5 }, (_, n) => sample(runId, n, base + ((n * 7 + i) % 9), { client_zone: zone, repetition: n })) });
    }
    const busy = '20260301-000010-intervals';
    store.ingest({ run: record(busy, 10), samples: Array.from({ length: 300 }, (_, n) => sample(busy, n, 50, { client_zone: 'zone-c', interval_end: n / 10 })) });
  });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("label selections: the store's keys and values, and two selections compared", () => {
  it('lists every key with its runs and values, most used first; keys with too many values are not listed value by value', async () => {
    const { keys } = await storeLabels(db);
    const zone = keys.find((k) => k.key === 'client_zone');
    expect(zone).toEqual({
      key: 'client_zone',
      runs: 7,
      manyValues: false,
      values: [
        { value: 'zone-a', runs: 3 },
        { value: 'zone-b', runs: 3 },
        { value: 'zone-c', runs: 1 },
      ],
    });
    expect(keys.find((k) => k.key === 'tool')).toMatchObject({ runs: 7, values: [{ value: 'ping', runs: 7 }] });
    expect(keys.find((k) => k.key === 'interval_end')).toEqual({ key: 'interval_end', runs: 1, manyValues: true, values: [] });
    expect(keys[0]!.runs).toBeGreaterThanOrEqual(keys.at(-1)!.runs);
  });

  it('reads nothing from a store that does not exist, and refuses a SQLite file that is not a netbench store', async () => {
    expect(await storeLabels(join(home, 'absent.db'))).toEqual({ keys: [] });
    const { DatabaseSync } = await import('node:sqlite');
    const foreign = join(home, 'foreign.db');
    const conn = new DatabaseSync(foreign);
    conn.exec('CREATE TABLE labels (key TEXT, value TEXT, run_pk INTEGER)');
    conn.close();
    await expect(storeLabels(foreign)).rejects.toThrow(/not a netbench results store/);
    // An empty file is an empty SQLite database: core's store takes it as a new store, as the CLI does.
    writeFileSync(join(home, 'empty.db'), '');
    expect(await storeLabels(join(home, 'empty.db'))).toEqual({ keys: [] });
  });

  it("compares zone-a against zone-b with core's verdicts and the test that decided, and draws each side as one series", async () => {
    const result = await dispatchCall(desktop.api, 'compareSelections', {
      baseline: [{ key: 'client_zone', value: 'zone-a' }],
      candidate: [{ key: 'client_zone', value: 'zone-b' }],
    });
    expect(result.ok).toBe(true);
    const page = result.ok ? (result.value as Awaited<ReturnType<typeof desktop.api.compareSelections>>) : undefined;
    expect(page?.comparison.baseline).toMatchObject({ selection: 'client_zone=zone-a', samples: 15 });
    expect(page?.comparison.baseline.runs).toHaveLength(3);
    expect(page?.comparison.candidate).toMatchObject({ selection: 'client_zone=zone-b', samples: 15 });
    const row = page?.comparison.rows.find((r) => r.metric === 'Average Latency');
    // Latency 100-108 µs against 180-188 µs, three runs a side (their repetitions are not replicates):
    // each run's median, so 3 against 3, clearly worse, decided by Welch's t-test on logarithms.
    expect(row).toMatchObject({ verdict: 'worse', significant: true, decidedBy: 'welch-log', replicates: 'run', baseline: { n: 3, observations: 15 } });
    expect(row?.welch?.p).toBeLessThan(0.001);
    expect(page?.charts.length).toBeGreaterThan(0);
    const bar = page?.charts.find((c) => c.kind === 'bar');
    expect(bar && 'series' in bar ? bar.series.map((s) => s.name) : []).toEqual(['baseline: client_zone=zone-a', 'candidate: client_zone=zone-b']);
  });

  it('says which selection matched nothing', async () => {
    const result = await dispatchCall(desktop.api, 'compareSelections', {
      baseline: [{ key: 'client_zone', value: 'zone-a' }],
      candidate: [{ key: 'client_zone', value: 'nowhere' }],
    });
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringContaining('no stored samples have client_zone=nowhere') } });
  });
});
