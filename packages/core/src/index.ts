// Public surface of @netbench/core: spec, matrix, plan, run, registry, and the
// commands built on them (cleanup, doctor, cost, PKB conversion, plugin
// management). Named re-exports only, no side effects. The plugin contract is
// @netbench/plugin-api; the results store and statistics are @netbench/results.

/** What `convertPkb` takes and returns. */
export type { ConvertedPkb, ConvertPkbOptions } from './api/convert-pkb.js';
/** `netbench convert`: a PKB config file as a native spec. */
export { convertPkb } from './api/convert-pkb.js';
/** What `costPlanSpec` takes and returns. */
export type { CostedPlan, CostPlanSpecOptions } from './api/cost-plan-spec.js';
/** `netbench plan`'s cost: plan a spec and price its fleet. */
export { costPlanSpec } from './api/cost-plan-spec.js';
export type { ShardJobOptions } from './api/k8s-job.js';
/** `netbench plan --shards N --emit k8s-job`: a ConfigMap and an Indexed Job running one shard per completion index. */
export { shardJobManifest, shardJobWarnings } from './api/k8s-job.js';
/** What `planSpec` takes and returns. */
export type { PlannedSpec, PlanSpecOptions } from './api/plan-spec.js';
/** `netbench plan`: load, validate and plan a spec file. */
export { placementFacts, planSpec, planWarnings } from './api/plan-spec.js';
export type { ResumeRunOptions } from './api/resume-run.js';
/** `netbench run --resume RUN`: continue a run that died, or run its next stage. */
export { resumeRun, runFolder } from './api/resume-run.js';
/** What `runSpec` takes. */
export type { RunSpecOptions } from './api/run-spec.js';
// Running.
/** `netbench run`: plan the spec and run it (provision → prepare → execute → teardown → publish). */
export { runSpec } from './api/run-spec.js';
export type { ShardSpec, SplitSpec, SplitSpecOptions } from './api/shard-spec.js';
export { splitOptions, splitSpec } from './api/shard-spec.js';
// After a run, and around it.
/** `netbench cleanup RUN` and `--all`: delete what a killed run left, from its ledger and cloud tags. */
export { cleanupAll } from './cleanup/cleanup-all.js';
/** Options and outcome of cleanup. */
export type { CleanupAllOptions, CleanupOptions, CleanupOutcome, CleanupRunOptions } from './cleanup/cleanup-outcome.js';
export { cleanupRun } from './cleanup/cleanup-run.js';
/** Costs by cloud and host group, and the assumptions behind them. */
export type { CloudCost, HostGroup, PlanCost, UsageAssumptions } from './cost/index.js';
/** Cost of a plan before anything is created, and `--max-cost`. */
export { COST_LIMIT_EXIT_CODE, CostLimitError, enforceMaxCost, estimatePlanCost } from './cost/index.js';
/** Options and report of `doctor`. */
export type { DoctorOptions, DoctorReport } from './doctor/doctor.js';
/** `netbench doctor`: tools, versions, privileges, kernel qdiscs; cloud credentials and quotas. */
export { doctor } from './doctor/doctor.js';
/** Parse a plugin's block (tool parameters, publisher settings) with its schema; errors name the spec path. */
export { parseBlock } from './engine/block-schema.js';
/** Options of `callPlugin`. */
export type { CallPluginOptions } from './engine/call-plugin.js';
/** Call a plugin hook the way the engine does: named errors, timeout, grace period. */
export { callPlugin } from './engine/call-plugin.js';
/** One of the exit codes. */
export type { ExitCode } from './engine/exit-codes.js';
/** Exit codes of a run and their meaning. */
export { EXIT_CODES } from './engine/exit-codes.js';
export type { LoadPhase, LoadWindow, OneWayMetric, ProbeKind } from './engine/flows/load-summary.js';
// Phases, probe RTTs and percentiles of latency-under-load trials, for their charts.
export { bulkDirection, loadPhase, ONE_WAY_METRICS, PROBE_KINDS, percentile, probeOneWay, probeRtt } from './engine/flows/load-summary.js';
/** Writes a run folder: the samples stream, raw outputs, `results.json`. */
export { RunFiles } from './engine/run-files.js';
/** What `runPlan` takes and returns. */
export type { RunOutcome, RunPlanOptions } from './engine/run-plan.js';
/** Run a plan already made. */
export { runPlan } from './engine/run-plan.js';
/** Where a finished run is kept (the results store implements it). */
export type { RunStore } from './engine/run-store.js';
/** The labels the engine puts on a trial's samples (host pair, zones, parameters, tool version). */
export { trialLabels } from './engine/sample-labels.js';
export type { Stage, StageRange } from './engine/stages/stages.js';
/** Run stages (`--stage provision|prepare|execute|teardown` and ranges). */
export { formatStageRange, parseStageRange, STAGES } from './engine/stages/stages.js';
/** Text safe for a terminal: control characters and escape sequences shown escaped. */
export { printable } from './errors/printable.js';
/** A run's event log file (`events.jsonl`), and reading one back. */
export { EventLog } from './events/event-log.js';
/** Read `events.jsonl` of a run folder. */
export { readEvents } from './events/read-events.js';
// Matrices and plans.
/** Expand a spec's matrix into cells (axes × zip, filters applied). */
export { expandMatrix } from './matrix/index.js';
/** Options and results of the PKB translation. */
export type { PkbTranslation, TranslateOptions } from './pkb/index.js';
/** PerfKit Benchmarker configs: detect, translate, convert to a native spec. */
export { isPkbConfig, SUPPORTED_BENCHMARKS, translatePkb } from './pkb/index.js';
/** Turn a validated spec into trials and the deduplicated fleet. */
export { createPlan } from './plan/index.js';
export type { PlacementFacts } from './plan/placement.js';
/** The warning for local-lab trials whose ends share a small machine's CPUs unpinned. */
export { placementWarnings } from './plan/placement.js';
/** A random number generator: () => [0, 1). */
export type { Random } from './plan/random.js';
/** A deterministic random number generator from a seed, and a seeded shuffle (trial order, bootstrap). */
export { seededRandom, shuffled } from './plan/random.js';
/** Link shaping of the plan's hosts, resolved to bits per second, and the warning when no trial measures it. */
export { type HostShaping, hostShaping, planShaping, shapingWarnings } from './plan/shaping.js';
export type { ShardPart, ShardRef, SplitOptions } from './plan/shard-plan.js';
/** Shards: split a plan (`netbench plan --shards N`), one shard's plan, the study labels. */
export { defaultStudyId, parseShard, shardConflicts, shardPlan, splitPlan, studyLabels } from './plan/shard-plan.js';
/** A plan, one planned trial, one distinct host of the fleet. */
export type { FleetHost, Plan, PlannedTrial } from './plan/types.js';
/** Options and results of the plugin commands. */
export type {
  AddedPlugin,
  AddPluginOptions,
  ListPluginsOptions,
  NewPlugin,
  NewPluginOptions,
  PluginField,
  PluginInfo,
  PluginInfoOptions,
  PluginList,
  PluginListing,
  PluginSource,
  RemovePluginOptions,
} from './plugins-admin/index.js';
/** `netbench plugins list|add|remove|info|new`. */
export { addPlugin, listPlugins, newPlugin, pluginInfo, removePlugin } from './plugins-admin/index.js';
/** Options of `createRegistry`, and the packages it reads. */
export type { PackageRegistry, RegistryOptions } from './registry/create-registry.js';
// Plugins: finding and loading them.
/** The plugin registry: built-ins, the user's installed plugins, declared project plugins. */
export { createRegistry } from './registry/create-registry.js';
/** Where plugins may be declared (the CLI's, the project's, the user's package.json). */
export type { PluginRoot, RootInput, RootOrigin, RootProblem } from './registry/plugin-roots.js';
/** A plugin package that failed to load, and why. */
export type { ProbeProblem } from './registry/probe-plugins.js';
/** A registry of plugin objects given directly (tests, embedders). */
export { staticRegistry } from './registry/static-registry.js';
/** What the registry knows of a plugin, and the resolver the engine asks. */
export type { PluginDescriptor, PluginResolver } from './registry/types.js';
/** `$NETBENCH_HOME/plugins`: where `netbench plugins add` installs. */
export { userPluginsDir } from './registry/user-plugins-dir.js';
/** Who runs netbench and which version: recorded in every run. */
export { coreVersion, currentUser } from './run-id/run-owner.js';
/** A loaded spec, how to load one, its input form and one issue. */
export type { LoadedSpec, LoadSpecOptions, SpecInput, SpecIssue } from './spec/index.js';
// Specs.
/** Load a spec file (YAML, or a PKB config) and validate it, with `file:line:col` for every problem. */
/** The error of an invalid spec (exit code 2): every issue, each with its position. */
/** One issue as `spec.yaml:LINE:COL  path.to.field  message`. */
/** The JSON Schema of specs: the core skeleton plus every installed plugin's block. */
export { formatIssue, loadSpec, SpecError, specJsonSchema } from './spec/index.js';
// Hardening: spec size limit, secrets in specs, terminal-safe text, plugin roots.
/** The largest spec netbench reads (1 MiB). */
export { MAX_SPEC_BYTES } from './spec/spec-limits.js';
/** Redact literal secrets in a spec text; the `${env:…}` / `${file:…}` reference syntax of secret fields. */
export { redactSpecText, SECRET_REFERENCE_RE } from './spec/spec-secrets.js';
/** The spec's typed shape (after validation). */
export type { BenchmarkSpec, HostSpec, MatrixSpec, PublisherSpec, RunOptions, Spec } from './spec/types.js';
/** The signal and logger a connection is bound to. */
/** What `trustHost` takes and returns. */
export type { OfferedHostKey, SshConnectContext, TrustHostOptions, TrustHostResult } from './transport/ssh/index.js';
// The SSH transport (the engine gives it to cloud plugins as `ctx.connectSsh`).
/** Connect a machine over SSH as a `Host` (host key verified, retries, one connection). */
/** `netbench hosts trust HOST`: fetch a host's SSH key, show its fingerprint, record it once confirmed. */
export { connectSshHost, fetchHostKey, SshConnectError, trustHost } from './transport/ssh/index.js';
