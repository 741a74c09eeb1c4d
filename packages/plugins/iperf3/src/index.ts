import { iperf3Plugin } from './plugin.js';

export { iperf3Plugin } from './plugin.js';
export type { Iperf3PluginOptions } from './plugin.js';
export { iperf3Schema, DEFAULT_UDP_BITRATE } from './schema.js';
export type { Iperf3Params, Iperf3Protocol } from './schema.js';
export { iperf3Trials } from './trials.js';
export { parseIperf3Json } from './parse-result.js';
export { parseIperf3Text } from './parse-text.js';
export { parseIperf3Output } from './parse-output.js';
export { sniffIperf3 } from './sniff.js';
export type { Iperf3Result, Iperf3Flow, Iperf3Interval, Iperf3Direction } from './parse-result.js';
export { iperf3Samples } from './iperf3-samples.js';
export { Iperf3Error, RetryableIperf3Error } from './iperf3-error.js';
export { readIperf3Version } from './check.js';
export type { Iperf3Features } from './check.js';
export { PortPool } from './port-pool.js';

export default iperf3Plugin();
