import type { RunResults } from '@netbench/plugin-api';
import type { LabelCondition, ResultsStore } from '@netbench/results';

/** Charts of a label selection read every run it spans; beyond this many runs only the table is shown. */
export const SELECTION_CHART_RUNS = 50;

/**
 * One side of a label-selection comparison as one pseudo-run for
 * `chartsFor`: the selected samples of every run, with the runs' trials
 * (their parameters tell configurations apart in the charts). Trial ids
 * repeat across runs (`t0001`), so they are prefixed with the run id.
 */
export function selectionResults(store: ResultsStore, side: 'baseline' | 'candidate', conditions: readonly LabelCondition[]): RunResults {
  const selected = store.select(conditions);
  const records = selected.map((s) => store.load(s.ref).run);
  const text = conditions.map(([k, v]) => `${k}=${v}`).join(' ');
  const first = records[0];
  if (!first) throw new Error(`no stored samples have ${text}`);
  return {
    run: {
      ...first,
      runId: side,
      name: `${side}: ${text}`,
      hosts: records.flatMap((r) => r.hosts),
      trials: records.flatMap((r) => r.trials.map((t) => ({ ...t, id: `${r.runId}/${t.id}` }))),
      phases: [],
      errors: [],
    },
    samples: selected.flatMap((s) => s.samples.map((sample) => (sample.trialId === undefined ? sample : { ...sample, trialId: `${s.ref.runId}/${sample.trialId}` }))),
  };
}
