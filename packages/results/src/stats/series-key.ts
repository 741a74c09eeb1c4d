import type { Labels } from '@netbench/plugin-api';

/**
 * Labels that name the run or where its samples came from (an imported file),
 * not what was measured. `study` and `shard` name the study a run belongs to
 * and which part of its plan it ran: a trial measures the same thing in any
 * shard, and in the unsharded run.
 */
const RUN_LABELS = new Set(['run_id', 'spec', 'owner', 'netbench_version', 'repetition', 'order_seed', 'destination', 'source_file', 'imported', 'study', 'shard']);
/**
 * What a measurement came out as rather than what was asked for: netperf's
 * confidence banner (`+/-2.500% @ 99% conf.`) reports how many iterations
 * it took and how wide the interval came out (PKB's `confidence_iter`,
 * `confidence_width_percent`). Every run gives other values, so as a key they
 * made each run its own series (the level asked for, `confidence_level`, stays).
 * A latency-under-load summary's `probe_count` (how many probes fell in the
 * idle or loaded window) is the same kind: it varies by a probe or two from
 * run to run, so as a key it left `latency_loaded_*` out of every compare.
 */
const OUTCOME_LABELS = new Set(['confidence_iter', 'confidence_width_percent', 'confidence_achieved', 'probe_count']);
/**
 * Where a sample sits within its trial (iperf3's per-interval start and
 * end): the intervals of one trial are one series, compared as a distribution.
 */
export const POSITION_LABELS: ReadonlySet<string> = new Set(['interval_start', 'interval_end']);
/** Where and with what it ran: compared runs may differ in these and still measure the same thing. */
const ENVIRONMENT_RE = /^(?:(?:client|server)_(?:cloud|zone|region|machine_type|os)|host_(?:client|server)_.+|.+_version)$/;

export interface SeriesKeyOptions {
  /** Labels that also do not identify a series (e.g. the keys of `--baseline`/`--candidate`). */
  readonly ignore?: readonly string[];
  /** Labels that do identify a series even though they are ignored by default (e.g. `client_zone`). */
  readonly match?: readonly string[];
}

/** Does this label say where and with what a sample was measured (zone, machine type, OS, versions)? */
export function isEnvironmentLabel(key: string): boolean {
  return ENVIRONMENT_RE.test(key) || KERNEL_RE.test(key);
}

const KERNEL_RE = /(?:^|_)kernel(?:_|$)/;

/**
 * Does this label say *what* was measured (benchmark, test, parameters, a
 * tool's own labels such as `direction` or `stream`), rather than which run,
 * where or with which versions? Tool build features (`<tool>_<feature>`)
 * count as environment.
 */
export function identifiesSeries(key: string, labels: Labels, options: SeriesKeyOptions = {}): boolean {
  if (options.match?.includes(key)) return true;
  if (options.ignore?.includes(key)) return false;
  if (RUN_LABELS.has(key) || OUTCOME_LABELS.has(key) || POSITION_LABELS.has(key) || ENVIRONMENT_RE.test(key)) return false;
  const tool = labels['tool'];
  return !(typeof tool === 'string' && key.startsWith(`${tool}_`));
}

/** The identifying labels of a sample, sorted by key. */
export function seriesLabels(labels: Labels, options: SeriesKeyOptions = {}): Labels {
  const kept: Labels = {};
  for (const key of Object.keys(labels).sort()) if (identifiesSeries(key, labels, options)) kept[key] = labels[key]!;
  return kept;
}

/** One string per series: metric, unit and identifying labels. */
export function seriesKey(metric: string, unit: string, labels: Labels, options: SeriesKeyOptions = {}): string {
  return JSON.stringify([metric, unit, seriesLabels(labels, options)]);
}

/** Short name of a series: metric and the labels that say what it is. */
export function describeSeries(s: { readonly metric: string; readonly labels: Labels }): string {
  const parts = Object.entries(s.labels)
    .filter(([k]) => k !== 'benchmark' && k !== 'tool')
    .map(([k, v]) => `${k}=${String(v)}`);
  return parts.length > 0 ? `${s.metric} (${parts.join(' ')})` : s.metric;
}
