import type { Sample } from '@netbench/plugin-api';
import { median } from './quantile.js';

/**
 * What one replicate is. `run`: each run contributes one value (the median
 * of its repetitions' values); `repetition`: each repetition of each run
 * does. Never the samples within a repetition (packets, intervals, streams
 * of one trial): they describe one condition, not independent replicates.
 */
export type ReplicateUnit = 'run' | 'repetition';

/**
 * Repetitions are replicates only when both sides come from the same runs
 * (two configurations interleaved in one run share its conditions, so its
 * repetitions carry the variation between them). Between different runs the
 * run is the replicate: the repetitions of one run share its moment, its
 * machine load and its lab, and on a shared machine runs differ far more than
 * repetitions within a run do (docs/results.md, the A/A figures).
 */
export function replicateUnit(baseline: readonly Sample[], candidate: readonly Sample[]): ReplicateUnit {
  const runs = (side: readonly Sample[]) => [...new Set(side.map((s) => s.runId))].sort().join('\u0000');
  return runs(baseline) === runs(candidate) ? 'repetition' : 'run';
}

/**
 * One value per replicate: `summarise` turns the samples of one repetition of
 * one run into its value (the median of its samples, a histogram's
 * percentile); with the run as the unit, a run's value is the median of its
 * repetitions' values. In the order the replicates first appear.
 */
export function replicateValues(samples: readonly Sample[], unit: ReplicateUnit, summarise: (group: readonly Sample[]) => number): number[] {
  const byRepetition = groupBy(samples, (s) => `${s.runId}\u0000${String(s.labels['repetition'] ?? '')}`);
  const perRepetition = [...byRepetition.values()].map((group) => ({ runId: group[0]!.runId, value: summarise(group) }));
  if (unit === 'repetition') return perRepetition.map((r) => r.value);
  return [...groupBy(perRepetition, (r) => r.runId).values()].map((group) => median(group.map((r) => r.value)));
}

/** How many runs a side's samples come from. */
export function runCount(samples: readonly Sample[]): number {
  return new Set(samples.map((s) => s.runId)).size;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
