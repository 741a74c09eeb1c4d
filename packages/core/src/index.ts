// Public surface of @netbench/core: named re-exports only, no side effects.
export * from './plugin/index.js';
export * from './errors/index.js';
export type * from './ledger/types.js';
export type * from './samples/types.js';
export type * from './spec/types.js';
export type * from './plan/types.js';
export type * from './events/types.js';
export type * from './engine/run-record.js';
export type * from './registry/types.js';
export { processHost } from './transport/process-host.js';
export type { ProcessHostOptions } from './transport/process-host.js';
export { LatencyHistogram } from './samples/histogram.js';
