import type { Sample, SampleInput } from '@netbench/plugin-api';
import { studyLabels } from '../plan/shard-plan.js';
import type { RunState } from './run-state.js';

/** A `Sample` with the next sample id of the run. Tool labels win over context labels (merged by the caller). */
export function makeSample(state: RunState, input: SampleInput, labels: Sample['labels'], defaultTime: number, trialId?: string): Sample {
  state.nextSample += 1;
  return {
    runId: state.runId,
    sampleId: `${state.runId}-${state.nextSample}`,
    ...(trialId !== undefined ? { trialId } : {}),
    metric: input.metric,
    value: input.value,
    unit: input.unit,
    timestamp: input.timestamp ?? defaultTime,
    // Shards of one study merge in the store by these labels.
    labels: { ...labels, ...studyLabels(state.plan.spec.options) },
    ...(input.histogram ? { histogram: input.histogram } : {}),
  };
}

export function recordSamples(state: RunState, samples: readonly Sample[]): void {
  state.files.appendSamples(samples);
  state.samples.push(...samples);
  for (const sample of samples) state.events.emit({ type: 'sample', sample });
}
