import type { EncodedHistogram, Labels, Sample } from '@netbench/plugin-api';
import type { DatabaseSync, StatementSync } from './sqlite.js';

export interface ReadSamplesOptions {
  /** Only this metric. */
  readonly metric?: string;
  /** Only samples whose label set is one of these. */
  readonly sets?: ReadonlySet<number>;
}

/** `[sample_no, sample_id, trial_id, metric, value, unit, timestamp, label_set]`. */
type SampleRow = [number, string | null, string | null, string, number, string, number, number];

/**
 * Rows as arrays where node:sqlite can (Node ≥ 24; ~40% faster than one
 * object per row on a 100,000-sample run), else as objects turned into arrays.
 */
export function allRows(statement: StatementSync, columns: readonly string[], ...params: (string | number)[]): unknown[][] {
  if (typeof statement.setReturnArrays === 'function') {
    statement.setReturnArrays(true);
    return statement.all(...params) as unknown as unknown[][];
  }
  return (statement.all(...params) as Record<string, unknown>[]).map((row) => columns.map((c) => row[c]));
}

/** Set numbers per query when a run's label sets are read as one JSON array (a few MB of text each). */
const LABEL_SETS_PER_READ = 50_000;

/**
 * Label sets of a run by number (parsed once; samples share them, so treat
 * them as read-only). Per-interval samples have a set each: read as JSON
 * arrays of many sets, one `JSON.parse` per 50,000 sets instead of one per
 * set (a row and a parse per set was ~a third of reading a 100,000-interval run).
 */
export function readLabelSets(db: DatabaseSync, runPk: number, only?: ReadonlySet<number>, perRead = LABEL_SETS_PER_READ): Map<number, Labels> {
  const sets = new Map<number, Labels>();
  if (only) {
    for (const [setNo, labels] of allRows(db.prepare('SELECT set_no, labels FROM label_sets WHERE run_pk = ?'), ['set_no', 'labels'], runPk) as [number, string][]) {
      if (only.has(setNo)) sets.set(setNo, JSON.parse(labels) as Labels);
    }
    return sets;
  }
  const range = db.prepare('SELECT min(set_no) AS low, max(set_no) AS high FROM label_sets WHERE run_pk = ?').get(runPk) as { low: number | null; high: number | null };
  if (range.low === null || range.high === null) return sets;
  // Both aggregates see the rows in the same order, whatever it is: numbers[i] is the number of sets[i].
  const chunk = db.prepare(`SELECT json_group_array(set_no) AS numbers, '[' || group_concat(labels, ',') || ']' AS sets
    FROM label_sets WHERE run_pk = ? AND set_no >= ? AND set_no < ?`);
  for (let from = range.low; from <= range.high; from += perRead) {
    const row = chunk.get(runPk, from, from + perRead) as { numbers: string; sets: string | null };
    if (row.sets === null) continue;
    const numbers = JSON.parse(row.numbers) as number[];
    const parsed = JSON.parse(row.sets) as Labels[];
    for (let i = 0; i < numbers.length; i++) sets.set(numbers[i]!, parsed[i]!);
  }
  return sets;
}

/**
 * A run's histograms by sample number. Read apart from the samples: a LEFT
 * JOIN costs one index probe per sample (most of a 100,000-interval run's
 * read), while runs without histograms answer this at once.
 */
function readHistograms(db: DatabaseSync, runPk: number, metric: string | undefined): Map<number, EncodedHistogram> {
  const sql =
    metric === undefined
      ? 'SELECT sample_no, encoding, unit, count, data FROM histograms WHERE run_pk = ?'
      : 'SELECT h.sample_no, h.encoding, h.unit, h.count, h.data FROM histograms h JOIN samples s ON s.run_pk = h.run_pk AND s.sample_no = h.sample_no WHERE h.run_pk = ? AND s.metric = ?';
  const rows = allRows(db.prepare(sql), ['sample_no', 'encoding', 'unit', 'count', 'data'], ...(metric === undefined ? [runPk] : [runPk, metric]));
  const histograms = new Map<number, EncodedHistogram>();
  for (const [sampleNo, encoding, unit, count, data] of rows as [number, string, string, number | null, string][]) {
    histograms.set(sampleNo, { encoding: encoding as 'hdr-base64', unit: unit as 'ns' | 'us' | 'ms', data, count: count ?? 0 });
  }
  return histograms;
}

/** A run's samples in their original order, rebuilt exactly as `results.json` holds them. */
export function readSamples(db: DatabaseSync, runPk: number, runId: string, options: ReadSamplesOptions = {}): Sample[] {
  const sets = readLabelSets(db, runPk, options.sets);
  const histograms = readHistograms(db, runPk, options.metric);
  const sql = `SELECT sample_no, sample_id, trial_id, metric, value, unit, timestamp, label_set FROM samples
    WHERE run_pk = ?${options.metric !== undefined ? ' AND metric = ?' : ''} ORDER BY sample_no`;
  const columns = ['sample_no', 'sample_id', 'trial_id', 'metric', 'value', 'unit', 'timestamp', 'label_set'];
  const rows = allRows(db.prepare(sql), columns, ...(options.metric !== undefined ? [runPk, options.metric] : [runPk])) as SampleRow[];
  const samples: Sample[] = [];
  // SQLite hands over a new string per cell; a run repeats a handful of trial ids, metrics and
  // units. Sharing the first copy lets the others die young (cheaper garbage collection).
  let trialId: string | null = null;
  let metric = '';
  let unit = '';
  for (const row of rows) {
    const [sampleNo, sampleId, rowTrial, rowMetric, value, rowUnit, timestamp, labelSet] = row;
    if (options.sets && !options.sets.has(labelSet)) continue;
    if (rowTrial !== trialId) trialId = rowTrial;
    if (rowMetric !== metric) metric = rowMetric;
    if (rowUnit !== unit) unit = rowUnit;
    // Keys in results.json's order; literals rather than spreads (no throw-away objects per sample).
    const id = sampleId ?? `${runId}-${sampleNo}`;
    const labels = sets.get(labelSet) ?? {};
    const sample: { -readonly [K in keyof Sample]: Sample[K] } =
      trialId !== null ? { runId, sampleId: id, trialId, metric, value, unit, timestamp, labels } : { runId, sampleId: id, metric, value, unit, timestamp, labels };
    const histogram = histograms.size > 0 ? histograms.get(sampleNo) : undefined;
    if (histogram) sample.histogram = histogram;
    samples.push(sample);
  }
  return samples;
}
