import type { Labels, Sample } from '../samples/types.js';
import type { DatabaseSync } from './sqlite.js';

interface SampleRow {
  sample_no: number;
  sample_id: string | null;
  trial_id: string | null;
  metric: string;
  value: number;
  unit: string;
  timestamp: number;
  label_set: number;
  h_encoding: string | null;
  h_unit: string | null;
  h_count: number | null;
  h_data: string | null;
}

export interface ReadSamplesOptions {
  /** Only this metric. */
  readonly metric?: string;
  /** Only samples whose label set is one of these. */
  readonly sets?: ReadonlySet<number>;
}

/** Label sets of a run by number (parsed once; samples share them, so treat them as read-only). */
export function readLabelSets(db: DatabaseSync, runPk: number): Map<number, Labels> {
  const sets = new Map<number, Labels>();
  for (const row of db.prepare('SELECT set_no, labels FROM label_sets WHERE run_pk = ?').all(runPk) as { set_no: number; labels: string }[]) {
    sets.set(row.set_no, JSON.parse(row.labels) as Labels);
  }
  return sets;
}

/** A run's samples in their original order, rebuilt exactly as `results.json` holds them. */
export function readSamples(db: DatabaseSync, runPk: number, runId: string, options: ReadSamplesOptions = {}): Sample[] {
  const sets = readLabelSets(db, runPk);
  const sql = `SELECT s.sample_no, s.sample_id, s.trial_id, s.metric, s.value, s.unit, s.timestamp, s.label_set,
      h.encoding AS h_encoding, h.unit AS h_unit, h.count AS h_count, h.data AS h_data
    FROM samples s LEFT JOIN histograms h ON h.run_pk = s.run_pk AND h.sample_no = s.sample_no
    WHERE s.run_pk = ?${options.metric !== undefined ? ' AND s.metric = ?' : ''} ORDER BY s.sample_no`;
  const rows = (options.metric !== undefined ? db.prepare(sql).all(runPk, options.metric) : db.prepare(sql).all(runPk)) as unknown as SampleRow[];
  const samples: Sample[] = [];
  for (const row of rows) {
    if (options.sets && !options.sets.has(row.label_set)) continue;
    samples.push({
      runId,
      sampleId: row.sample_id ?? `${runId}-${row.sample_no}`,
      ...(row.trial_id !== null ? { trialId: row.trial_id } : {}),
      metric: row.metric,
      value: row.value,
      unit: row.unit,
      timestamp: row.timestamp,
      labels: sets.get(row.label_set) ?? {},
      ...(row.h_data !== null
        ? { histogram: { encoding: row.h_encoding as 'hdr-base64', unit: row.h_unit as 'ns' | 'us' | 'ms', data: row.h_data, count: row.h_count ?? 0 } }
        : {}),
    });
  }
  return samples;
}
