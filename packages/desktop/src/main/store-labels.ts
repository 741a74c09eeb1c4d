import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { APPLICATION_ID, defaultStorePath, NetbenchError, SCHEMA_VERSION } from '@netbench/core';
import type { StoreLabels } from '../shared/bridge-types.js';

/** Keys with more distinct values than this are coordinates (interval ends, sequence numbers), not selections. */
const LISTED_VALUES = 200;

interface ValueRow { value: string; runs: number }

/**
 * The label keys and values in the results store, for the compare page's
 * `key=value` pickers: every key with how many runs carry it, and its values
 * (most used first) when there are at most 200 of them.
 *
 * Read here with a read-only connection of its own because core's
 * `ResultsStore` has no call that lists labels; the query uses the
 * `labels (key, value)` index every store version has (schema v1+).
 */
export async function storeLabels(db: string | undefined): Promise<StoreLabels> {
  const file = resolve(db ?? defaultStorePath());
  if (!existsSync(file)) return { keys: [] };
  const { DatabaseSync } = await import('node:sqlite');
  const conn = new DatabaseSync(file, { readOnly: true, timeout: 5000 });
  try {
    const applicationId = Number((conn.prepare('PRAGMA application_id').get() as { application_id: number }).application_id);
    const version = Number((conn.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (applicationId !== APPLICATION_ID) throw new NetbenchError(`${file} is not a netbench results store`);
    if (version < 1 || version > SCHEMA_VERSION) throw new NetbenchError(`${file} is a results store of schema version ${version}; this netbench reads 1–${SCHEMA_VERSION}`);
    // Distinct keys by skipping through the (key, value) index: one probe per key, not one row per label.
    const keys = (conn.prepare(`WITH RECURSIVE k(key) AS (SELECT min(key) FROM labels UNION ALL SELECT (SELECT min(key) FROM labels WHERE key > k.key) FROM k WHERE k.key IS NOT NULL)
      SELECT key FROM k WHERE key IS NOT NULL`).all() as unknown as { key: string }[]).map((r) => r.key);
    // Stops after LISTED_VALUES + 1 values: a key with more is not listed value by value.
    const capped = conn.prepare('SELECT count(*) AS n FROM (SELECT DISTINCT value FROM labels WHERE key = ? LIMIT ?)');
    const values = conn.prepare('SELECT value, count(DISTINCT run_pk) AS runs FROM labels WHERE key = ? GROUP BY value ORDER BY runs DESC, value');
    const runsOf = conn.prepare('SELECT count(DISTINCT run_pk) AS n FROM labels WHERE key = ?');
    const listed = keys.map((key) => {
      const few = Number((capped.get(key, LISTED_VALUES + 1) as { n: number }).n) <= LISTED_VALUES;
      const runs = Number((runsOf.get(key) as { n: number }).n);
      if (!few) return { key, runs, values: [], manyValues: true };
      return { key, runs, values: (values.all(key) as unknown as ValueRow[]).map((v) => ({ value: v.value, runs: Number(v.runs) })), manyValues: false };
    });
    return { keys: listed.sort((a, b) => b.runs - a.runs || a.key.localeCompare(b.key)) };
  } finally {
    conn.close();
  }
}
