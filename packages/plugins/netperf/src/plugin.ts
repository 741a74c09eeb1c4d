import { definePlugin } from '@netbench/plugin-api';
import { checkNetperf } from './check.js';
import { netperfFlows } from './flows.js';
import { installNetperf } from './install.js';
import { NETPERF_METRICS } from './metrics.js';
import { parseNetperf } from './parse/parse.js';
import { sniffNetperf } from './parse/sniff.js';
import { runNetperf } from './run.js';
import { type NetperfBlock, netperfBlockSchema } from './schema.js';
import { serveNetperf } from './serve.js';
import { netperfTrials } from './trials.js';

/** The netperf tool plugin: PKB's netperf benchmark (TCP_RR, TCP_CRR, TCP_STREAM, UDP_RR, ...). */
export const netperfPlugin = definePlugin({
  kind: 'tool',
  name: 'netperf',
  version: '0.1.0',
  description: 'netperf request/response latency and bulk throughput, measured and named as PerfKit Benchmarker does',
  schema: netperfBlockSchema,
  metrics: NETPERF_METRICS,
  trials: (block: NetperfBlock) => netperfTrials(block),
  check: checkNetperf,
  install: installNetperf,
  serve: serveNetperf,
  run: runNetperf,
  parse: parseNetperf,
  sniff: sniffNetperf,
  flows: netperfFlows,
});
