import type { Branded, ToolPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { checkIperf3 } from './check.js';
import { iperf3Counters } from './iperf3-counters.js';
import { iperf3Samples } from './iperf3-samples.js';
import { parseIperf3Output } from './parse-output.js';
import { PortPool } from './port-pool.js';
import { runIperf3 } from './run.js';
import { type Iperf3Params, iperf3Schema } from './schema.js';
import { sniffIperf3 } from './sniff.js';
import type { Iperf3TrialSettings } from './trial-settings.js';
import { iperf3Trials } from './trials.js';

const VERSION = '0.1.0';

export interface Iperf3PluginOptions {
  /** Ports for the per-trial servers (default 5201-5300). Plugins made without this share one pool. */
  readonly ports?: { readonly first: number; readonly last: number };
}

// Every plugin instance of this module without its own range shares these ports, so no two trials of the process collide.
const sharedPorts = new PortPool();

/** The `iperf3` tool plugin: TCP/UDP throughput, one one-off server per trial. */
export function iperf3Plugin(options: Iperf3PluginOptions = {}): Branded<ToolPlugin<Iperf3Params>> {
  const ports = options.ports ? new PortPool(options.ports.first, options.ports.last) : sharedPorts;
  return definePlugin<ToolPlugin<Iperf3Params, Iperf3TrialSettings>>({
    kind: 'tool',
    name: 'iperf3',
    version: VERSION,
    description: 'TCP and UDP throughput with iperf3: per-interval time series, retransmits, jitter, loss, CPU',
    schema: iperf3Schema,
    // What the receiver got is the result; UDP adds its loss and jitter.
    metrics: {
      Throughput: { role: 'throughput', better: 'higher', primary: true },
      'Packet Loss': { role: 'loss', better: 'lower' },
      Jitter: { role: 'jitter', better: 'lower' },
    },
    trials: iperf3Trials,
    check: checkIperf3,
    install: (host, ctx) => installAptPackage(host, 'iperf3', ctx),
    run: (trial, ctx) => runIperf3(trial, ctx, ports),
    // JSON (what run reads) or the text report; `test` as iperf3Trials names it, for `netbench import`.
    parse: (raw, parseOptions) => {
      const result = parseIperf3Output(raw, parseOptions?.source);
      return iperf3Samples(result, { test: result.protocol });
    },
    sniff: sniffIperf3,
    counters: iperf3Counters,
  });
}
