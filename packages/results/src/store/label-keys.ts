import type { DatabaseSync } from './sqlite.js';

/** A label key of the store, with the runs that carry it and (when few) its values. */
export interface StoredLabelKey {
  readonly key: string;
  /** Runs having this key on the run or on any sample. */
  readonly runs: number;
  /** Every value, most used first; empty when the key has more than `listedValues` (`manyValues`). */
  readonly values: readonly { readonly value: string; readonly runs: number }[];
  /** Too many distinct values to list (interval ends, sequence numbers…): selections type one. */
  readonly manyValues: boolean;
}

interface ValueRow {
  value: string;
  runs: number;
}

/**
 * Every label key with how many runs carry it and its values, for pickers of
 * `key=value` selections (`compare`, the desktop). Keys with more than
 * `listedValues` distinct values are coordinates, not selections: they are
 * named but not listed. Uses the `labels (key, value)` index of every schema
 * version, so it stays fast on stores with per-sample labels.
 */
export function labelKeys(db: DatabaseSync, listedValues = 200): StoredLabelKey[] {
  // Distinct keys by skipping through the (key, value) index: one probe per key, not one row per label.
  const keys = (
    db
      .prepare(`WITH RECURSIVE k(key) AS (SELECT min(key) FROM labels UNION ALL SELECT (SELECT min(key) FROM labels WHERE key > k.key) FROM k WHERE k.key IS NOT NULL)
    SELECT key FROM k WHERE key IS NOT NULL`)
      .all() as unknown as { key: string }[]
  ).map((r) => r.key);
  // Stops after listedValues + 1 values: a key with more is not listed value by value.
  const capped = db.prepare('SELECT count(*) AS n FROM (SELECT DISTINCT value FROM labels WHERE key = ? LIMIT ?)');
  const values = db.prepare('SELECT value, count(DISTINCT run_pk) AS runs FROM labels WHERE key = ? GROUP BY value ORDER BY runs DESC, value');
  const runsOf = db.prepare('SELECT count(DISTINCT run_pk) AS n FROM labels WHERE key = ?');
  const listed = keys.map((key): StoredLabelKey => {
    const few = Number((capped.get(key, listedValues + 1) as { n: number }).n) <= listedValues;
    const runs = Number((runsOf.get(key) as { n: number }).n);
    if (!few) return { key, runs, values: [], manyValues: true };
    return { key, runs, values: (values.all(key) as unknown as ValueRow[]).map((v) => ({ value: v.value, runs: Number(v.runs) })), manyValues: false };
  });
  return listed.sort((a, b) => b.runs - a.runs || a.key.localeCompare(b.key));
}
