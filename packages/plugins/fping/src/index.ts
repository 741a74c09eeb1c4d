import { fpingPlugin } from './plugin.js';

export { fpingPlugin } from './plugin.js';
export { fpingSchema } from './schema.js';
export type { FpingParams } from './schema.js';
export { fpingTrials } from './trials.js';
export { parseFpingOutput } from './parse-output.js';
export type { FpingOutput, FpingTarget } from './parse-output.js';
export { fpingSamples } from './fping-samples.js';
export { sniffFping } from './sniff.js';
export { readFpingVersion } from './check.js';

export default fpingPlugin();
