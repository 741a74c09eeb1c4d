import { iperf3Plugin } from './plugin.js';

export type { Iperf3Features } from './check.js';
export { readIperf3Version } from './check.js';
export { Iperf3Error, RetryableIperf3Error } from './iperf3-error.js';
export { iperf3Samples } from './iperf3-samples.js';
export { parseIperf3Output } from './parse-output.js';
export type { Iperf3Direction, Iperf3Flow, Iperf3Interval, Iperf3Result } from './parse-result.js';
export { parseIperf3Json } from './parse-result.js';
export { parseIperf3Text } from './parse-text.js';
export type { Iperf3PluginOptions } from './plugin.js';
export { iperf3Plugin } from './plugin.js';
export { PortPool } from './port-pool.js';
export type { Iperf3Params, Iperf3Protocol } from './schema.js';
export { DEFAULT_UDP_BITRATE, iperf3Schema } from './schema.js';
export { sniffIperf3 } from './sniff.js';
export { iperf3Trials } from './trials.js';

export default iperf3Plugin();
