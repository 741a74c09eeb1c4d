import { pingPlugin } from './plugin.js';

export type { PingFeatures } from './check.js';
export { readPingVersion } from './check.js';
export type { PingErrorReply, PingOutput, PingReply, PingRttSummary, PingSummary } from './parse-output.js';
export { parsePingOutput } from './parse-output.js';
export { pingSamples } from './ping-samples.js';
export { pingPlugin } from './plugin.js';
export type { PingParams } from './schema.js';
export { DEFAULT_INTERVAL, pingSchema } from './schema.js';
export { sniffPing } from './sniff.js';
export type { PingDirection } from './trials.js';
export { pingTrials } from './trials.js';

export default pingPlugin();
