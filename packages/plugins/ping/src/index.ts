import { pingPlugin } from './plugin.js';

export { pingPlugin } from './plugin.js';
export { pingSchema, DEFAULT_INTERVAL } from './schema.js';
export type { PingParams } from './schema.js';
export { pingTrials } from './trials.js';
export type { PingDirection } from './trials.js';
export { parsePingOutput } from './parse-output.js';
export type { PingOutput, PingReply, PingErrorReply, PingSummary, PingRttSummary } from './parse-output.js';
export { pingSamples } from './ping-samples.js';
export { sniffPing } from './sniff.js';
export { readPingVersion } from './check.js';
export type { PingFeatures } from './check.js';

export default pingPlugin();
