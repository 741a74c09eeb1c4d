/**
 * The results store's SQLite schema, as forward migrations. A file is ours
 * when its `application_id` is APPLICATION_ID; `user_version` is the last
 * migration applied. Migrations only ever move forward, each in the same
 * transaction as the version bump. Never edit a released step: add one.
 */

/** `PRAGMA application_id`: "NBDB", so a foreign SQLite file is never mistaken for a store. */
export const APPLICATION_ID = 0x4e424442;

export interface Migration {
  /** `user_version` after this step. */
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/**
 * Version 1: runs, their hosts, trials, raw-output paths, label sets (each
 * label a row, indexed by key and value), samples and histograms. Times are
 * milliseconds since the epoch (UTC). Child tables are clustered by run
 * (`WITHOUT ROWID`, primary key first on `run_pk`), so a run's rows sit
 * together and deleting one is a range delete.
 */
export const V1_SQL = `
CREATE TABLE runs (
  run_pk INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  owner TEXT NOT NULL,
  netbench_version TEXT NOT NULL,
  run_dir TEXT NOT NULL,
  spec_file TEXT,
  spec_text TEXT,
  record TEXT NOT NULL,
  label_set INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL
);
CREATE INDEX runs_started ON runs (started_at);
CREATE INDEX runs_name ON runs (name, started_at);
CREATE TABLE hosts (
  run_pk INTEGER NOT NULL,
  host_id TEXT NOT NULL,
  name TEXT NOT NULL,
  cloud TEXT NOT NULL,
  zone TEXT,
  region TEXT,
  machine_type TEXT,
  internal_ip TEXT NOT NULL,
  external_ip TEXT,
  os TEXT,
  labels TEXT NOT NULL,
  PRIMARY KEY (run_pk, host_id)
) WITHOUT ROWID;
CREATE TABLE trials (
  run_pk INTEGER NOT NULL,
  trial_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  test TEXT NOT NULL,
  benchmark TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  error TEXT,
  client TEXT NOT NULL,
  server TEXT NOT NULL,
  params TEXT NOT NULL,
  cell TEXT NOT NULL,
  sample_count INTEGER NOT NULL,
  PRIMARY KEY (run_pk, trial_id)
) WITHOUT ROWID;
CREATE TABLE raw_files (
  run_pk INTEGER NOT NULL,
  trial_id TEXT NOT NULL,
  path TEXT NOT NULL,
  PRIMARY KEY (run_pk, trial_id, path)
) WITHOUT ROWID;
CREATE TABLE label_sets (
  run_pk INTEGER NOT NULL,
  set_no INTEGER NOT NULL,
  labels TEXT NOT NULL,
  PRIMARY KEY (run_pk, set_no)
) WITHOUT ROWID;
CREATE TABLE labels (
  run_pk INTEGER NOT NULL,
  set_no INTEGER NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_pk, set_no, key)
) WITHOUT ROWID;
CREATE INDEX labels_kv ON labels (key, value);
CREATE TABLE samples (
  run_pk INTEGER NOT NULL,
  sample_no INTEGER NOT NULL,
  sample_id TEXT,
  trial_id TEXT,
  metric TEXT NOT NULL,
  value REAL NOT NULL,
  unit TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  label_set INTEGER NOT NULL,
  PRIMARY KEY (run_pk, sample_no)
) WITHOUT ROWID;
CREATE TABLE histograms (
  run_pk INTEGER NOT NULL,
  sample_no INTEGER NOT NULL,
  encoding TEXT NOT NULL,
  unit TEXT NOT NULL,
  count INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (run_pk, sample_no)
) WITHOUT ROWID;
`;

/**
 * Version 2: what \`results list\` and \`trend\` ask for most, kept ready —
 * per-run tools and counts, a metric → runs index, trials by tool —
 * backfilled from the rows version 1 already holds.
 */
export const V2_SQL = `
ALTER TABLE runs ADD COLUMN tools TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN trial_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN sample_count INTEGER NOT NULL DEFAULT 0;
CREATE TABLE run_metrics (
  metric TEXT NOT NULL,
  run_pk INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (metric, run_pk)
) WITHOUT ROWID;
CREATE INDEX run_metrics_run ON run_metrics (run_pk);
CREATE INDEX trials_tool ON trials (tool, run_pk);
UPDATE runs SET
  tools = coalesce((SELECT group_concat(tool, ',') FROM (SELECT DISTINCT tool FROM trials t WHERE t.run_pk = runs.run_pk ORDER BY tool)), ''),
  trial_count = (SELECT count(*) FROM trials t WHERE t.run_pk = runs.run_pk),
  sample_count = (SELECT count(*) FROM samples s WHERE s.run_pk = runs.run_pk);
INSERT INTO run_metrics (metric, run_pk, count) SELECT metric, run_pk, count(*) FROM samples GROUP BY metric, run_pk;
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, description: 'runs, hosts, trials, raw files, labels, samples, histograms', sql: V1_SQL },
  { version: 2, description: 'per-run tools and counts, metric index, trials by tool', sql: V2_SQL },
];

/** The version this netbench writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
