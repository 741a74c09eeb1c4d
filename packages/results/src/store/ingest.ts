import { type StoreRows, storedSampleId } from '@netbench/plugin-api/publisher-kit';
import { BatchInsert } from './batch-insert.js';
import { deleteRunRows } from './delete-runs.js';
import type { DatabaseSync } from './sqlite.js';
import { prepared } from './statements.js';

export interface IngestResult {
  readonly runId: string;
  readonly samples: number;
  /** The store already held this run id: its rows were replaced. */
  readonly replaced: boolean;
}

/** Insert a run's rows, replacing a run of the same id. The caller holds the transaction. */
export function ingestRows(db: DatabaseSync, rows: StoreRows): IngestResult {
  const { run } = rows;
  const existing = prepared(db, 'SELECT run_pk FROM runs WHERE run_id = ?').get(run.runId) as { run_pk: number } | undefined;
  if (existing) deleteRunRows(db, existing.run_pk);
  const inserted = prepared(
    db,
    `INSERT INTO runs (run_id, name, status, started_at, finished_at, owner, netbench_version, run_dir, spec_file, spec_text, record, label_set, ingested_at, tools, trial_count, sample_count)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING run_pk`,
  ).get(
    run.runId,
    run.name,
    run.status,
    run.startedAt,
    run.finishedAt,
    run.owner,
    run.netbenchVersion,
    run.runDir,
    run.specFile,
    run.specText,
    run.record,
    run.labelSet,
    Date.now(),
    run.tools,
    run.trialCount,
    run.sampleCount,
  ) as { run_pk: number };
  const pk = inserted.run_pk;

  const hosts = new BatchInsert(
    db,
    'hosts',
    ['run_pk', 'host_id', 'name', 'cloud', 'zone', 'region', 'machine_type', 'internal_ip', 'external_ip', 'os', 'labels'],
    rows.hosts.length,
    16,
  );
  for (const h of rows.hosts)
    hosts.add(pk, h.id, h.name, h.cloud, h.zone ?? null, h.region ?? null, h.machineType ?? null, h.internalIp, h.externalIp ?? null, h.os ?? null, JSON.stringify(h.labels));
  hosts.flush();

  const trials = new BatchInsert(
    db,
    'trials',
    ['run_pk', 'trial_id', 'tool', 'test', 'benchmark', 'status', 'attempts', 'started_at', 'finished_at', 'error', 'client', 'server', 'params', 'cell', 'sample_count'],
    rows.trials.length,
    16,
  );
  for (const t of rows.trials)
    trials.add(pk, t.trialId, t.tool, t.test, t.benchmark, t.status, t.attempts, t.startedAt, t.finishedAt, t.error, t.client, t.server, t.params, t.cell, t.sampleCount);
  trials.flush();

  const raw = new BatchInsert(db, 'raw_files', ['run_pk', 'trial_id', 'path'], rows.rawFiles.length, 32);
  for (const r of rows.rawFiles) raw.add(pk, r.trialId, r.path);
  raw.flush();

  const sets = new BatchInsert(db, 'label_sets', ['run_pk', 'set_no', 'labels'], rows.labelSets.length, 32);
  for (const s of rows.labelSets) sets.add(pk, s.setNo, s.labels);
  sets.flush();

  const labels = new BatchInsert(db, 'labels', ['run_pk', 'set_no', 'key', 'value'], rows.labels.key.length, 64);
  const l = rows.labels;
  for (let i = 0; i < l.key.length; i += 1) labels.add(pk, l.setNo[i]!, l.key[i]!, l.value[i]!);
  labels.flush();

  const samples = new BatchInsert(db, 'samples', ['run_pk', 'sample_no', 'sample_id', 'trial_id', 'metric', 'value', 'unit', 'timestamp', 'label_set'], rows.samples.length, 256);
  // The hot loop of an ingest: straight from the samples into one reused row array, no allocation per sample.
  const row: (string | number | null)[] = [pk, 0, null, null, '', 0, '', 0, 0];
  const { runId } = run;
  for (let i = 0; i < rows.samples.length; i += 1) {
    const sample = rows.samples[i]!;
    row[1] = i + 1;
    row[2] = storedSampleId(runId, sample, i + 1);
    row[3] = sample.trialId ?? null;
    row[4] = sample.metric;
    row[5] = sample.value;
    row[6] = sample.unit;
    row[7] = sample.timestamp;
    row[8] = rows.sampleSets[i]!;
    samples.put(row);
  }
  samples.flush();

  const histograms = new BatchInsert(db, 'histograms', ['run_pk', 'sample_no', 'encoding', 'unit', 'count', 'data'], rows.histograms.length, 16);
  for (const h of rows.histograms) histograms.add(pk, h.sampleNo, h.encoding, h.unit, h.count, h.data);
  histograms.flush();

  const metrics = new BatchInsert(db, 'run_metrics', ['metric', 'run_pk', 'count'], rows.runMetrics.length, 32);
  for (const m of rows.runMetrics) metrics.add(m.metric, pk, m.count);
  metrics.flush();

  return { runId: run.runId, samples: rows.samples.length, replaced: existing !== undefined };
}
