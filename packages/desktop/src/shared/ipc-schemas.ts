import { z } from '@netbench/plugin-api';
import { AZURE_SUBSCRIPTION_HINT, AZURE_SUBSCRIPTION_RE, GCP_PROJECT_HINT, GCP_PROJECT_RE } from './account-ids.js';
import type { BridgeMethod } from './bridge-types.js';

// Every argument crossing the bridge is checked here before main-process code
// sees it: the renderer is treated as untrusted (a compromised page must not
// reach the file system through a crafted name or an oversized spec).

const empty = z.strictObject({});
const runId = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'expected a run id');
/** A file name inside the specs folder: no separators, no leading dot. */
const specName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,100}\.ya?ml$/, 'expected a file name ending in .yaml, without folders');
const specText = z.string().max(1_000_000, 'spec text is limited to 1 MB');
const usd = z.number().min(0).max(1_000_000).optional();
const zoneName = z.string().regex(/^[A-Za-z0-9._-]{1,80}$/);
const cloudName = z.string().regex(/^[a-z0-9-]{1,40}$/);
/** A label selection: 1–20 `key=value` conditions; a key cannot hold `=` (the CLI's form splits on the first one). */
const labelSelection = z
  .array(
    z.strictObject({
      key: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .regex(/^[^=]+$/, 'a label key cannot contain ='),
      value: z.string().max(500),
    }),
  )
  .min(1, 'a label selection needs at least one key=value')
  .max(20);

const site = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('cloud'), cloud: cloudName, zone: zoneName, machineType: z.string().regex(/^[A-Za-z0-9._-]{1,80}$/) }),
  z.strictObject({
    kind: z.literal('ssh'),
    address: z.string().regex(/^[A-Za-z0-9.:_-]{1,253}$/, 'expected a host name or IP address'),
    user: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .optional(),
    port: z.int().min(1).max(65_535).optional(),
    key: z.string().min(1).max(4096).optional(),
    zone: zoneName.optional(),
  }),
  z.strictObject({ kind: z.literal('local') }),
]);

export const wizardAnswersSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,80}$/, 'letters, digits, space, . _ -'),
  question: z.enum(['latency', 'throughput', 'pps', 'load', 'onprem']),
  sites: z.array(site).min(2, 'pick at least two places to measure between').max(20),
  tools: z.array(z.enum(['ping', 'netperf', 'iperf3', 'load'])).min(1, 'pick at least one test'),
  durationSeconds: z.int().min(1).max(3600),
  direction: z.enum(['forward', 'reverse', 'both']).optional(),
  streams: z.int().min(1).max(128).optional(),
  protocol: z.enum(['tcp', 'udp', 'both']).optional(),
  netperfTests: z
    .array(z.enum(['TCP_RR', 'TCP_CRR', 'UDP_RR', 'TCP_STREAM', 'UDP_STREAM']))
    .min(1)
    .max(5)
    .optional(),
  repetitions: z.int().min(1).max(100).optional(),
  shaping: z
    .strictObject({
      rateMbit: z.number().positive().max(100_000).optional(),
      delayMs: z.number().min(0).max(60_000).optional(),
      lossPercent: z.number().min(0).max(100).optional(),
    })
    .optional(),
  loadTest: z.enum(['rrul', 'tcp_nup', 'tcp_ndown']).optional(),
  pairs: z.enum(['within-cloud', 'all']).optional(),
  // The same patterns as the gcp and azure plugins' host schemas.
  accounts: z
    .strictObject({
      gcpProject: z.string().regex(GCP_PROJECT_RE, GCP_PROJECT_HINT).optional(),
      azureSubscription: z.string().regex(AZURE_SUBSCRIPTION_RE, AZURE_SUBSCRIPTION_HINT).optional(),
    })
    .optional(),
});

export const bridgeSchemas = {
  appInfo: empty,
  listSpecs: empty,
  readSpec: z.strictObject({ source: z.enum(['example', 'saved']), name: specName }),
  saveSpec: z.strictObject({ name: specName, text: specText }),
  checkSpec: z.strictObject({ text: specText, maxCostUsd: usd }),
  catalog: empty,
  cloudFields: z.strictObject({ cloud: cloudName }),
  cloudCatalog: z.strictObject({ cloud: cloudName }),
  generateSpec: wizardAnswersSchema,
  wizardChecks: z.strictObject({ clouds: z.array(cloudName).max(20) }),
  preflightSpec: z.strictObject({ text: specText, clouds: z.array(cloudName).max(20).optional() }),
  runSpec: z.strictObject({ runId }),
  startRun: z.strictObject({ text: specText, maxCostUsd: usd }),
  cancelRun: z.strictObject({ runId }),
  liveRun: z.strictObject({ runId }),
  liveCharts: z.strictObject({ runId }),
  activeRuns: empty,
  listRuns: z.strictObject({
    spec: z.string().max(200).optional(),
    tool: z.string().max(100).optional(),
    status: z.enum(['succeeded', 'failed', 'interrupted']).optional(),
    since: z.iso.date().optional(),
    limit: z.int().min(1).max(100_000).optional(),
  }),
  showRun: z.strictObject({ runId }),
  compareRuns: z.strictObject({ baseline: runId, candidate: runId }),
  compareSelections: z.strictObject({ baseline: labelSelection, candidate: labelSelection }),
  overlayRuns: z.strictObject({ runIds: z.array(runId).min(2, 'pick at least two runs to overlay').max(12, 'overlay at most 12 runs') }),
  storeLabels: empty,
  trendRuns: z.strictObject({
    metric: z.string().min(1).max(200).optional(),
    splitBy: z.string().trim().min(1).max(100).optional(),
    where: labelSelection.optional(),
  }),
  exportRun: z.strictObject({ runId, format: z.enum(['json', 'csv', 'html', 'md']) }),
  exportComparison: z.strictObject({ baseline: runId, candidate: runId, format: z.enum(['html', 'md']) }),
  saveFile: z.strictObject({
    // A suggested name only (the user picks the folder in the dialog): no separators, no leading dot.
    fileName: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ()._-]{0,150}$/, 'expected a file name without folders'),
    mimeType: z.string().regex(/^[a-z]+\/[a-z0-9.+-]{1,80}$/),
    content: z.string().max(64 * 1024 * 1024, 'files are limited to 64 MB'),
    encoding: z.enum(['utf8', 'base64']),
  }),
  listPlugins: empty,
} as const satisfies Record<BridgeMethod, z.ZodType>;

export function isBridgeMethod(name: unknown): name is BridgeMethod {
  return typeof name === 'string' && Object.hasOwn(bridgeSchemas, name);
}
