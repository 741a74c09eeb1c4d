// Public entry of @netbench/plugin-aws: the plugin (default), its factory, and the parts tests and benches reuse.

// Core's parser, re-exported where it always was.
export { parseConsoleHostKeys } from '@netbench/plugin-api/cloud-kit';
export { ApiCallCounter } from './api-calls.js';
export { awsErrorCode, isCapacityCode, isDependencyViolation, isNotFound, isQuotaCode, mapAwsError } from './aws-errors.js';
export type { AwsPluginOptions } from './aws-plugin.js';
export { awsPlugin, defaultAwsPlugin as default } from './aws-plugin.js';
export { estimateAwsCost } from './estimate-cost.js';
export type { FleetLaunch, LaunchedHost } from './fleet.js';
export type { AwsHostConfig } from './host-schema.js';
export { hostSchema } from './host-schema.js';
export { RUN_TAG } from './naming.js';
export type { PriceTable } from './prices.js';
export { loadPriceTable } from './prices.js';
export { regionOf } from './region.js';
export type { AwsSettings } from './settings.js';
export { readSettings } from './settings.js';
// The SDK-backed parts (clients, launchFleet, teardown) for benches and tests: `import('@netbench/plugin-aws/runtime')`.
