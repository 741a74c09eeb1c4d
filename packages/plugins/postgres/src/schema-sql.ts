/**
 * The results store's schema in PostgreSQL: the same tables and columns as
 * the embedded SQLite store (see docs/results.md), with PostgreSQL's types
 * — timestamps are `timestamptz`, JSON columns `jsonb`, child rows cascade
 * with their run. `S` is replaced by the (validated) schema name.
 */
export const PG_MIGRATIONS: readonly { readonly version: number; readonly sql: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE S.runs (
  run_pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id text NOT NULL UNIQUE,
  name text NOT NULL,
  status text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  owner text NOT NULL,
  netbench_version text NOT NULL,
  run_dir text NOT NULL,
  spec_file text,
  spec_text text,
  record jsonb NOT NULL,
  label_set integer NOT NULL,
  ingested_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX runs_started ON S.runs (started_at);
CREATE INDEX runs_name ON S.runs (name, started_at);
CREATE TABLE S.hosts (
  run_pk bigint NOT NULL REFERENCES S.runs ON DELETE CASCADE,
  host_id text NOT NULL,
  name text NOT NULL,
  cloud text NOT NULL,
  zone text,
  region text,
  machine_type text,
  internal_ip text NOT NULL,
  external_ip text,
  os text,
  labels jsonb NOT NULL,
  PRIMARY KEY (run_pk, host_id)
);
CREATE TABLE S.trials (
  run_pk bigint NOT NULL REFERENCES S.runs ON DELETE CASCADE,
  trial_id text NOT NULL,
  tool text NOT NULL,
  test text NOT NULL,
  benchmark text NOT NULL,
  status text NOT NULL,
  attempts integer NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  error text,
  client text NOT NULL,
  server text NOT NULL,
  params jsonb NOT NULL,
  cell jsonb NOT NULL,
  sample_count integer NOT NULL,
  PRIMARY KEY (run_pk, trial_id)
);
CREATE TABLE S.raw_files (
  run_pk bigint NOT NULL REFERENCES S.runs ON DELETE CASCADE,
  trial_id text NOT NULL,
  path text NOT NULL,
  PRIMARY KEY (run_pk, trial_id, path)
);
CREATE TABLE S.label_sets (
  run_pk bigint NOT NULL REFERENCES S.runs ON DELETE CASCADE,
  set_no integer NOT NULL,
  labels jsonb NOT NULL,
  PRIMARY KEY (run_pk, set_no)
);
CREATE TABLE S.labels (
  run_pk bigint NOT NULL,
  set_no integer NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  PRIMARY KEY (run_pk, set_no, key),
  FOREIGN KEY (run_pk, set_no) REFERENCES S.label_sets ON DELETE CASCADE
);
CREATE INDEX labels_kv ON S.labels (key, value);
CREATE TABLE S.samples (
  run_pk bigint NOT NULL REFERENCES S.runs ON DELETE CASCADE,
  sample_no integer NOT NULL,
  sample_id text,
  trial_id text,
  metric text NOT NULL,
  value double precision NOT NULL,
  unit text NOT NULL,
  "timestamp" timestamptz NOT NULL,
  label_set integer NOT NULL,
  PRIMARY KEY (run_pk, sample_no)
);
CREATE TABLE S.histograms (
  run_pk bigint NOT NULL,
  sample_no integer NOT NULL,
  encoding text NOT NULL,
  unit text NOT NULL,
  count bigint NOT NULL,
  data text NOT NULL,
  PRIMARY KEY (run_pk, sample_no),
  FOREIGN KEY (run_pk, sample_no) REFERENCES S.samples ON DELETE CASCADE
);
`,
  },
  {
    version: 2,
    sql: `
ALTER TABLE S.runs ADD COLUMN tools text NOT NULL DEFAULT '';
ALTER TABLE S.runs ADD COLUMN trial_count integer NOT NULL DEFAULT 0;
ALTER TABLE S.runs ADD COLUMN sample_count integer NOT NULL DEFAULT 0;
CREATE TABLE S.run_metrics (
  metric text NOT NULL,
  run_pk bigint NOT NULL REFERENCES S.runs ON DELETE CASCADE,
  count integer NOT NULL,
  PRIMARY KEY (metric, run_pk)
);
CREATE INDEX run_metrics_run ON S.run_metrics (run_pk);
CREATE INDEX trials_tool ON S.trials (tool, run_pk);
UPDATE S.runs r SET
  tools = coalesce((SELECT string_agg(DISTINCT t.tool, ',' ORDER BY t.tool) FROM S.trials t WHERE t.run_pk = r.run_pk), ''),
  trial_count = (SELECT count(*) FROM S.trials t WHERE t.run_pk = r.run_pk),
  sample_count = (SELECT count(*) FROM S.samples s WHERE s.run_pk = r.run_pk);
INSERT INTO S.run_metrics (metric, run_pk, count) SELECT metric, run_pk, count(*) FROM S.samples GROUP BY metric, run_pk;
`,
  },
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]!.version;

/** The SQL of a migration for one schema (a validated identifier). */
export function forSchema(sql: string, schema: string): string {
  return sql.replaceAll('S.', `"${schema}".`);
}
