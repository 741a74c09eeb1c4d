// Public surface of @netbench/core: explicit named re-exports only, no side effects.
// What is not listed here is internal. To make something public, append one line.
// The conformance kit is the separate entry `@netbench/core/testing` (src/testing/index.ts).

// The plugin contract: definePlugin, the brand and API version, cloud/tool/publisher/host types.
export { definePlugin, isPlugin, PLUGIN_API_VERSION, PLUGIN_BRAND } from './plugin/index.js';
export type {
  AnyPlugin, BlockOf, BlockSchema, Branded, CleanupFilter, CleanupReport, CloudDefinition, CloudPlugin,
  CostEstimate, CostItem, CostUsage, DiagnoseInput, DiagnosticCheck, ExecOptions, ExecResult, Host,
  HostProcess, HostRequest, Ledger, Logger, ParseOptions, PluginContext, PluginKind,
  PluginMeta, ProvisionContext, PublisherDefinition, PublisherPlugin, PublishResult, ServerHandle,
  SpawnOptions, TeardownContext, ToolDefinition, ToolInfo, ToolPlugin, TrialContext, TrialOutput, TrialRun,
  TrialSpec
} from './plugin/index.js';
export type { CloudCatalog, PeerHost } from './plugin/index.js';
// The zod that validates specs: plugins build their block schemas with it (one copy, no extra dependency).
export { z } from 'zod';

// Error classes plugins throw and the engine reports (retryable, quota, capacity, parse, ...).
export {
  CapacityError, isRetryable, NetbenchError, ParseError, PluginError, QuotaError, RetryableError,
  TimeoutError, ToolMissingError, UnsupportedError
} from './errors/index.js';

// Data shapes: ledger, samples, specs, plans, events, run records, plugin discovery.
export type { LedgerEntry, LedgerPhase, LedgerResource } from './ledger/types.js';
export type { EncodedHistogram, Labels, LabelValue, Sample, SampleInput } from './samples/types.js';
export type { BenchmarkSpec, HostSpec, MatrixSpec, PublisherSpec, RunOptions, Scalar, Spec } from './spec/types.js';
export type { FleetHost, Plan, PlannedTrial } from './plan/types.js';
export type { EventInput, NetbenchEvent, NetbenchEventType, Phase } from './events/types.js';
export type { HostRecord, PhaseRecord, RunRecord, RunStatus, TrialRecord, TrialStatus } from './engine/run-record.js';
export type { PluginDescriptor, PluginResolver } from './registry/types.js';
export { processHost } from './transport/process-host.js';
export type { ProcessHostOptions } from './transport/process-host.js';
export { LatencyHistogram } from './samples/histogram.js';
export { doctor } from './doctor/doctor.js';
export type { DoctorOptions, DoctorReport } from './doctor/doctor.js';

// Running plans: engine, registry, ledger and event files, run ids, cleanup.
export {
  callPlugin, cleanupAll, cleanupRun, createRegistry, defaultRunsDir, EventLog, EXIT_CODES, LedgerFile,
  MIN_PLUGIN_API_VERSION, netbenchHome, newRunId, parseRunIdTime, pendingResources, readEvents, readLedger,
  RUN_FILES, runPlan, runTag, staticRegistry, trialLabels
} from './engine/index.js';
export type {
  CallPluginOptions, CleanupAllOptions, CleanupOptions, CleanupOutcome, CleanupRunOptions, EventSink,
  ExitCode, RegistryOptions, RunOutcome, RunPlanOptions, RunResults
} from './engine/index.js';
export { userPluginsDir } from './registry/user-plugins-dir.js';
export type { PackageRegistry } from './registry/create-registry.js';
export type { ProbeProblem } from './registry/probe-plugins.js';

// Specs: loading with positions, errors, JSON Schema.
export { formatIssue, loadSpec, SpecError, specJsonSchema } from './spec/index.js';
export type { LoadedSpec, LoadSpecOptions, SpecInput, SpecIssue } from './spec/index.js';

// Planning and matrices.
export { createPlan } from './plan/index.js';
export { expandMatrix } from './matrix/index.js';
export { planSpec } from './api/plan-spec.js';
export type { PlanSpecOptions, PlannedSpec } from './api/plan-spec.js';
export { runSpec } from './api/run-spec.js';
export type { RunSpecOptions } from './api/run-spec.js';

// Charts from results (renderer-agnostic specifications).
export {
  barCharts, cdfCharts, ChartIds, chartsFor, headlineMetric, heatmapCharts, histogramCharts, meanInterval,
  studentTCdf, studentTQuantile, sweepCharts, timeSeriesCharts
} from './charts/index.js';
export type {
  Bar, BarChart, BarSeries, Better, CategoryAxis, CdfChart, CdfSeries, ChartInput, ChartKind, ChartOptions,
  ChartSpec, HeatmapCell, HeatmapChart, HistogramChart, HistogramSeries, MeanInterval, MetricInfo,
  MetricRole, SweepChart, SweepPoint, SweepSeries, TimeSeriesChart, TimeSeriesSeries, ValueAxis
} from './charts/index.js';

// The results store and the statistics over it.
export {
  addResults, APPLICATION_ID, betterDirection, bootstrapMedianDiff, CHANGE_DEFAULTS, compareResults,
  compareSamples, defaultStorePath, deleteResults, describeSeries, detectChange, exportResults, listResults,
  mad, mannWhitneyU, median, MIGRATIONS, openStore, parseLabelConditions, parseSettings, parseTimeBound,
  publishStoredRun, quantileSorted, REGRESSION_EXIT_CODE, ResultsStore, resultsTrend, SCHEMA_VERSION,
  seededRandom, seriesKey, seriesLabels, showResult, shuffled, StoreError, storeRows, summariseSamples,
  V1_SQL, withStore
} from './store/index.js';
export type {
  AddResultsOptions, BootstrapInterval, BootstrapOptions, ChangeOptions, ChangeVerdict, ComparedSide,
  CompareOptions, CompareResultsOptions, Comparison, ComparisonResult, ComparisonRow, ComparisonSelection,
  DeleteResultsOptions, Direction, ExportResultsOptions, IngestResult, LabelCondition, ListResultsOptions,
  MannWhitneyResult, Migration, OpenStoreOptions, PublishStoredRunOptions, RunFilter, RunList, RunRow,
  RunShow, SampleColumns, SelectedRun, SeriesKeyOptions, ShownMetric, ShownTrial, ShowResultOptions,
  SideSummary, StoredRunPublished, StoredRunRef, StoredRunSummary, StoreRows, Trend, TrendFlag, TrendOptions,
  TrendPoint, TrialRow, Verdict
} from './store/index.js';
export type { StoredLabelKey } from './store/index.js';

// Managing plugins: `netbench plugins list|add|remove|info|new`.
export { addPlugin, listPlugins, newPlugin, pluginInfo, removePlugin } from './plugins-admin/index.js';
export type {
  AddedPlugin, AddPluginOptions, ListPluginsOptions, NewPlugin, NewPluginOptions, PluginField, PluginInfo,
  PluginInfoOptions, PluginList, PluginListing, PluginSource, RemovePluginOptions
} from './plugins-admin/index.js';

// Importing results measured elsewhere.
export { detectTools, ImportError, importFiles, SNIFF_BYTES, sniffHead } from './import/index.js';
export type { ImportedFile, ImportFilesOptions, ImportOutcome } from './import/index.js';

// PerfKit Benchmarker compatibility.
export { convertPkb, isPkbConfig, pythonToCel, SUPPORTED_BENCHMARKS, translatePkb } from './pkb/index.js';
export type { ConvertedPkb, ConvertPkbOptions, PkbTranslation, TranslateOptions } from './pkb/index.js';

// SSH hosts.
export { connectSshHost, SshConnectError } from './transport/ssh/index.js';
export { fetchHostKey, trustHost } from './transport/ssh/index.js';
export type { OfferedHostKey, TrustHostOptions, TrustHostResult } from './transport/ssh/index.js';
export type {
  SshConnectContext, SshConnectRetry, SshHost, SshHostKeyPolicy, SshHostOptions, SshJumpOptions
} from './transport/ssh/index.js';

// Cost estimates.
export {
  COST_LIMIT_EXIT_CODE, CostLimitError, costPlanSpec, DEFAULT_FIXED_SECONDS, DEFAULT_PER_TRIAL_SECONDS,
  enforceMaxCost, estimatePlanCost, planUsage
} from './cost/index.js';
export type {
  CloudCost, CostedPlan, CostPlanSpecOptions, HostGroup, PlanCost, UsageAssumptions
} from './cost/index.js';
export { sampleColumns } from './store/index.js';
// Helpers for tool plugins.
export { runOnHost, isMissing, isRoot, installAptPackage } from './tool-kit/index.js';
export type { CommandOutcome } from './tool-kit/index.js';
// Helpers for cloud plugins: console host keys, public address, login key, cost from a price table, classified errors.
export { classifiedError, detectPublicAddress, estimateTableCost, loadPriceFile, loginKey, openSshPublicKey, parseConsoleHostKeys, priceFilePath } from './cloud-kit/index.js';
export type { LoginKey, PricedSite, RegionalPriceTable, TableCostModel } from './cloud-kit/index.js';
export { allOrFirstError, teardownEach } from './cloud-kit/index.js';
export { runShow } from './store/index.js';
export { PortPool, boundPorts, readBoundPorts, PortInUseError, startToolServer, startToolServerOnFreePort, withToolServer, runToolClient, trialDeadline, type PortProtocol, type ToolServer, type ToolServerOptions, type ToolClientOptions, type TrialDeadline } from './tool-kit/index.js';
// Addresses as addresses (IP or host name, never an option): for host schemas and tool argv.
export { assertHostAddress, hostAddressSchema, ipv4CidrSchema, isHostAddress, isIpv4Cidr } from './tool-kit/index.js';
