import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sampleColumns, storeRows } from '@netbench/plugin-api/publisher-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { quickstartRun } from './__fixtures__/derive-run.js';
import { openStore } from './open-store.js';
import { APPLICATION_ID, V1_SQL } from './schema.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-migrate-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

/** A version-1 store holding the real run, written with the version-1 DDL only. */
function writeV1(file: string): void {
  const raw = new DatabaseSync(file);
  raw.exec(V1_SQL);
  raw.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = 1;`);
  const rows = storeRows(quickstartRun());
  const r = rows.run;
  raw
    .prepare(
      'INSERT INTO runs (run_pk, run_id, name, status, started_at, finished_at, owner, netbench_version, run_dir, spec_file, spec_text, record, label_set, ingested_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)',
    )
    .run(r.runId, r.name, r.status, r.startedAt, r.finishedAt, r.owner, r.netbenchVersion, r.runDir, r.specFile, r.specText, r.record);
  for (const t of rows.trials) {
    raw
      .prepare('INSERT INTO trials VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(t.trialId, t.tool, t.test, t.benchmark, t.status, t.attempts, t.startedAt, t.finishedAt, t.error, t.client, t.server, t.params, t.cell, t.sampleCount);
  }
  for (const s of rows.labelSets) raw.prepare('INSERT INTO label_sets VALUES (1, ?, ?)').run(s.setNo, s.labels);
  rows.labels.key.forEach((key, i) => raw.prepare('INSERT INTO labels VALUES (1, ?, ?, ?)').run(rows.labels.setNo[i]!, key, rows.labels.value[i]!));
  const s = sampleColumns(rows);
  s.sampleNo.forEach((no, i) =>
    raw
      .prepare('INSERT INTO samples VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(no, s.sampleId[i]!, s.trialId[i]!, s.metric[i]!, s.value[i]!, s.unit[i]!, s.timestamp[i]!, s.labelSet[i]!),
  );
  for (const h of rows.histograms) raw.prepare('INSERT INTO histograms VALUES (1, ?, ?, ?, ?, ?)').run(h.sampleNo, h.encoding, h.unit, h.count, h.data);
  raw.close();
}

describe('store schema versions', () => {
  it('upgrades a version-1 file made by the version-1 DDL, backfilling what version 2 added', async () => {
    const file = join(dir, 'v1.db');
    writeV1(file);
    const store = await openStore(file, { create: false });
    try {
      expect(store.list().runs[0]).toMatchObject({ tools: ['iperf3', 'netperf', 'ping'], trials: 5, samples: 55 });
      expect(store.load(store.resolve('latest'))).toEqual(quickstartRun());
      // run_metrics (new in v2) answers metric queries for the old run.
      expect(store.select([], 'TCP_RR_Latency_p50')).toHaveLength(1);
    } finally {
      store.close();
    }
    const raw = new DatabaseSync(file);
    expect(raw.prepare('PRAGMA user_version').get()).toEqual({ user_version: 2 });
    expect(raw.prepare("SELECT name FROM sqlite_schema WHERE name IN ('trials_tool', 'run_metrics', 'run_metrics_run') ORDER BY name").all()).toHaveLength(3);
    raw.close();
  });

  it('refuses a store from a newer netbench and leaves it untouched', async () => {
    const file = join(dir, 'newer.db');
    (await openStore(file)).close();
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA user_version = 3; PRAGMA wal_checkpoint(TRUNCATE);');
    raw.close();
    const before = await sha(file);
    await expect(openStore(file)).rejects.toThrow(/written by a newer netbench \(store schema v3; this netbench knows up to v2\); nothing was changed/);
    expect(await sha(file)).toBe(before);
  });

  it('refuses a SQLite database that is not a store, and a file that is not SQLite, untouched', async () => {
    const foreign = join(dir, 'app.db');
    const raw = new DatabaseSync(foreign);
    raw.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');");
    raw.close();
    const before = await sha(foreign);
    await expect(openStore(foreign)).rejects.toThrow(/app\.db is a SQLite database but not a netbench results store .*nothing was changed/);
    expect(await sha(foreign)).toBe(before);

    const text = join(dir, 'notes.txt');
    await writeFile(text, 'shopping list\n'.repeat(500));
    await expect(openStore(text)).rejects.toThrow(/notes\.txt is not a SQLite database/);
    expect(await readFile(text, 'utf8')).toBe('shopping list\n'.repeat(500));
  });

  it('names the file when its folder cannot be made', async () => {
    const blocker = join(dir, 'file');
    await writeFile(blocker, 'x');
    await expect(openStore(join(blocker, 'netbench.db'))).rejects.toThrow(/creating the results store: .*file\/netbench\.db/);
  });
});
