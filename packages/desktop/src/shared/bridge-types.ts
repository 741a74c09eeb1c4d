// The typed bridge between the renderer and the main process. The renderer
// sees only these types (no Node, no core at runtime); the same calls travel
// over Electron IPC (preload) or the loopback HTTP channel (`netbench ui --browser`).

import type { PluginList, SpecIssue } from '@netbench/core';
import type { CloudCatalog, NetbenchEvent, RunStatus } from '@netbench/plugin-api';
import type { ChartSpec, ComparisonResult, RunHeadline, RunShow, StoredRunSummary, TrendChart } from '@netbench/results';

export type SpecSource = 'example' | 'saved';

/** The history: stored runs (newest first) with each run's headline number, when it has one. */
export interface HistoryList {
  readonly runs: readonly (StoredRunSummary & { readonly headline?: RunHeadline })[];
  /** Runs matching the filter, before the limit. */
  readonly total: number;
}

export interface SpecEntry {
  readonly source: SpecSource;
  /** File name without folder (`quickstart.yaml`). */
  readonly name: string;
  /** The spec's `description`, or its first comment line. */
  readonly title: string;
}

export interface AppInfo {
  readonly version: string;
  readonly shell: 'electron' | 'browser';
  readonly storePath: string;
  readonly runsDir: string;
  readonly specsDir: string;
}

export interface PlanSummary {
  readonly name: string;
  readonly trials: readonly {
    readonly id: string;
    readonly tool: string;
    readonly test: string;
    readonly client: string;
    readonly server: string;
    /** The trial's parameters (direction, streams, repetition, …), as the plan gives them. */
    readonly params?: Readonly<Record<string, string | number | boolean>>;
  }[];
  readonly hosts: readonly {
    readonly name: string;
    readonly cloud: string;
    readonly zone?: string;
    readonly machineType?: string;
    /** The project or subscription set on the host (gcp `project`, azure `subscription`). */
    readonly account?: string;
  }[];
  readonly estimatedSeconds: number;
}

export interface CostSummary {
  readonly usd: number;
  readonly hostSeconds: number;
  readonly clouds: readonly {
    readonly cloud: string;
    readonly usd?: number;
    readonly note?: string;
    readonly hosts: number;
    /** The cloud's itemised estimate (instances, egress) and its price table's date. */
    readonly items?: readonly { readonly description: string; readonly quantity: number; readonly unit: string; readonly unitPriceUsd: number; readonly usd: number }[];
    readonly priceTableDate?: string;
  }[];
}

/** Live validation of the editor's text: every issue with its place, or the plan and its cost. */
export type SpecCheck =
  | { readonly ok: false; readonly issues: readonly SpecIssue[]; readonly warnings: readonly string[] }
  | {
      readonly ok: true;
      readonly plan: PlanSummary;
      readonly cost: CostSummary;
      /** The estimate is above the max-cost guard: the run would be refused. */
      readonly overBudget: boolean;
      readonly warnings: readonly string[];
    };

export type Question = 'latency' | 'throughput' | 'pps' | 'load' | 'onprem';
/** `load` is core's latency-under-load test (flent's rrul/tcp_nup: netperf flows plus probes). */
export type WizardTool = 'ping' | 'netperf' | 'iperf3' | 'load';
/** The flent test a `load` trial runs. */
export type WizardLoadTest = 'rrul' | 'tcp_nup' | 'tcp_ndown';
/** Which pairs of places are measured: every pair, or not the pairs of two different clouds (internet egress). */
export type WizardPairs = 'within-cloud' | 'all';

/** One place to measure from or to. */
export type WizardSite =
  | { readonly kind: 'cloud'; readonly cloud: string; readonly zone: string; readonly machineType: string }
  | { readonly kind: 'ssh'; readonly address: string; readonly user?: string; readonly port?: number; readonly key?: string; readonly zone?: string }
  | { readonly kind: 'local' };

export interface WizardAnswers {
  readonly name: string;
  readonly question: Question;
  readonly sites: readonly WizardSite[];
  readonly tools: readonly WizardTool[];
  /** Seconds each tool measures per host pair. */
  readonly durationSeconds: number;
  /** Which way traffic goes: client → server, back, or one trial each (default forward). */
  readonly direction?: WizardDirection;
  /** Parallel streams for iperf3 and netperf (default: 2 for throughput, else 1). */
  readonly streams?: number;
  /** iperf3's protocol; `both` makes one trial each (default: udp for packets per second, else tcp). */
  readonly protocol?: 'tcp' | 'udp' | 'both';
  /** netperf tests (default: the question's); stream tests follow `direction` (TCP_STREAM ↔ TCP_MAERTS). */
  readonly netperfTests?: readonly WizardNetperfTest[];
  /** Repetitions of every trial, run in random order (default 3). */
  readonly repetitions?: number;
  /** Shaping of every local host's egress (tc): rate, and netem delay/loss where the kernel has netem. */
  readonly shaping?: WizardShaping;
  /** The flent test of the `load` tool (default rrul). */
  readonly loadTest?: WizardLoadTest;
  /**
   * Pairs measured (default `within-cloud` when the places are on two or more
   * clouds: a cross-cloud pair pays internet egress, usually most of the cost).
   */
  readonly pairs?: WizardPairs;
  /** The GCP project and Azure subscription the hosts are made in (identifiers, never secrets), on every host of that cloud. */
  readonly accounts?: WizardAccounts;
}

export interface WizardAccounts {
  /** GCP project id (the gcp plugin's host field `project`). */
  readonly gcpProject?: string;
  /** Azure subscription id, a UUID (the azure plugin's host field `subscription`). */
  readonly azureSubscription?: string;
}

export type WizardDirection = 'forward' | 'reverse' | 'both';
export type WizardNetperfTest = 'TCP_RR' | 'TCP_CRR' | 'UDP_RR' | 'TCP_STREAM' | 'UDP_STREAM';

export interface WizardShaping {
  /** Egress rate, Mbit/s (tc tbf). */
  readonly rateMbit?: number;
  /** Added one-way delay, ms (netem). */
  readonly delayMs?: number;
  /** Random loss, percent (netem). */
  readonly lossPercent?: number;
}

/** What the wizard checks before Run, without network calls. */
export interface WizardChecks {
  /** What the local lab can shape here (from the local plugin's doctor checks). */
  readonly shaping: { readonly rate: Capability; readonly netem: Capability };
  /** Each picked cloud's offline doctor checks (credentials found, project/subscription set). */
  readonly clouds: readonly {
    readonly cloud: string;
    readonly checks: readonly { readonly name: string; readonly ok: boolean; readonly detail: string; readonly fix?: string; readonly severity?: 'error' | 'warning' }[];
  }[];
}

/** Each cloud's `preflight` on the spec's hosts (what `run` checks before creating anything). */
export interface PreflightFindings {
  readonly clouds: readonly { readonly cloud: string; readonly ok: boolean; readonly detail: string }[];
}

export interface Capability {
  readonly ok: boolean;
  readonly detail: string;
}

/** An installed cloud plugin (from its package.json: nothing imported). */
export interface CloudChoice {
  readonly cloud: string;
  readonly installed: boolean;
  readonly version?: string;
}

/**
 * The picked cloud's own list of regions, zones and machine types
 * (`CloudPlugin.catalog()`), or `null` when the plugin has none: the wizard
 * then asks for names as free text.
 */
export interface CloudCatalogAnswer {
  readonly catalog: CloudCatalog | null;
}

/** Host fields of a cloud plugin's schema (name: description), to show what else can be set in the YAML. */
export type CloudFields = readonly { readonly name: string; readonly description: string }[];

export interface WizardCatalog {
  readonly clouds: readonly CloudChoice[];
  readonly tools: readonly { readonly name: WizardTool; readonly installed: boolean }[];
}

export interface TeardownItem {
  readonly plugin: string;
  readonly type: string;
  readonly id: string;
  readonly host?: string;
  /** Last ledger phase of the resource: `deleted` is torn down; anything else may be left. */
  readonly state: string;
  readonly error?: string;
}

/** How a run ended, with why it failed and what was torn down. */
export interface RunEnded {
  readonly status: RunStatus | 'refused';
  readonly exitCode: number;
  readonly errors: readonly string[];
  readonly failedTrials: readonly { readonly id: string; readonly error: string }[];
  readonly teardown: readonly TeardownItem[];
  readonly samples: number;
  readonly runDir?: string;
}

export interface LiveRun {
  readonly runId: string;
  readonly name: string;
  readonly events: readonly NetbenchEvent[];
  readonly ended?: RunEnded;
}

export interface ResultsFilter {
  readonly spec?: string;
  readonly tool?: string;
  readonly status?: string;
  /** ISO date: started at or after. */
  readonly since?: string;
  readonly limit?: number;
}

export interface RunPage {
  readonly show: RunShow;
  readonly charts: readonly ChartSpec[];
}

export interface ComparePage {
  readonly comparison: ComparisonResult;
  readonly charts: readonly ChartSpec[];
  /** Why some charts are not drawn (a label selection spanning too many runs). */
  readonly chartsNote?: string;
}

/** Several runs on one set of charts (flent's `*_combine`): one chart per metric, a series (colour) per run. */
export interface OverlayPage {
  readonly runs: readonly { readonly runId: string; readonly name: string; readonly startedAt: string }[];
  readonly charts: readonly ChartSpec[];
}

/** One metric across stored runs by date (`netbench results trend`), split by a label when asked. */
export interface TrendPage {
  /** Every stored metric, most runs first. */
  readonly metrics: readonly { readonly metric: string; readonly runs: number }[];
  /** Absent until a metric is picked. */
  readonly chart?: TrendChart;
  /** Each line's verdict on its newest run, as `results trend` says it. */
  readonly summaries?: readonly { readonly name: string; readonly summary: string }[];
  /** Lines left out: their samples are still several series (the error names the labels that differ). */
  readonly refused?: readonly { readonly name: string; readonly error: string }[];
  /** Why the picked metric has no trend (several series: which labels differ; no samples with the conditions). */
  readonly error?: string;
}

/** One `key=value` condition of a label selection (values compare as text, as `netbench compare --baseline`). */
export interface LabelPair {
  readonly key: string;
  readonly value: string;
}

/** Label keys found in the store with their values, for the label-selection pickers. */
export interface StoreLabels {
  readonly keys: readonly {
    readonly key: string;
    /** Runs having this key on the run or on any sample. */
    readonly runs: number;
    /** Every value, most used first; empty when the key has too many to list (`manyValues`). */
    readonly values: readonly { readonly value: string; readonly runs: number }[];
    /** More than 200 distinct values (interval ends, sequence numbers…): type one instead. */
    readonly manyValues: boolean;
  }[];
}

export type ExportFormat = 'json' | 'csv' | 'html' | 'md';

export interface ExportedFile {
  readonly fileName: string;
  readonly mimeType: string;
  readonly content: string;
}

/** A file the renderer made (an export, a chart picture) for the main process to save where the user says. */
export interface SaveFileRequest {
  /** Suggested name, without folders. */
  readonly fileName: string;
  readonly mimeType: string;
  readonly content: string;
  /** `base64` for binary content (PNG). */
  readonly encoding: 'utf8' | 'base64';
}

export interface SaveFileResult {
  /** False when the user closed the save dialog. */
  readonly saved: boolean;
  readonly path?: string;
  readonly bytes?: number;
}

/** Every call the renderer can make: one argument object, one result. */
export interface BridgeApi {
  appInfo(arg: Record<string, never>): Promise<AppInfo>;
  listSpecs(arg: Record<string, never>): Promise<readonly SpecEntry[]>;
  readSpec(arg: { source: SpecSource; name: string }): Promise<{ text: string }>;
  saveSpec(arg: { name: string; text: string }): Promise<SpecEntry>;
  checkSpec(arg: { text: string; maxCostUsd?: number }): Promise<SpecCheck>;
  catalog(arg: Record<string, never>): Promise<WizardCatalog>;
  cloudFields(arg: { cloud: string }): Promise<CloudFields>;
  cloudCatalog(arg: { cloud: string }): Promise<CloudCatalogAnswer>;
  generateSpec(arg: WizardAnswers): Promise<{ text: string }>;
  wizardChecks(arg: { clouds: string[] }): Promise<WizardChecks>;
  preflightSpec(arg: { text: string; clouds?: string[] }): Promise<PreflightFindings>;
  /** The spec text a stored run ran (to run it again or edit it in the wizard). */
  runSpec(arg: { runId: string }): Promise<{ text: string; name: string }>;
  startRun(arg: { text: string; maxCostUsd?: number }): Promise<{ runId: string }>;
  cancelRun(arg: { runId: string }): Promise<{ cancelled: boolean }>;
  liveRun(arg: { runId: string }): Promise<LiveRun>;
  liveCharts(arg: { runId: string }): Promise<readonly ChartSpec[]>;
  activeRuns(arg: Record<string, never>): Promise<readonly string[]>;
  listRuns(arg: ResultsFilter): Promise<HistoryList>;
  showRun(arg: { runId: string }): Promise<RunPage>;
  compareRuns(arg: { baseline: string; candidate: string }): Promise<ComparePage>;
  compareSelections(arg: { baseline: readonly LabelPair[]; candidate: readonly LabelPair[] }): Promise<ComparePage>;
  /** 2–12 stored runs overlaid, in the order given. */
  overlayRuns(arg: { runIds: string[] }): Promise<OverlayPage>;
  storeLabels(arg: Record<string, never>): Promise<StoreLabels>;
  /** The trend page: stored metrics, and the picked one's trend (split by a label). */
  trendRuns(arg: { metric?: string; splitBy?: string; where?: LabelPair[] }): Promise<TrendPage>;
  exportRun(arg: { runId: string; format: ExportFormat }): Promise<ExportedFile>;
  /** Two stored runs' comparison as a report: every row's verdict, then both runs and their charts. */
  exportComparison(arg: { baseline: string; candidate: string; format: 'html' | 'md' }): Promise<ExportedFile>;
  /** Electron only: a save dialog in the main process, then the file written. The browser saves through its downloads. */
  saveFile(arg: SaveFileRequest): Promise<SaveFileResult>;
  listPlugins(arg: Record<string, never>): Promise<PluginList>;
}

export type BridgeMethod = keyof BridgeApi;
export type BridgeArg<M extends BridgeMethod> = Parameters<BridgeApi[M]>[0];
export type BridgeResult<M extends BridgeMethod> = Awaited<ReturnType<BridgeApi[M]>>;

/** What every call returns on the wire: errors keep their name and spec issues (IPC drops custom error fields). */
export type BridgeEnvelope<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: { readonly name: string; readonly message: string; readonly issues?: readonly SpecIssue[] } };

/** Pushed from main to renderer. */
export type BridgeEvent =
  | { readonly kind: 'run-event'; readonly runId: string; readonly event: NetbenchEvent }
  | { readonly kind: 'run-ended'; readonly runId: string; readonly ended: RunEnded };

/** The object the preload exposes as `window.netbench` (and the HTTP client implements). */
export interface NetbenchBridge {
  call<M extends BridgeMethod>(method: M, arg: BridgeArg<M>): Promise<BridgeEnvelope<BridgeResult<M>>>;
  /** Returns an unsubscribe function. */
  onEvent(listener: (event: BridgeEvent) => void): () => void;
}

export const IPC_CALL = 'netbench:call';
export const IPC_EVENT = 'netbench:event';
