import { iperfPlugin } from './plugin.js';

export { iperfPlugin } from './plugin.js';
export type { IperfPluginOptions } from './plugin.js';
export { iperfSchema, DEFAULT_UDP_BITRATE } from './schema.js';
export type { IperfParams, IperfProtocol } from './schema.js';
export { iperfTrials } from './trials.js';
export { parseIperfOutput } from './parse/parse-iperf.js';
export type { IperfResult, IperfFlow, IperfTotals, IperfInterval, IperfDirection } from './parse/iperf-result.js';
export { iperfSamples } from './iperf-samples.js';
export { parseIperf } from './parse-raw.js';
export { sniffIperf } from './sniff.js';
export { readIperfVersion } from './check.js';
export type { IperfFeatures } from './check.js';
export { PortPool } from './port-pool.js';

export default iperfPlugin();
