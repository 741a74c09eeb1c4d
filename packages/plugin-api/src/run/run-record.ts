import type { Labels, MetricDeclaration, Scalar } from '../samples/types.js';

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
  /**
   * What decides its results besides the network (kernel, CPU model and count,
   * governor, virtualization, congestion control, default qdisc, key sysctls,
   * interfaces' MTU, driver, NUMA node and qdisc), read once per run; `compare`
   * shows what differs (docs/explain.md).
   */
  readonly fingerprint?: Readonly<Record<string, unknown>>;
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
  /** The hosts' counters over the trial and what limited its result (docs/explain.md); absent when counters were off. */
  readonly explain?: TrialExplainRecord;
}

/** One finding of a trial's diagnosis: which rule, where, what it means, the threshold and the numbers behind it. */
export interface TrialDiagnosis {
  readonly rule: string;
  readonly host?: string;
  /** One sentence read after the result: `limited by CPU 1 of client a and server b at 100 %, mostly softirq …`. */
  readonly summary: string;
  readonly threshold: string;
  readonly evidence: Readonly<Record<string, number | string>>;
}

/** `TrialRecord.explain`: the diagnosis (empty: no limit found) and each end's counter deltas. */
export interface TrialExplainRecord {
  readonly diagnoses: readonly TrialDiagnosis[];
  /** Per end: CPU shares, protocol counter increments, interfaces, softnet, qdiscs, TCP sockets (core's `HostExplain`). */
  readonly hosts: readonly { readonly host: string; readonly role: 'client' | 'server'; readonly seconds?: number }[];
  readonly notes?: readonly string[];
  /** Counters the trial's tool plugin added (`ToolPlugin.counters`), each with the end it was measured on when the tool says. */
  readonly toolCounters?: readonly ToolCounterRecord[];
}

/** A tool plugin's own counter of one trial, as stored (`ToolCounter` plus the tool and the end's host name). */
export interface ToolCounterRecord {
  readonly tool: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly role?: 'client' | 'server';
  readonly host?: string;
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
  /** Headline metrics the run's tools declared (`ToolPlugin.metrics`), by metric name (all tools' merged, for charts). */
  readonly metrics?: Readonly<Record<string, MetricDeclaration>>;
  /**
   * The same declarations by tool name, then metric (`{ ping: { 'Average Latency': … } }`): a trial's summary
   * reads its own tool's, so two tools' metrics of one name never mix. Absent in runs of older versions.
   */
  readonly toolMetrics?: Readonly<Record<string, Readonly<Record<string, MetricDeclaration>>>>;
}
