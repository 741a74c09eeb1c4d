import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveRun, quickstartRun } from './__fixtures__/derive-run.js';
import { openStore } from './open-store.js';
import { trendChart } from './trend-chart.js';

let dir: string;
let db: string;
const real = quickstartRun();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-trend-chart-'));
  db = join(dir, 'netbench.db');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("trend chart (a line per label value over the runs' dates)", () => {
  it('splits by zone, judges each line on its own history, and flags the run that regressed', async () => {
    const store = await openStore(db);
    // Six nightly runs in each of two zones; in zone b the last run's latency is 3× the others (a regression).
    for (let day = 1; day <= 6; day++) {
      for (const zone of ['lab-a', 'lab-b']) {
        const scale = zone === 'lab-b' && day === 6 ? 3 : 1 + (day % 3) * 0.01;
        const runId = `202611${String(day).padStart(2, '0')}-0800${zone === 'lab-a' ? '00' : '30'}-${zone === 'lab-a' ? 'aaaaa' : 'bbbbb'}${day}`;
        store.ingest(deriveRun(real, { runId, startedAt: `2026-11-0${day}T08:00:${zone === 'lab-a' ? '00' : '30'}.000Z`, tools: ['ping'], scale, labels: { client_zone: zone } }));
      }
    }
    store.close();
    const { chart, trends, refused } = await trendChart({ db, metric: 'Average Latency', splitBy: 'client_zone', where: [['direction', 'forward']] });
    expect(refused).toEqual([]);
    expect(chart.kind).toBe('trend');
    expect(chart.series.map((s) => s.name)).toEqual(['client_zone=lab-a', 'client_zone=lab-b']);
    for (const s of chart.series) {
      expect(s.points).toHaveLength(6);
      // Oldest first, on the runs' own dates.
      expect(s.points.map((p) => p.at)).toEqual([...s.points.map((p) => p.at)].sort((a, b) => a - b));
      expect(new Date(s.points[0]!.at).toISOString().slice(0, 10)).toBe('2026-11-01');
    }
    const [a, b] = chart.series;
    expect(a!.points.every((p) => p.flag === null)).toBe(true);
    expect(b!.points.at(-1)!.flag).toBe('regression');
    expect(b!.points.at(-1)!.value / b!.points[0]!.value).toBeGreaterThan(2.5);
    expect(trends[1]!.trend.summary).toMatch(/regression/);
    expect(chart.y.unit).toBe('ms');
  });

  it('refuses a label none of the samples carry', async () => {
    const store = await openStore(db);
    store.ingest(deriveRun(real, { runId: '20261101-080000-cccccc', startedAt: '2026-11-01T08:00:00.000Z', tools: ['ping'] }));
    store.close();
    await expect(trendChart({ db, metric: 'Average Latency', splitBy: 'no_such_label' })).rejects.toThrow(/carry the label no_such_label/);
  });
});
