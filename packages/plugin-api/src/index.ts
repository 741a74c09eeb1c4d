// Public entry of @netbench/plugin-api: the only netbench package a plugin
// needs. Named re-exports only, no side effects. Kits are subpath exports:
// `@netbench/plugin-api/tool-kit`, `/cloud-kit`, `/publisher-kit`, `/testing`.

// The contract: definePlugin and the brand, the cloud/tool/publisher/host types (plugin/*.ts document each hook).
export { definePlugin, isPlugin, PLUGIN_API_VERSION, PLUGIN_BRAND } from './plugin/index.js';
export type {
  AnyPlugin, BlockOf, BlockSchema, Branded, CleanupFilter, CleanupReport, CloudCatalog, CloudDefinition, CloudPlugin,
  CostEstimate, CostItem, CostUsage, DiagnoseInput, DiagnosticCheck, ExecOptions, ExecResult, FleetHost, Host, LinkShaping, ShapedRate,
  HostProcess, HostRequest, NetworkLimit, ReachablePorts, Ledger, Logger, MetricDeclaration, ParseOptions, PeerHost, PluginContext, PluginKind, PluginMeta,
  ProvisionContext, PublisherDefinition, PublisherPlugin, PublishResult, ServerHandle, SpawnOptions,
  TeardownContext, ToolDefinition, ToolHostContext, ToolInfo, ToolPlacement, ToolPlacementDeclaration, ToolPlugin, TrialContext, TrialOutput, TrialParams, TrialRun, TrialSpec,
  FlowCombine, FlowContext, FlowSupport, TrialSearch, ToolCounter, ToolCountersInput
} from './plugin/index.js';
export type { SshConnectRetry, SshConnector, SshHost, SshHostFacts, SshHostKeyPolicy, SshHostOptions, SshJumpOptions } from './plugin/index.js';
/** The contract versions this package's engine loads, and the problem with a plugin's `apiVersion` if any. */
export { apiVersionProblem, MIN_PLUGIN_API_VERSION } from './plugin/api-version.js';
/** How a package declares itself a plugin (`"netbench": { kind, name }`) and the names that imply one. */
export { declaration, impliedPluginName, PLUGIN_PACKAGE_RE } from './plugin/declaration.js';
/** The zod that validates specs: build block schemas with it (one copy of zod for the whole spec). */
export { z } from './plugin/zod.js';
// Secret fields of a block schema: never stored or shown, may be given as ${env:NAME} / ${file:/path}.
export { isSecret, matchSecretPaths, REDACTED, secret, SECRET_META, secretPaths } from './plugin/secret.js';
export type { SecretPath } from './plugin/secret.js';

/** Errors plugins throw and the engine reports; recognised by brand (`hasErrorKind`), so any copy of this package works. */
export {
  CapacityError, ERROR_BRAND, errorExitCode, hasErrorKind, isNetbenchError, isRetryable, NetbenchError, ParseError,
  PluginError, QuotaError, RetryableError, TimeoutError, ToolMissingError, UnsupportedError
} from './errors/index.js';
export type { ErrorKind } from './errors/index.js';

// Data shapes: parameters, samples and histograms, the ledger, events, run records and results files.
export type { Scalar } from './plugin/scalar.js';
export type { EncodedHistogram, Labels, LabelValue, Sample, SampleInput } from './samples/types.js';
/** A latency histogram (HdrHistogram): record values, encode it into a sample, decode and ask percentiles. */
export { LatencyHistogram } from './samples/histogram.js';
/** A trial's parameters as sample labels (undefined ones left out). */
export { paramLabels } from './samples/param-labels.js';
export type { LedgerEntry, LedgerPhase, LedgerResource } from './ledger/types.js';
/** The ledger file of a run folder: append-only, written before each resource is created. */
export { LedgerFile } from './ledger/ledger-file.js';
/** Read a ledger file; the resources a ledger still holds (created, not deleted). */
export { readLedger } from './ledger/read-ledger.js';
export { pendingResources } from './ledger/pending-resources.js';
export type { EventInput, NetbenchEvent, NetbenchEventType, Phase } from './events/types.js';
export type { HostRecord, PhaseRecord, RunRecord, RunStatus, ToolCounterRecord, TrialDiagnosis, TrialExplainRecord, TrialRecord, TrialStatus } from './run/run-record.js';
export { keyCounters } from './run/key-counters.js';
export type { KeyCounter } from './run/key-counters.js';
/** Whether a value a tool's `counters` hook returned is a counter (snake-case name, finite value, unit). */
export { TOOL_COUNTER_NAME_RE, toolCounterProblem } from './plugin/tool-counter-problem.js';
/** File names of a run folder, and the body of its `results.json`. */
export { RUN_FILES } from './run/run-files.js';
export type { RunResults } from './run/run-files.js';
/** The one rule for raw output names: `raw/<trial>-<name>` (what `ctx.saveRaw(name)` writes). */
export { rawFileName } from './run/raw-file-name.js';
/** Run ids (sortable, time-based), the tag cloud resources carry, and netbench's home and runs folders. */
export { newRunId, parseRunIdTime, runTag } from './run-id/run-id.js';
export { defaultRunsDir, netbenchHome } from './run-id/runs-dir.js';
// Owner-only folders and files (0700/0600), and a clear error when a folder cannot be made (read-only home).
export { cannotCreate, makePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './run-id/private-dir.js';

/** A Host whose commands run as local child processes (optionally behind a prefix such as `ip netns exec NS`). */
export { processHost } from './transport/process-host.js';
export type { ProcessHostOptions } from './transport/process-host.js';
