import { keyCounters, type Labels, type RunRecord, type Sample, type TrialRecord } from '@netbench/plugin-api';

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

/** The run as the export reads it: its name and owner, and its trials when it has them (their counters and diagnoses). */
export type PkbRun = Pick<RunRecord, 'name' | 'owner'> & { readonly runId?: string; readonly trials?: readonly TrialRecord[] };

/** `shaped-link+queue-drops` (the rules that fired, sorted), `none` when no limit was found: a trial's `limited_by` label. */
export function limitedBy(trial: TrialRecord): string | undefined {
  if (!trial.explain) return undefined;
  const rules = [...new Set(trial.explain.diagnoses.map((d) => d.rule))].sort();
  return rules.length > 0 ? rules.join('+') : 'none';
}

/** The labels every sample of a trial shares (its context: run, hosts, parameters), from its samples. */
function sharedLabels(samples: readonly Sample[]): Labels {
  const [first, ...rest] = samples;
  if (!first) return {};
  return Object.fromEntries(Object.entries(first.labels).filter(([k, v]) => rest.every((s) => s.labels[k] === v)));
}

/**
 * A trial's key counters as PKB samples (`counters.tcp_retrans_segs`,
 * `counters.iperf3.server_cpu_total`), one per end, at the trial's end:
 * labelled like the trial's samples plus `source:counters`, the end's `host`
 * and `role`, and `limited_by`.
 */
export function pkbCounterSamples(run: PkbRun, trial: TrialRecord, samples: readonly Sample[], runId: string): PkbSample[] {
  if (!trial.explain) return [];
  const context: Labels = samples.length > 0 ? sharedLabels(samples) : { run_id: runId, benchmark: trial.benchmarkName, tool: trial.tool, test: trial.test, ...trial.params };
  const limit = limitedBy(trial);
  const timestamp = Date.parse(trial.finishedAt ?? trial.startedAt ?? '') / 1000;
  return keyCounters(trial.explain).map((c) => ({
    metric: `counters.${c.name}`,
    value: c.value,
    unit: c.unit,
    timestamp: Number.isFinite(timestamp) ? timestamp : 0,
    test: String(context['benchmark'] ?? trial.benchmarkName ?? run.name),
    product_name: 'netbench',
    official: false,
    owner: run.owner,
    run_uri: runId,
    sample_uri: `${runId}-${trial.id}-counters-${c.host ?? c.source}-${c.name}`,
    labels: pkbLabels({
      ...context,
      source: 'counters',
      ...(c.source !== 'counters' ? { counter_tool: c.source } : {}),
      ...(c.host !== undefined ? { host: c.host } : {}),
      ...(c.role !== undefined ? { role: c.role } : {}),
      ...(limit ? { limited_by: limit } : {}),
    }),
  }));
}

/**
 * Newline-delimited PKB samples (one JSON object a line, as PKB's
 * `--json_path` writes them). Histograms are left out: PKB's shape has no
 * place for them, and `results.json` keeps them. When the run has trials
 * with counters (docs/explain.md), each of their samples carries the trial's
 * `limited_by` label, and the trial's key counters follow its samples as
 * `counters.*` lines. `pretty` indents each object for reading; the file is
 * then no longer one object a line.
 */
export function formatPkbSamples(run: PkbRun, samples: readonly Sample[], pretty = false): string {
  const trials = new Map((run.trials ?? []).map((t) => [t.id, t]));
  const line = (s: PkbSample) => `${JSON.stringify(s, null, pretty ? 2 : undefined)}\n`;
  const lines = samples.map((s) => {
    const trial = s.trialId !== undefined ? trials.get(s.trialId) : undefined;
    const limit = trial ? limitedBy(trial) : undefined;
    return line(pkbSample(run, limit ? { ...s, labels: { ...s.labels, limited_by: limit } } : s));
  });
  const byTrial = new Map<string, Sample[]>();
  for (const s of samples) if (s.trialId !== undefined && s.labels['interval_start'] === undefined) byTrial.set(s.trialId, [...(byTrial.get(s.trialId) ?? []), s]);
  for (const trial of trials.values()) {
    const own = byTrial.get(trial.id) ?? [];
    const runId = run.runId ?? own[0]?.runId ?? samples[0]?.runId;
    if (runId !== undefined) lines.push(...pkbCounterSamples(run, trial, own, runId).map(line));
  }
  return lines.join('');
}
