// Public entry of @netbench/plugin-aws: the plugin (default), its factory, and the parts tests and benches reuse.
export { defaultAwsPlugin as default, awsPlugin } from './aws-plugin.js';
export type { AwsPluginOptions } from './aws-plugin.js';
export { ApiCallCounter } from './api-calls.js';
export { hostSchema } from './host-schema.js';
export type { AwsHostConfig } from './host-schema.js';
export type { FleetLaunch, LaunchedHost } from './fleet.js';
export { mapAwsError, awsErrorCode, isNotFound, isDependencyViolation, isQuotaCode, isCapacityCode } from './aws-errors.js';
// Core's parser, re-exported where it always was.
export { parseConsoleHostKeys } from '@netbench/plugin-api/cloud-kit';
export { estimateAwsCost } from './estimate-cost.js';
export { loadPriceTable } from './prices.js';
export type { PriceTable } from './prices.js';
export { readSettings } from './settings.js';
export type { AwsSettings } from './settings.js';
export { RUN_TAG } from './naming.js';
export { regionOf } from './region.js';
// The SDK-backed parts (clients, launchFleet, teardown) for benches and tests: `import('@netbench/plugin-aws/runtime')`.
