import type { RunRecord, Sample, Scalar, TrialRecord } from '@netbench/plugin-api';
import type { ChartInput } from './types.js';

/** Parameters that number repetitions of the same configuration rather than change it. */
const REPETITION_KEYS = new Set(['repetition', 'repetitions', 'rep', 'iteration', 'repeat', 'run_number']);

/**
 * One trial-produced sample with what identifies its configuration across
 * runs: tool, test, direction, the host pair (the spec's host names, client
 * → server), and the trial's parameters and matrix cell (repetition
 * counters left out). Different pairs are never repetitions of each other.
 * The pair is named by the spec's host names, not by addresses or zones, so
 * the same spec run on two clouds still lines up for comparison.
 */
export interface Observation {
  readonly runIndex: number;
  readonly run: RunRecord;
  readonly trial: TrialRecord | undefined;
  readonly sample: Sample;
  /** Ordered configuration fields (`tool`, `test`, `direction`, then parameters). */
  readonly config: ReadonlyMap<string, Scalar>;
  readonly configKey: string;
  /** Per-stream sample (label `stream`), as opposed to a trial-level one. */
  readonly perStream: boolean;
}

/** A configuration already built in `observe`, with what it was built from. */
interface Known {
  readonly trial: TrialRecord | undefined;
  readonly tool: Scalar | undefined;
  readonly test: Scalar | undefined;
  readonly direction: Scalar | undefined;
  /** Pair from the labels (as `pairOf`). */
  readonly pair: string | undefined;
  readonly config: ReadonlyMap<string, Scalar>;
  readonly configKey: string;
}

// chartsFor asks every chart kind for the same input; derive observations once per input array.
const cache = new WeakMap<ChartInput, readonly Observation[]>();

export function observe(results: ChartInput): readonly Observation[] {
  const cached = cache.get(results);
  if (cached) return cached;
  const observations: Observation[] = [];
  results.forEach(({ run, samples }, runIndex) => {
    const trials = new Map(run.trials.map((t) => [t.id, t]));
    // A configuration depends on the trial and three labels only: build each once per run,
    // not once per sample (a 100,000-interval trial has one configuration).
    const configs = new Map<string, Known>();
    let previous: Known | undefined;
    for (const sample of samples) {
      // Run-level samples (phase durations) describe netbench, not the network.
      if (sample.trialId === undefined) continue;
      // Synchronized flows are charted by flow-charts.ts: pooled here, a flow's value would mix with their sum.
      if (sample.labels['flow'] !== undefined) continue;
      const trial = trials.get(sample.trialId);
      const { tool, test, direction } = sample.labels;
      const pair = pairOf(sample.labels);
      let known = previous;
      // Consecutive samples mostly share a configuration: no key to build for them.
      if (!known || known.trial !== trial || known.tool !== tool || known.test !== test || known.direction !== direction || known.pair !== pair) {
        const key = `${trial ? `t${trial.id}` : '\u0001'}\u0000${labelKey(tool)}\u0000${labelKey(test)}\u0000${labelKey(direction)}\u0000${labelKey(pair)}`;
        known = configs.get(key);
        if (!known) {
          const config = configOf(sample, trial, run.labels['imported'] === true);
          known = { trial, tool, test, direction, pair, config, configKey: JSON.stringify([...config]) };
          configs.set(key, known);
        }
        previous = known;
      }
      observations.push({
        runIndex,
        run,
        trial,
        sample,
        config: known.config,
        configKey: known.configKey,
        perStream: sample.labels['stream'] !== undefined,
      });
    }
  });
  cache.set(results, observations);
  return observations;
}

/** A label value as part of a cache key: absent, or its string form (as `configOf` uses it). */
function labelKey(value: Sample['labels'][string] | undefined): string {
  return value === undefined ? '\u0001' : `=${String(value)}`;
}

function configOf(sample: Sample, trial: TrialRecord | undefined, imported: boolean): Map<string, Scalar> {
  const config = new Map<string, Scalar>();
  const tool = trial?.tool ?? sample.labels['tool'];
  const test = trial?.test ?? sample.labels['test'];
  if (tool !== undefined) config.set('tool', String(tool));
  if (test !== undefined) config.set('test', String(test));
  const direction = sample.labels['direction'];
  if (direction !== undefined) config.set('direction', String(direction));
  const pair = pairOf(sample.labels) ?? (trial && trial.client !== 'unknown' ? `${trial.client} → ${trial.server}` : undefined);
  if (pair !== undefined) config.set('pair', pair);
  // The plain path and each tunnel are different paths (docs/tunnels.md): never one configuration.
  const tunnel = sample.labels['tunnel'];
  if (tunnel !== undefined) config.set('tunnel', String(tunnel));
  const params: Record<string, Scalar> = { ...trial?.cell, ...trial?.params };
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    // An imported trial's `file` says where it came from, not what was measured.
    if (imported && key === 'file') continue;
    if (!REPETITION_KEYS.has(key) && value !== undefined && value !== null) config.set(key, value);
  }
  return config;
}

/**
 * `client → server` from a sample's labels: host names, else PKB's
 * sending/receiving zones (imported samples, whose trial is a file), else
 * the hosts' zones.
 */
function pairOf(labels: Sample['labels']): string | undefined {
  for (const [from, to] of [
    ['client_host', 'server_host'],
    ['sending_zone', 'receiving_zone'],
    ['client_zone', 'server_zone'],
  ] as const) {
    const a = labels[from];
    const b = labels[to];
    if (a !== undefined && b !== undefined && a !== '' && b !== '') return `${String(a)} → ${String(b)}`;
  }
  return undefined;
}

/** Configuration fields named by their value alone in chart categories. */
const BY_VALUE = new Set(['tool', 'test', 'direction', 'pair']);

export function isRepetitionKey(key: string): boolean {
  return REPETITION_KEYS.has(key);
}

/**
 * Names for configurations that tell them apart: only the fields that
 * differ among them, `tool`/`test`/`direction` by value and parameters as
 * `key=value`. Configurations that differ in nothing are named by tool and test.
 */
export function configNames(configs: readonly ReadonlyMap<string, Scalar>[]): string[] {
  const keys = new Set<string>();
  for (const config of configs) for (const key of config.keys()) keys.add(key);
  const varying = [...keys].filter((key) => new Set(configs.map((c) => String(c.get(key) ?? '—'))).size > 1);
  return configs.map((config) => {
    const parts = varying
      .map((key) => {
        const value = config.get(key);
        if (value === undefined) return undefined;
        return BY_VALUE.has(key) ? String(value) : `${key}=${String(value)}`;
      })
      .filter((part): part is string => part !== undefined);
    if (parts.length > 0) return parts.join(' · ');
    return [config.get('tool'), config.get('test')].filter((v) => v !== undefined).join(' ');
  });
}

/**
 * Names for runs in legends: the spec name when it tells the runs apart,
 * else the spec name and run id.
 */
export function runNames(results: ChartInput): string[] {
  const names = results.map(({ run }) => run.name);
  const unique = new Set(names).size === names.length;
  return results.map(({ run }) => (unique ? run.name : `${run.name} ${run.runId}`));
}

/** The values a statistic is computed over: trial-level samples when there are any, else per-stream ones. */
export function valuesOf(observations: readonly Observation[]): { values: number[]; basis: 'repetitions' | 'streams' } {
  const trialLevel = observations.filter((o) => !o.perStream);
  if (trialLevel.length > 0) return { values: trialLevel.map((o) => o.sample.value), basis: 'repetitions' };
  return { values: observations.map((o) => o.sample.value), basis: 'streams' };
}

/** Group into a Map, keeping first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * Group by several key parts (nested Maps: no key string built and hashed
 * per item, which a 100,000-point series paid for), keeping first-seen order.
 * Groups are the same as `groupBy` with the parts joined.
 */
export function groupByParts<T>(items: readonly T[], parts: (item: T) => readonly unknown[]): T[][] {
  const root = new Map<unknown, unknown>();
  const groups: T[][] = [];
  for (const item of items) {
    const keys = parts(item);
    let node = root;
    for (let i = 0; i < keys.length - 1; i++) {
      let next = node.get(keys[i]) as Map<unknown, unknown> | undefined;
      if (!next) node.set(keys[i], (next = new Map()));
      node = next;
    }
    const last = keys[keys.length - 1];
    let group = node.get(last) as T[] | undefined;
    if (!group) {
      node.set(last, (group = []));
      groups.push(group);
    }
    group.push(item);
  }
  return groups;
}
