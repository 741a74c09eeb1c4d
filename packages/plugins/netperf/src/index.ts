// The package entry: the plugin as the default export (made in ./plugin.js), and what embedders and tests use.
export { netperfBlockSchema, type NetperfBlock } from './schema.js';
export { NETPERF_TESTS, type NetperfTest } from './tests.js';
export { parseNetperf } from './parse/parse.js';
export { parseNetperfOutput } from './parse/parse-netperf.js';
export { sniffNetperf } from './parse/sniff.js';
export type { NetperfResult, LatencyStats, ConfidenceResult, HistogramBucket } from './result.js';
export { trialSamples } from './samples/aggregate.js';
export { netperfPlugin as default, netperfPlugin } from './plugin.js';
