import { fpingPlugin } from './plugin.js';

export { readFpingVersion } from './check.js';
export { fpingSamples } from './fping-samples.js';
export type { FpingOutput, FpingTarget } from './parse-output.js';
export { parseFpingOutput } from './parse-output.js';
export { fpingPlugin } from './plugin.js';
export type { FpingParams } from './schema.js';
export { fpingSchema } from './schema.js';
export { sniffFping } from './sniff.js';
export { fpingTrials } from './trials.js';

export default fpingPlugin();
