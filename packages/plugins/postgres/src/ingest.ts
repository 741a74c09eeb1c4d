import { type StoreRows, sampleColumns } from '@netbench/plugin-api/publisher-kit';
import type { ClientBase } from 'pg';

/**
 * Insert a run's rows (the same decomposition the SQLite store uses),
 * replacing a run of the same id, inside the caller's transaction. Each
 * table is one statement over `unnest`ed arrays: a round trip per table,
 * not per row.
 */
export async function ingestRows(client: ClientBase, schema: string, rows: StoreRows): Promise<{ replaced: boolean }> {
  const s = `"${schema}"`;
  const { run } = rows;
  const removed = await client.query(`DELETE FROM ${s}.runs WHERE run_id = $1`, [run.runId]);
  const inserted = await client.query<{ run_pk: string }>(
    `INSERT INTO ${s}.runs (run_id, name, status, started_at, finished_at, owner, netbench_version, run_dir, spec_file, spec_text, record, label_set, tools, trial_count, sample_count)
     VALUES ($1, $2, $3, to_timestamp($4::float8 / 1000), to_timestamp($5::float8 / 1000), $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14, $15) RETURNING run_pk`,
    [
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
      run.tools,
      run.trialCount,
      run.sampleCount,
    ],
  );
  const pk = inserted.rows[0]!.run_pk;
  const ts = (ms: number | null) => ms;

  await client.query(
    `INSERT INTO ${s}.hosts SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::jsonb[])`,
    [
      pk,
      ...columns(
        rows.hosts,
        (h) => [h.id, h.name, h.cloud, h.zone ?? null, h.region ?? null, h.machineType ?? null, h.internalIp, h.externalIp ?? null, h.os ?? null, JSON.stringify(h.labels)],
        10,
      ),
    ],
  );
  await client.query(
    `INSERT INTO ${s}.trials SELECT $1, t.trial_id, t.tool, t.test, t.benchmark, t.status, t.attempts, to_timestamp(t.started / 1000), to_timestamp(t.finished / 1000), t.error, t.client, t.server, t.params, t.cell, t.sample_count
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::float8[], $9::float8[], $10::text[], $11::text[], $12::text[], $13::jsonb[], $14::jsonb[], $15::int[])
       AS t(trial_id, tool, test, benchmark, status, attempts, started, finished, error, client, server, params, cell, sample_count)`,
    [
      pk,
      ...columns(
        rows.trials,
        (t) => [t.trialId, t.tool, t.test, t.benchmark, t.status, t.attempts, ts(t.startedAt), ts(t.finishedAt), t.error, t.client, t.server, t.params, t.cell, t.sampleCount],
        14,
      ),
    ],
  );
  await client.query(`INSERT INTO ${s}.raw_files SELECT $1, * FROM unnest($2::text[], $3::text[])`, [pk, ...columns(rows.rawFiles, (r) => [r.trialId, r.path], 2)]);
  await client.query(`INSERT INTO ${s}.label_sets SELECT $1, * FROM unnest($2::int[], $3::jsonb[])`, [pk, ...columns(rows.labelSets, (l) => [l.setNo, l.labels], 2)]);
  await client.query(`INSERT INTO ${s}.labels SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[])`, [pk, rows.labels.setNo, rows.labels.key, rows.labels.value]);
  const m = sampleColumns(rows);
  await client.query(
    `INSERT INTO ${s}.samples SELECT $1, t.sample_no, t.sample_id, t.trial_id, t.metric, t.value, t.unit, to_timestamp(t.ts / 1000), t.label_set
     FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::text[], $8::float8[], $9::int[])
       AS t(sample_no, sample_id, trial_id, metric, value, unit, ts, label_set)`,
    [pk, m.sampleNo, m.sampleId, m.trialId, m.metric, m.value, m.unit, m.timestamp, m.labelSet],
  );
  await client.query(`INSERT INTO ${s}.histograms SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::bigint[], $6::text[])`, [
    pk,
    ...columns(rows.histograms, (h) => [h.sampleNo, h.encoding, h.unit, h.count, h.data], 5),
  ]);
  await client.query(`INSERT INTO ${s}.run_metrics SELECT t.metric, $1, t.count FROM unnest($2::text[], $3::int[]) AS t(metric, count)`, [
    pk,
    ...columns(rows.runMetrics, (r) => [r.metric, r.count], 2),
  ]);
  return { replaced: (removed.rowCount ?? 0) > 0 };
}

/** Rows → one array per column (what `unnest` takes). */
function columns<T>(rows: readonly T[], pick: (row: T) => unknown[], width: number): unknown[][] {
  const out: unknown[][] = Array.from({ length: width }, () => []);
  for (const row of rows) pick(row).forEach((value, i) => out[i]!.push(value));
  return out;
}
