// The package entry: the plugin as the default export (made in ./plugin.js), and what embedders and tests use.

export { parseNetperf } from './parse/parse.js';
export { parseNetperfOutput } from './parse/parse-netperf.js';
export { sniffNetperf } from './parse/sniff.js';
export { netperfPlugin as default, netperfPlugin } from './plugin.js';
export type { ConfidenceResult, HistogramBucket, LatencyStats, NetperfResult } from './result.js';
export { trialSamples } from './samples/aggregate.js';
export { type NetperfBlock, netperfBlockSchema } from './schema.js';
export { NETPERF_TESTS, type NetperfTest } from './tests.js';
