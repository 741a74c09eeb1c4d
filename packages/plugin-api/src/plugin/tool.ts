import type { MetricDeclaration, SampleInput } from '../samples/types.js';
import type { BlockSchema, PluginContext, PluginMeta } from './common.js';
import type { Host } from './host.js';

export type { MetricDeclaration };

import type { Scalar } from './scalar.js';

/**
 * A trial's parameters: every one changes the result, and each becomes a
 * sample label. A parameter whose value is `undefined` is no parameter: the
 * plan leaves it out (so optional settings need no conditional spreads).
 */
export type TrialParams = Readonly<Record<string, Scalar | undefined>>;

/**
 * What `check` and `serve` are told about a host's part in the run: a plain
 * `PluginContext` plus two optional fields, so a plugin written before them
 * still fits, and so does a test that calls `check(host, ctx)` with a plain
 * context. The engine, `doctor` and `labTrial` always set both.
 */
export interface ToolHostContext<T extends TrialParams = TrialParams> extends PluginContext {
  /** The ends of this tool's trials this host runs: `client`, `server` or both (`netbench doctor`: both). */
  readonly roles?: readonly ('client' | 'server')[];
  /** The parameters of this tool's trials on this host, in plan order (for `serve`: the trials it serves); `doctor`: none. */
  readonly trials?: readonly T[];
}

/**
 * One trial a tool derives from its benchmark block (e.g. one test × streams
 * × size). `T` is the tool's own parameter type: what `trials` returns is
 * exactly what `run` receives as `trial.params`, typed, never parsed again.
 */
export interface TrialSpec<T extends TrialParams = TrialParams> {
  readonly test: string;
  /** Every parameter that changes the result. Becomes sample labels. */
  readonly params: T;
  /** Seconds of measuring time (for ETA and the trial timeout). */
  readonly estimatedSeconds: number;
  /**
   * Bulk traffic the trial sends, for egress cost estimates: which way, and
   * the target rate when the tool has one (unset = as fast as the link goes).
   * Omit for latency tests whose traffic is negligible.
   */
  readonly traffic?: { readonly direction: 'forward' | 'reverse' | 'both'; readonly bitsPerSecond?: number };
  /**
   * Makes the trial one step of a search (netperf's burst-size search):
   * steps of the same `group` (within one benchmark, matrix cell and
   * repetition) run in the order `trials` returned them, and once a step's
   * `metric` — its `flow: aggregate` sample in a flows trial, else its own
   * sample without a `stream` label — rises less than `minGainPercent` over
   * the best step so far (or the step fails), the remaining steps are
   * skipped (recorded `skipped`, with the reason).
   */
  readonly search?: TrialSearch;
}

export interface TrialSearch {
  readonly group: string;
  readonly metric: string;
  readonly minGainPercent: number;
}

/** What `check` found on a host. Recorded in labels (`<tool>_version`, features). */
export interface ToolInfo {
  readonly version: string;
  /** Build features, e.g. `{ intervals: false, histogram: true }`. */
  readonly features: Readonly<Record<string, boolean | string>>;
  /** Absolute path or command name used to run it. */
  readonly command?: string;
}

/** A server side started in the prepare phase. */
export interface ServerHandle {
  /** Ports and facts the client side needs. JSON only. */
  readonly data: Readonly<Record<string, unknown>>;
  /** Stop the server. Idempotent; called in teardown even after failures. */
  stop(): Promise<void>;
}

export interface TrialRun<T extends TrialParams = TrialParams> {
  readonly id: string;
  readonly test: string;
  /** The parameters `trials` gave this trial, as it gave them (typed `T`). */
  readonly params: T;
  readonly client: Host;
  readonly server: Host;
  /** Address of the server the client must target (internal or external per the spec). */
  readonly target: string;
  /** From `serve`, when the tool has one. */
  readonly serverHandle?: ServerHandle;
  readonly clientInfo: ToolInfo;
  readonly serverInfo: ToolInfo;
  /** 0 on the first attempt. */
  readonly attempt: number;
}

export interface TrialContext extends PluginContext {
  /** Milliseconds this trial may take in all; `signal` aborts after it. */
  readonly timeoutMs: number;
  /**
   * The spec file's folder (the working folder for a spec given as text).
   * Files a spec names (a wrk script) resolve against it and are read only
   * from under it, with `readSpecFile` of the tool kit. Absent in engines
   * older than this contract: a tool then refuses such a file.
   */
  readonly specDir?: string;
  /**
   * Keep a raw output in the run folder *as soon as it exists*, so a trial
   * that fails later still keeps it. Name it by what it is (`ping-forward.txt`):
   * the run keeps it as `raw/<trial>-<name>` (see `rawFileName`), so the name
   * never repeats the trial id. Returns the file path.
   */
  saveRaw(name: string, content: string): Promise<string>;
  /** Report progress of the trial (0..1), for live display. */
  progress(fraction: number, message?: string): void;
  /**
   * One value measured while the tool runs (an iperf3 interval, a ping
   * reply, a netperf demo-mode line), for live display: the engine labels it
   * like the trial's samples and emits it (`trial-interval` events, batched)
   * so progress lines and charts fill in during the trial. It is NOT stored:
   * what `run` returns stays the record and must be complete without these.
   * Absent in a flow (use `ctx.flow.interval`, which stores) and in engines
   * older than this contract: call it as `ctx.interval?.(sample)`.
   */
  readonly interval?: (sample: SampleInput) => void;
  /**
   * Set when this invocation is one flow of a synchronized trial (see
   * `FlowSupport`); absent for an ordinary trial.
   */
  readonly flow?: FlowContext;
}

/**
 * What a flow of a synchronized trial sees (docs/flows.md). The engine runs
 * `run` once per flow, all at once; each must do its setup (leases, ports,
 * connections it needs before measuring), then wait at the barrier, then
 * start measuring at once.
 */
export interface FlowContext {
  /** The flow's label (`c->s1`, `a->b`), also its samples' `flow` label. */
  readonly label: string;
  /** Index of the flow in the trial (0-based) and how many flows it has. */
  readonly index: number;
  readonly count: number;
  /**
   * Wait at the trial's barrier. Resolves when every flow has called it
   * (all set up), as close together as the event loop allows; rejects when
   * another flow failed before reaching it or the trial is aborted (then
   * return without measuring). Call it exactly once, right before starting
   * the measuring process. A flow the plan starts later (the bulk flows of
   * a latency-under-load test, after its idle phase) is released that many
   * seconds after the barrier, on the same clock: the tool needs nothing
   * more to take part.
   */
  release(): Promise<void>;
  /**
   * The measuring process has just started (call right after spawning it).
   * The engine stamps the time on its own clock (the controller's, shared by
   * all flows) and reports the start skew across flows from these stamps.
   */
  started(): void;
  /**
   * One interval sample measured while running (a netperf demo-mode line,
   * an iperf3 interval). The engine labels it (`flow`, host pair,
   * `series: interval`), stores it and emits it at once, for live plots.
   * `timestamp` should be the end of the interval on the controller's
   * clock (`Date.now()` when the line arrived), so flows share one clock.
   * Not returned again in `TrialOutput`.
   */
  interval(sample: SampleInput): void;
}

/** How a flow metric combines across the flows of a trial. */
export type FlowCombine = 'sum' | 'mean';

/**
 * A tool that can run as flows of a synchronized trial declares it. Without
 * it, a benchmark with `flows:` that names the tool is a plan error.
 */
export interface FlowSupport {
  /**
   * Which of `run`'s final metrics the trial aggregates across flows, and
   * how: `sum` for rates and throughputs (packets/s, Mbit/s), `mean` for
   * latencies. `undefined` leaves the metric per flow only. Pure.
   */
  combine(metric: string, unit: string): FlowCombine | undefined;
  /** Whether `run` reports interval samples through `ctx.flow.interval`. */
  readonly intervals: boolean;
}

export interface TrialOutput {
  readonly samples: readonly SampleInput[];
}

export interface ParseOptions {
  /** Test name when the raw text does not say (e.g. netperf `-o` CSV). */
  readonly test?: string;
  /** File name, for error messages. */
  readonly source?: string;
}

/**
 * A tool plugin measures between two hosts. The engine calls:
 *
 * 1. `trials(params)` while planning (pure, no I/O). `params` is the block
 *    as the schema parsed it (defaults applied), parsed once when the spec
 *    was validated; each trial's `params` (type `T`) reach `run` unchanged.
 * 2. `check(host)` in prepare, for every host the tool runs on. Throws
 *    `ToolMissingError` when absent; `install(host)` is then tried once when
 *    the run allows installing, and `check` again.
 * 3. `serve(host)` in prepare, once per server host, when defined.
 * 4. `run(trial)` per trial, possibly concurrently (different trials), with a
 *    timeout. Throw `RetryableError` for transient failures (port in use,
 *    connection refused while a server starts); anything else fails the trial.
 * 5. `ServerHandle.stop()` in teardown, always.
 *
 * Synchronized flows (a benchmark with `flows:`; only for tools with
 * `flows`): `serve` runs once per server host of any flow; in execute, `run`
 * is called once per flow at the same time, each with `ctx.flow` set, and
 * must wait at `ctx.flow.release()` before it measures. If one flow fails,
 * the engine aborts the others' `ctx.signal` (each still saves its raw
 * output, as for any failure) and the whole trial fails; flows are not
 * retried one by one — the trial is retried as a whole when the failure is
 * retryable.
 *
 * `parse(raw)` is pure and is what `run` uses to turn output into samples, so
 * `netbench import` can reuse it on files measured elsewhere. It throws
 * `ParseError` (naming source and line) on output it cannot read. When the
 * output says which test ran, `parse` labels the samples `test` with the
 * name `trials` would have given it (import uses it for the trial's test).
 */
export interface ToolPlugin<P = Record<string, unknown>, T extends TrialParams = TrialParams> extends PluginMeta {
  readonly kind: 'tool';
  /** Strict zod object for the benchmark block (besides `tool`, `name`, `client`, `server`, `ip`). */
  readonly schema: BlockSchema<P>;
  /**
   * Optional: the headline metrics this tool's samples carry, by metric name
   * (e.g. `{ latency_p50: { role: 'latency', better: 'lower', primary: true } }`).
   * The run records them; charts, the report's results cell and `compare`
   * use them. Metrics not named here are still kept and shown in tables.
   */
  readonly metrics?: Readonly<Record<string, MetricDeclaration>>;
  trials(params: P): TrialSpec<T>[];
  /**
   * Whether the tool is usable on `host`, and its version: `ToolMissingError` when it is not installed.
   * Runs in prepare, once per host the tool's trials use; `ctx.roles` says which ends this host runs and
   * `ctx.trials` the parameters of its trials, so a check can refuse up front what a trial will need.
   */
  check(host: Host, ctx: ToolHostContext<T>): Promise<ToolInfo>;
  install?(host: Host, ctx: PluginContext): Promise<void>;
  /** Start the tool's server side once on a server host, after its check; `ctx.trials` are the trials it will serve. */
  serve?(host: Host, info: ToolInfo, ctx: ToolHostContext<T>): Promise<ServerHandle>;
  run(trial: TrialRun<T>, ctx: TrialContext): Promise<TrialOutput>;
  parse(raw: string, options?: ParseOptions): SampleInput[];
  /**
   * Whether `head` (the first 64 KiB of a file, or all of it when shorter)
   * looks like this tool's output, for `netbench import --tool auto`. Pure
   * and cheap; says nothing about whether `parse` will succeed (a truncated
   * or failed output of the tool is still the tool's, and `parse` then names
   * the problem). A tool without it is never chosen automatically.
   */
  sniff?(head: string): boolean;
  /** Present when `run` can take part in synchronized flows (see `FlowSupport`). */
  readonly flows?: FlowSupport;
  /**
   * Optional: how CPU placement bears on this tool's results, for `plan`'s
   * warning about unpinned trials whose ends share a small machine (hosts of
   * a cloud with `sharesMachineCpus`). `'insensitive'`: where its ends run
   * does not change its results (never warned about). Otherwise a
   * `ToolPlacementDeclaration`; without one, a trial is pinned when its
   * params carry the tool kit's `cpu_client` and `cpu_server` (`cpuParams`),
   * and the warning tells to pin with `cpus: { client: 0, server: 1 }`. Pure.
   */
  readonly placement?: ToolPlacement;
  /**
   * Optional: the tool's own counters of a finished trial (what only the
   * tool measured: iperf3's CPU use of each end's process, the sender's
   * retransmits as iperf3 counted them), stored with the host counters in
   * the trial's explain record (`TrialRecord.explain.toolCounters`), shown
   * under the trial, compared by `netbench compare` and exported as
   * `counters.<tool>.<name>` PerfKit-style lines (docs/explain.md).
   * Called by the engine once per succeeded trial, after `run`, when
   * counters are on; not for a trial of synchronized flows. Pure and
   * synchronous: read `input` only, no I/O. A counter with an invalid name
   * or a non-finite value is dropped with a warning; if it throws, the
   * trial keeps its samples and host counters and gets a note (`not read:
   * …`), never a failure.
   */
  counters?(input: ToolCountersInput<T>): readonly ToolCounter[];
}

/** What `ToolPlugin.counters` is given: the trial and the samples `run` returned for it (as stored, with their labels). */
export interface ToolCountersInput<T extends TrialParams = TrialParams> {
  readonly test: string;
  readonly params: T;
  /** The ends' host names, to say which end a counter is of. */
  readonly client: { readonly name: string };
  readonly server: { readonly name: string };
  readonly samples: readonly SampleInput[];
}

/** One counter a tool adds to a trial: `name` in snake case (`server_cpu_total`), a finite `value` and its unit; `role` says which end measured it. */
export interface ToolCounter {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly role?: 'client' | 'server';
}

/** See `ToolPlugin.placement`. */
export interface ToolPlacementDeclaration {
  /**
   * Whether a trial's parameters pin the ends it runs. Default: both
   * `cpu_client` and `cpu_server` are set. A tool with no server process
   * (ping: the kernel answers) is pinned by its client alone
   * (`clientOnlyPlacement` in the tool kit). Pure.
   */
  readonly pinned?: (params: TrialParams) => boolean;
  /**
   * How a benchmark block of this tool pins its ends, as the warning quotes
   * it (markdown code, e.g. `` `clientCpus: '0'`, `serverCpus: '1'` ``).
   * Default: `` `cpus: { client: 0, server: 1 }` ``.
   */
  readonly howToPin?: string;
}

export type ToolPlacement = 'insensitive' | ToolPlacementDeclaration;
