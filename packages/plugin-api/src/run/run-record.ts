import type { Labels, MetricDeclaration } from '../samples/types.js';
import type { Scalar } from '../samples/types.js';

export type RunStatus = 'succeeded' | 'failed' | 'interrupted';
export type TrialStatus = 'succeeded' | 'failed' | 'skipped';

export interface HostRecord {
  readonly id: string;
  readonly name: string;
  readonly cloud: string;
  readonly zone?: string;
  readonly region?: string;
  readonly machineType?: string;
  readonly internalIp: string;
  readonly externalIp?: string;
  readonly os?: string;
  readonly labels: Readonly<Record<string, string>>;
}

export interface TrialRecord {
  readonly id: string;
  readonly tool: string;
  readonly test: string;
  readonly benchmarkName: string;
  readonly params: Readonly<Record<string, Scalar>>;
  readonly cell: Readonly<Record<string, Scalar>>;
  readonly client: string;
  readonly server: string;
  readonly status: TrialStatus;
  readonly attempts: number;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly error?: string;
  /** Paths of raw outputs relative to the run folder. */
  readonly rawFiles: readonly string[];
  readonly sampleCount: number;
}

export interface PhaseRecord {
  readonly phase: 'provision' | 'prepare' | 'execute' | 'teardown' | 'publish';
  readonly startedAt: string;
  readonly durationMs: number;
  readonly ok: boolean;
}

/** Everything about a run except its samples; `results.json` is `{ run, samples }`. */
export interface RunRecord {
  readonly runId: string;
  readonly name: string;
  readonly description?: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly runDir: string;
  /** User running netbench (PKB's `owner`). */
  readonly owner: string;
  readonly netbenchVersion: string;
  /** Spec file path and text as run. */
  readonly specFile?: string;
  readonly specText?: string;
  readonly hosts: readonly HostRecord[];
  readonly trials: readonly TrialRecord[];
  readonly phases: readonly PhaseRecord[];
  /** Errors of the run (provision/teardown/publish) beyond single trials. */
  readonly errors: readonly string[];
  readonly labels: Labels;
  /** Headline metrics the run's tools declared (`ToolPlugin.metrics`), by metric name. */
  readonly metrics?: Readonly<Record<string, MetricDeclaration>>;
}
