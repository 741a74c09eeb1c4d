import type { RunResults } from '../run/run-files.js';
import type { HostRecord } from '../run/run-record.js';
import type { EncodedHistogram, Labels, Sample } from '../samples/types.js';

/** `runs` row of a run (times in ms since the epoch). */
export interface RunRow {
  readonly runId: string;
  readonly name: string;
  readonly status: string;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly owner: string;
  readonly netbenchVersion: string;
  readonly runDir: string;
  readonly specFile: string | null;
  readonly specText: string | null;
  /** The run record as JSON, without `specText` (kept in its own column). */
  readonly record: string;
  /** Label set 0 holds the run's own labels. */
  readonly labelSet: 0;
  /** Distinct tools of the trials, sorted, comma-separated. */
  readonly tools: string;
  readonly trialCount: number;
  readonly sampleCount: number;
}

export interface TrialRow {
  readonly trialId: string;
  readonly tool: string;
  readonly test: string;
  readonly benchmark: string;
  readonly status: string;
  readonly attempts: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  readonly error: string | null;
  readonly client: string;
  readonly server: string;
  readonly params: string;
  readonly cell: string;
  readonly sampleCount: number;
}

/** Samples column by column (to send as arrays, e.g. to PostgreSQL's `unnest`). */
export interface SampleColumns {
  readonly sampleNo: number[];
  /** `null` when the id is `<runId>-<sampleNo>`, as the engine numbers them. */
  readonly sampleId: (string | null)[];
  readonly trialId: (string | null)[];
  readonly metric: string[];
  readonly value: number[];
  readonly unit: string[];
  readonly timestamp: number[];
  readonly labelSet: number[];
}

/**
 * A run decomposed into the rows of the store's tables. Shared by the
 * SQLite store and the postgres publisher, so both hold the same rows.
 */
export interface StoreRows {
  readonly run: RunRow;
  readonly hosts: readonly HostRecord[];
  readonly trials: readonly TrialRow[];
  readonly rawFiles: readonly { readonly trialId: string; readonly path: string }[];
  /** Distinct label sets: 0 is the run's, then one per distinct sample label set. */
  readonly labelSets: readonly { readonly setNo: number; readonly labels: string }[];
  /** Every label of every set, one row each, values as text (`String(value)`). */
  readonly labels: { readonly setNo: number[]; readonly key: string[]; readonly value: string[] };
  /** The run's samples in order (`sample_no` is the index + 1); `sampleColumns` gives them column by column. */
  readonly samples: readonly Sample[];
  /** Label set of each sample. */
  readonly sampleSets: Int32Array;
  readonly histograms: readonly ({ readonly sampleNo: number } & EncodedHistogram)[];
  /** Samples per metric. */
  readonly runMetrics: readonly { readonly metric: string; readonly count: number }[];
}

const time = (iso: string | undefined): number | null => {
  if (iso === undefined) return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
};

/** Decompose `results.json`'s body into store rows. Pure. */
export function storeRows(results: RunResults): StoreRows {
  const { run, samples } = results;
  const { specText, ...recordWithoutSpec } = run;
  const labelSets: { setNo: number; labels: string }[] = [];
  const labels = { setNo: [] as number[], key: [] as string[], value: [] as string[] };
  const setsByJson = new Map<string, number>();
  const addSet = (set: Labels): number => {
    const json = JSON.stringify(set);
    const known = setsByJson.get(json);
    if (known !== undefined) return known;
    const setNo = labelSets.length;
    setsByJson.set(json, setNo);
    labelSets.push({ setNo, labels: json });
    for (const key of Object.keys(set)) {
      labels.setNo.push(setNo);
      labels.key.push(key);
      labels.value.push(String(set[key]));
    }
    return setNo;
  };
  addSet(run.labels);

  const sampleSets = new Int32Array(samples.length);
  const histograms: ({ sampleNo: number } & EncodedHistogram)[] = [];
  const perMetric = new Map<string, number>();
  // Samples of one trial usually share their labels: compare with the previous set before serialising.
  let previous: Labels | undefined;
  let previousKeys: string[] = [];
  let previousSet = 0;
  for (let index = 0; index < samples.length; index += 1) {
    const sample = samples[index]!;
    const labels = sample.labels;
    if (previous === undefined || !sameLabels(previous, previousKeys, labels)) {
      previousSet = addSet(labels);
      previous = labels;
      previousKeys = Object.keys(labels);
    }
    sampleSets[index] = previousSet;
    if (sample.histogram) histograms.push({ sampleNo: index + 1, ...sample.histogram });
    perMetric.set(sample.metric, (perMetric.get(sample.metric) ?? 0) + 1);
  }

  return {
    run: {
      runId: run.runId,
      name: run.name,
      status: run.status,
      startedAt: time(run.startedAt) ?? 0,
      finishedAt: time(run.finishedAt) ?? time(run.startedAt) ?? 0,
      owner: run.owner,
      netbenchVersion: run.netbenchVersion,
      runDir: run.runDir,
      specFile: run.specFile ?? null,
      specText: specText ?? null,
      record: JSON.stringify(recordWithoutSpec),
      labelSet: 0,
      tools: [...new Set(run.trials.map((t) => t.tool))].sort().join(','),
      trialCount: run.trials.length,
      sampleCount: samples.length,
    },
    hosts: run.hosts,
    trials: run.trials.map((t) => ({
      trialId: t.id,
      tool: t.tool,
      test: t.test,
      benchmark: t.benchmarkName,
      status: t.status,
      attempts: t.attempts,
      startedAt: time(t.startedAt),
      finishedAt: time(t.finishedAt),
      error: t.error ?? null,
      client: t.client,
      server: t.server,
      params: JSON.stringify(t.params),
      cell: JSON.stringify(t.cell),
      sampleCount: t.sampleCount,
    })),
    rawFiles: run.trials.flatMap((t) => [...new Set(t.rawFiles)].map((path) => ({ trialId: t.id, path }))),
    labelSets,
    labels,
    samples,
    sampleSets,
    histograms,
    runMetrics: [...perMetric].map(([metric, count]) => ({ metric, count })),
  };
}

/** Same keys in the same order with the same values, so the JSON of the set would be identical. No allocation. */
/**
 * The stored `sample_id`: `null` when it is `<runId>-<sampleNo>` as the
 * engine numbers samples (it is rebuilt on reading), else the id itself.
 */
export function storedSampleId(runId: string, sample: Sample, sampleNo: number): string | null {
  return sample.runId === runId && sample.sampleId.length > runId.length && sample.sampleId === `${runId}-${sampleNo}` ? null : sample.sampleId;
}

/** The samples of `rows` column by column. */
export function sampleColumns(rows: StoreRows): SampleColumns {
  const n = rows.samples.length;
  const c: SampleColumns = {
    sampleNo: new Array(n),
    sampleId: new Array(n),
    trialId: new Array(n),
    metric: new Array(n),
    value: new Array(n),
    unit: new Array(n),
    timestamp: new Array(n),
    labelSet: new Array(n),
  };
  rows.samples.forEach((s, i) => {
    c.sampleNo[i] = i + 1;
    c.sampleId[i] = storedSampleId(rows.run.runId, s, i + 1);
    c.trialId[i] = s.trialId ?? null;
    c.metric[i] = s.metric;
    c.value[i] = s.value;
    c.unit[i] = s.unit;
    c.timestamp[i] = s.timestamp;
    c.labelSet[i] = rows.sampleSets[i]!;
  });
  return c;
}

function sameLabels(a: Labels, aKeys: readonly string[], b: Labels): boolean {
  if (a === b) return true;
  let i = 0;
  for (const key in b) {
    if (key !== aKeys[i] || a[key] !== b[key]) return false;
    i += 1;
  }
  return i === aKeys.length;
}
