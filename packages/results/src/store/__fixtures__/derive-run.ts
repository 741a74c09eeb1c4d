import { readFileSync } from 'node:fs';
import type { RunResults } from '@netbench/plugin-api';
import type { Labels } from '@netbench/plugin-api';

/** The real quickstart run (see README.md beside this file). */
export function quickstartRun(): RunResults {
  return JSON.parse(readFileSync(new URL('./quickstart-results.json', import.meta.url), 'utf8')) as RunResults;
}

export interface DeriveOptions {
  readonly runId: string;
  readonly startedAt: string;
  readonly name?: string;
  /** Multiply every sample value. */
  readonly scale?: number;
  /** Keep only trials of these tools. */
  readonly tools?: readonly string[];
  /** Extra labels on every sample. */
  readonly labels?: Labels;
}

/** Another run made from the real one: new id and time, optionally other values, tools or labels. */
export function deriveRun(base: RunResults, o: DeriveOptions): RunResults {
  const shift = Date.parse(o.startedAt) - Date.parse(base.run.startedAt);
  const trials = base.run.trials.filter((t) => !o.tools || o.tools.includes(t.tool));
  const kept = new Set(trials.map((t) => t.id));
  const samples = base.samples
    .filter((s) => s.trialId === undefined || kept.has(s.trialId))
    .map((s, i) => ({
      ...s,
      runId: o.runId,
      sampleId: `${o.runId}-${i + 1}`,
      value: s.value * (o.scale ?? 1),
      timestamp: s.timestamp + shift,
      labels: { ...s.labels, run_id: o.runId, ...(o.name ? { spec: o.name } : {}), ...o.labels },
    }));
  return {
    run: {
      ...base.run,
      runId: o.runId,
      name: o.name ?? base.run.name,
      startedAt: o.startedAt,
      finishedAt: new Date(Date.parse(base.run.finishedAt) + shift).toISOString(),
      trials,
      labels: { ...base.run.labels, run_id: o.runId, ...(o.name ? { spec: o.name } : {}) },
    },
    samples,
  };
}
