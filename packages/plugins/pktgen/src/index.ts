import { pktgenPlugin } from './plugin.js';

export { pktgenPlugin } from './plugin.js';
export { pktgenSchema } from './schema.js';
export type { PktgenParams } from './schema.js';
export { pktgenTrials } from './trials.js';
export { parsePktgenResult } from './parse-result.js';
export type { PktgenResult } from './parse-result.js';
export { pktgenSamples } from './pktgen-samples.js';
export type { ReceiverCount } from './pktgen-samples.js';
export { sniffPktgen } from './sniff.js';

export default pktgenPlugin();
