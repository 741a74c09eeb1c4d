import { LatencyHistogram } from '@netbench/plugin-api';
import type { RunResults } from '@netbench/plugin-api';
import type { TrialRecord } from '@netbench/plugin-api';
import type { Labels, Sample, EncodedHistogram } from '@netbench/plugin-api';
import type { Scalar } from '@netbench/plugin-api';

/**
 * Small run results for chart-selection tests, shaped as the engine writes
 * them (trial records + samples with the engine's context labels). Values
 * are chosen by the tests; real tool runs are exercised in tests/report.test.ts.
 */
export class ResultsBuilder {
  private readonly trials: TrialRecord[] = [];
  private readonly samples: Sample[] = [];

  constructor(readonly runId = '20261122-110256-k3f9a2', readonly name = 'charts') {}

  trial(tool: string, test: string, params: Record<string, Scalar>, cell: Record<string, Scalar> = {}, hostLabels: Labels = {}): TrialHandle {
    const id = `t${String(this.trials.length + 1).padStart(4, '0')}`;
    this.trials.push({ id, tool, test, benchmarkName: tool, params, cell, client: String(hostLabels['client_host'] ?? 'client'), server: String(hostLabels['server_host'] ?? 'server'), status: 'succeeded', attempts: 1, rawFiles: [], sampleCount: 0 });
    const base: Labels = { run_id: this.runId, spec: this.name, tool, test, benchmark: tool, client_zone: 'local', server_zone: 'local', ...hostLabels, ...cell, ...params };
    const add = (metric: string, value: number, unit: string, labels: Labels = {}, histogram?: EncodedHistogram) => {
      this.samples.push({
        metric, value, unit, timestamp: 1_763_809_376_000 + this.samples.length, labels: { ...base, ...labels },
        runId: this.runId, sampleId: `${this.runId}-${this.samples.length + 1}`, trialId: id, ...(histogram ? { histogram } : {}),
      });
      return handle;
    };
    const handle: TrialHandle = { id, add };
    return handle;
  }

  build(): RunResults {
    return {
      run: {
        runId: this.runId, name: this.name, status: 'succeeded', startedAt: '2026-11-22T11:02:56.000Z', finishedAt: '2026-11-22T11:03:56.000Z',
        runDir: `/tmp/${this.runId}`, owner: 'test', netbenchVersion: '0.1.0', hosts: [], trials: this.trials, phases: [], errors: [], labels: {},
      },
      samples: this.samples,
    };
  }
}

export interface TrialHandle {
  readonly id: string;
  add(metric: string, value: number, unit: string, labels?: Labels, histogram?: EncodedHistogram): TrialHandle;
}

/** An HdrHistogram of the given latencies (us). */
export function histogramOf(values: readonly number[]): EncodedHistogram {
  const histogram = LatencyHistogram.create('us');
  for (const value of values) histogram.record(value);
  return histogram.encode();
}
