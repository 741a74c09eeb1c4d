import type { Branded, FlowSupport, ToolPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { installAptPackage, PortPool } from '@netbench/plugin-api/tool-kit';
import { checkIrtt } from './check.js';
import { IRTT_METRICS, irttSamples } from './irtt-samples.js';
import { parseIrttJson } from './parse-result.js';
import { runIrtt } from './run.js';
import { type IrttParams, irttSchema } from './schema.js';
import { DEFAULT_PORTS, serveIrtt } from './server.js';
import { sniffIrtt } from './sniff.js';
import type { IrttTrialSettings } from './trial-settings.js';
import { irttTrials } from './trials.js';

const VERSION = '0.1.0';

export interface IrttPluginOptions {
  /** Ports for irtt servers (default 2112-2199). Plugins made without this share one pool. */
  readonly ports?: { readonly first: number; readonly last: number };
}

const sharedPorts = new PortPool(DEFAULT_PORTS.first, DEFAULT_PORTS.last, 'irtt');

/** As a flow: every packet's RTT streams as an interval sample; the flows' mean latencies average, loss stays per flow. */
export const irttFlows: FlowSupport = {
  intervals: true,
  combine: (metric) => (/^(?:rtt|send_delay|receive_delay)_(?:mean|median|p50|p90|p99)$/.test(metric) ? 'mean' : undefined),
};

/** The `irtt` tool plugin: UDP round trips, one-way delays, IPDV and loss per direction, with per-packet histograms. */
export function irttPlugin(options: IrttPluginOptions = {}): Branded<ToolPlugin<IrttParams>> {
  const ports = options.ports ? new PortPool(options.ports.first, options.ports.last, 'irtt') : sharedPorts;
  return definePlugin<ToolPlugin<IrttParams, IrttTrialSettings>>({
    kind: 'tool',
    name: 'irtt',
    version: VERSION,
    description: 'UDP round-trip time with irtt: per-packet RTT, one-way delays, IPDV, upstream/downstream loss, histograms',
    schema: irttSchema,
    metrics: IRTT_METRICS,
    trials: irttTrials,
    check: checkIrtt,
    install: (host, ctx) => installAptPackage(host, 'irtt', ctx),
    serve: (host, info, ctx) => serveIrtt(host, info, ctx, ports),
    run: (trial, ctx) => runIrtt(trial, ctx, ports),
    // irtt's JSON (`-o`); `test` as irttTrials names it, for `netbench import`.
    parse: (raw, parseOptions) => irttSamples(parseIrttJson(raw, parseOptions?.source), { test: 'udp_rtt' }),
    sniff: sniffIrtt,
    flows: irttFlows,
  });
}
