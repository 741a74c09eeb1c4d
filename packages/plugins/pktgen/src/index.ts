import { pktgenPlugin } from './plugin.js';

export type { PktgenResult } from './parse-result.js';
export { parsePktgenResult } from './parse-result.js';
export type { ReceiverCount } from './pktgen-samples.js';
export { pktgenSamples } from './pktgen-samples.js';
export { pktgenPlugin } from './plugin.js';
export type { PktgenParams } from './schema.js';
export { pktgenSchema } from './schema.js';
export { sniffPktgen } from './sniff.js';
export { pktgenTrials } from './trials.js';

export default pktgenPlugin();
