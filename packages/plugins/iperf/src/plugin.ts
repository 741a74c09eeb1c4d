import type { Branded, ToolPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { checkIperf } from './check.js';
import { parseIperf } from './parse-raw.js';
import { PortPool } from './port-pool.js';
import { runIperf } from './run.js';
import { type IperfParams, iperfSchema } from './schema.js';
import { serveIperf } from './serve.js';
import { sniffIperf } from './sniff.js';
import type { IperfTrialSettings } from './trial-settings.js';
import { iperfTrials } from './trials.js';

const VERSION = '0.1.0';

export interface IperfPluginOptions {
  /** Ports for the servers (default 5401-5500). Plugins made without this share one pool. */
  readonly ports?: { readonly first: number; readonly last: number };
}

// Every plugin instance of this module without its own range shares these ports, so no two trials of the process collide.
const sharedPorts = new PortPool();

/** The `iperf` tool plugin (iperf 2, PerfKit Benchmarker's iperf benchmark): TCP/UDP throughput; servers started once per host and server arguments, reused by later trials, stopped in teardown. */
export function iperfPlugin(options: IperfPluginOptions = {}): Branded<ToolPlugin<IperfParams>> {
  const ports = options.ports ? new PortPool(options.ports.first, options.ports.last) : sharedPorts;
  return definePlugin<ToolPlugin<IperfParams, IperfTrialSettings>>({
    kind: 'tool',
    name: 'iperf',
    version: VERSION,
    description: 'TCP and UDP throughput with iperf 2 (enhanced reports): streams, retransmits, RTT, jitter, loss, time series',
    schema: iperfSchema,
    // PKB's names: TCP's `Throughput` is a built-in headline name; UDP's receiver-side rate is declared here.
    metrics: {
      Throughput: { role: 'throughput', better: 'higher', primary: true },
      'UDP Throughput': { role: 'throughput', better: 'higher', primary: true },
      'Packet Loss': { role: 'loss', better: 'lower' },
      Jitter: { role: 'jitter', better: 'lower' },
    },
    trials: iperfTrials,
    check: checkIperf,
    install: (host, ctx) => installAptPackage(host, 'iperf', ctx),
    serve: serveIperf(ports),
    run: (trial, ctx) => runIperf(trial, ctx, ports),
    parse: parseIperf,
    sniff: sniffIperf,
  });
}
