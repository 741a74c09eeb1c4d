// Public entry of @netbench/plugin-api: the only netbench package a plugin
// needs. Named re-exports only, no side effects. Kits are subpath exports:
// `@netbench/plugin-api/tool-kit`, `/cloud-kit`, `/publisher-kit`, `/testing`.

export type { ErrorKind } from './errors/index.js';
/** Errors plugins throw and the engine reports; recognised by brand (`hasErrorKind`), so any copy of this package works. */
export {
  CapacityError,
  ERROR_BRAND,
  errorExitCode,
  hasErrorKind,
  isNetbenchError,
  isRetryable,
  NetbenchError,
  ParseError,
  PluginError,
  QuotaError,
  RetryableError,
  TimeoutError,
  ToolMissingError,
  UnsupportedError,
} from './errors/index.js';
export type { EventInput, NetbenchEvent, NetbenchEventType, Phase } from './events/types.js';
/** The ledger file of a run folder: append-only, written before each resource is created. */
export { LedgerFile } from './ledger/ledger-file.js';
export { pendingResources } from './ledger/pending-resources.js';
/** Read a ledger file; the resources a ledger still holds (created, not deleted). */
export { readLedger } from './ledger/read-ledger.js';
export type { LedgerEntry, LedgerPhase, LedgerResource } from './ledger/types.js';
/** The contract versions this package's engine loads, and the problem with a plugin's `apiVersion` if any. */
export { apiVersionProblem, MIN_PLUGIN_API_VERSION } from './plugin/api-version.js';
/** How a package declares itself a plugin (`"netbench": { kind, name }`) and the names that imply one. */
export { declaration, impliedPluginName, PLUGIN_PACKAGE_RE } from './plugin/declaration.js';
export type {
  AnyPlugin,
  BlockOf,
  BlockSchema,
  Branded,
  CleanupFilter,
  CleanupReport,
  CloudCatalog,
  CloudDefinition,
  CloudPlugin,
  CostEstimate,
  CostItem,
  CostUsage,
  DiagnoseInput,
  DiagnosticCheck,
  ExecOptions,
  ExecResult,
  FleetHost,
  FlowCombine,
  FlowContext,
  FlowSupport,
  Host,
  HostProcess,
  HostRequest,
  Ledger,
  LinkShaping,
  Logger,
  MetricDeclaration,
  NetworkLimit,
  ParseOptions,
  PeerHost,
  PluginContext,
  PluginKind,
  PluginMeta,
  ProvisionContext,
  PublisherDefinition,
  PublisherPlugin,
  PublishResult,
  ReachablePorts,
  ServerHandle,
  ShapedRate,
  SpawnOptions,
  SshConnector,
  SshConnectRetry,
  SshHost,
  SshHostFacts,
  SshHostKeyPolicy,
  SshHostOptions,
  SshJumpOptions,
  TeardownContext,
  ToolCounter,
  ToolCountersInput,
  ToolDefinition,
  ToolHostContext,
  ToolInfo,
  ToolPlacement,
  ToolPlacementDeclaration,
  ToolPlugin,
  TrialContext,
  TrialOutput,
  TrialParams,
  TrialRun,
  TrialSearch,
  TrialSpec,
} from './plugin/index.js';
// The contract: definePlugin and the brand, the cloud/tool/publisher/host types (plugin/*.ts document each hook).
export { definePlugin, isPlugin, PLUGIN_API_VERSION, PLUGIN_BRAND } from './plugin/index.js';
// Data shapes: parameters, samples and histograms, the ledger, events, run records and results files.
export type { Scalar } from './plugin/scalar.js';
export type { SecretPath } from './plugin/secret.js';
// Secret fields of a block schema: never stored or shown, may be given as ${env:NAME} / ${file:/path}.
export { isSecret, matchSecretPaths, REDACTED, SECRET_META, secret, secretPaths } from './plugin/secret.js';
/** Whether a value a tool's `counters` hook returned is a counter (snake-case name, finite value, unit). */
export { TOOL_COUNTER_NAME_RE, toolCounterProblem } from './plugin/tool-counter-problem.js';
/** The zod that validates specs: build block schemas with it (one copy of zod for the whole spec). */
export { z } from './plugin/zod.js';
export type { KeyCounter } from './run/key-counters.js';
export { keyCounters } from './run/key-counters.js';
/** The one rule for raw output names: `raw/<trial>-<name>` (what `ctx.saveRaw(name)` writes). */
export { rawFileName } from './run/raw-file-name.js';
export type { RunResults } from './run/run-files.js';
/** File names of a run folder, and the body of its `results.json`. */
export { RUN_FILES } from './run/run-files.js';
export type { HostRecord, PhaseRecord, RunRecord, RunStatus, ToolCounterRecord, TrialDiagnosis, TrialExplainRecord, TrialRecord, TrialStatus } from './run/run-record.js';
// Owner-only folders and files (0700/0600), and a clear error when a folder cannot be made (read-only home).
export { cannotCreate, makePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './run-id/private-dir.js';
/** Run ids (sortable, time-based), the tag cloud resources carry, and netbench's home and runs folders. */
export { newRunId, parseRunIdTime, runTag } from './run-id/run-id.js';
export { defaultRunsDir, netbenchHome } from './run-id/runs-dir.js';
/** A latency histogram (HdrHistogram): record values, encode it into a sample, decode and ask percentiles. */
export { LatencyHistogram } from './samples/histogram.js';
/** A trial's parameters as sample labels (undefined ones left out). */
export { paramLabels } from './samples/param-labels.js';
export type { EncodedHistogram, Labels, LabelValue, Sample, SampleInput } from './samples/types.js';
export type { ProcessHostOptions } from './transport/process-host.js';
/** A Host whose commands run as local child processes (optionally behind a prefix such as `ip netns exec NS`). */
export { processHost } from './transport/process-host.js';
