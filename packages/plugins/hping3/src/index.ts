import { hping3Plugin } from './plugin.js';

export { readHping3Version } from './check.js';
export { hping3Samples, RTT_RESOLUTION_MS } from './hping3-samples.js';
export type { Hping3Output, Hping3Reply } from './parse-output.js';
export { parseHping3Output } from './parse-output.js';
export { hping3Plugin } from './plugin.js';
export type { Hping3Params } from './schema.js';
export { hping3Schema } from './schema.js';
export { sniffHping3 } from './sniff.js';
export { hping3Trials } from './trials.js';

export default hping3Plugin();
