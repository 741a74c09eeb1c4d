// netbench-plugin-sockperf: a third-party netbench tool plugin. It imports
// only @netbench/plugin-api, which it peer-depends on.
import { definePlugin } from '@netbench/plugin-api';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { checkSockperf } from './check.js';
import { parseSockperf } from './parse.js';
import { runSockperf } from './run.js';
import { sockperfSchema } from './schema.js';
import { serveSockperf } from './serve.js';
import { sockperfTrials } from './trials.js';

export { fullLogHistogram } from './full-log.js';
export { parseSockperf } from './parse.js';
export type { SockperfParams } from './schema.js';
export { sockperfSchema } from './schema.js';
export { sockperfTrials } from './trials.js';

/** `tool: sockperf`: UDP/TCP message latency, ping-pong or under a steady load, p25 to p99.999. */
export default definePlugin({
  kind: 'tool',
  name: 'sockperf',
  version: '0.1.0',
  description: 'sockperf ping-pong and under-load message latency: p25 to p99.999, with a histogram of every observation',
  schema: sockperfSchema,
  // Headline metrics: what charts, the report's results cell and compare show (sockperf reports one-way latency unless --full-rtt).
  metrics: {
    latency_p50: { role: 'latency', better: 'lower', primary: true },
    latency_p99: { role: 'latency', better: 'lower' },
    rtt_p50: { role: 'latency', better: 'lower', primary: true },
    rtt_p99: { role: 'latency', better: 'lower' },
    message_rate: { role: 'rate', better: 'higher' },
  },
  trials: sockperfTrials,
  check: checkSockperf,
  // apt-get install -y sockperf (Debian, Ubuntu), as root or through sudo -n.
  install: (host, ctx) => installAptPackage(host, 'sockperf', ctx),
  serve: (host, _info, ctx) => serveSockperf(host, ctx),
  run: runSockperf,
  parse: parseSockperf,
});
