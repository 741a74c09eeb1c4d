import type { Labels, RunRecord, Sample } from '@netbench/plugin-api';

/** One sample in PerfKit Benchmarker's published shape (its JSON/BigQuery sample schema). */
export interface PkbSample {
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  /** Seconds since the epoch, with fractions. */
  readonly timestamp: number;
  readonly test: string;
  readonly product_name: 'netbench';
  readonly official: false;
  readonly owner: string;
  readonly run_uri: string;
  readonly sample_uri: string;
  /** `|key:value|,|key2:value2|`, keys sorted. */
  readonly labels: string;
}

/**
 * PKB's label string: `|key:value|` items joined by commas, sorted by key.
 * PKB splits on the pipes, so a pipe inside a key or value becomes `/`.
 */
export function pkbLabels(labels: Labels): string {
  const clean = (text: string) => text.replaceAll('|', '/');
  return Object.keys(labels)
    .sort()
    .map((key) => `|${clean(key)}:${clean(String(labels[key]))}|`)
    .join(',');
}

/** A netbench sample as PKB publishes one. `test` is the benchmark (PKB's benchmark name), else the spec name. */
export function pkbSample(run: Pick<RunRecord, 'name' | 'owner'>, sample: Sample): PkbSample {
  const test = sample.labels['benchmark'] ?? sample.labels['tool'] ?? run.name;
  return {
    metric: sample.metric,
    value: sample.value,
    unit: sample.unit,
    timestamp: sample.timestamp / 1000,
    test: String(test),
    product_name: 'netbench',
    official: false,
    owner: run.owner,
    run_uri: sample.runId,
    sample_uri: sample.sampleId,
    labels: pkbLabels(sample.labels),
  };
}

/**
 * Newline-delimited PKB samples (one JSON object a line, as PKB's
 * `--json_path` writes them). Histograms are left out: PKB's shape has no
 * place for them, and `results.json` keeps them. `pretty` indents each
 * object for reading; the file is then no longer one object a line.
 */
export function formatPkbSamples(run: Pick<RunRecord, 'name' | 'owner'>, samples: readonly Sample[], pretty = false): string {
  return samples.map((s) => `${JSON.stringify(pkbSample(run, s), null, pretty ? 2 : undefined)}\n`).join('');
}
