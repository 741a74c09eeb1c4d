import { iperfPlugin } from './plugin.js';

export type { IperfFeatures } from './check.js';
export { readIperfVersion } from './check.js';
export { iperfSamples } from './iperf-samples.js';
export type { IperfDirection, IperfFlow, IperfInterval, IperfResult, IperfTotals } from './parse/iperf-result.js';
export { parseIperfOutput } from './parse/parse-iperf.js';
export { parseIperf } from './parse-raw.js';
export type { IperfPluginOptions } from './plugin.js';
export { iperfPlugin } from './plugin.js';
export { PortPool } from './port-pool.js';
export type { IperfParams, IperfProtocol } from './schema.js';
export { DEFAULT_UDP_BITRATE, iperfSchema } from './schema.js';
export { sniffIperf } from './sniff.js';
export { iperfTrials } from './trials.js';

export default iperfPlugin();
