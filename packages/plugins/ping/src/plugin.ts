import type { Branded, ToolPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { clientOnlyPlacement, installAptPackage, PING_METRICS } from '@netbench/plugin-api/tool-kit';
import { checkPing } from './check.js';
import { pingFlows } from './flows.js';
import { parsePingOutput } from './parse-output.js';
import { pingSamples } from './ping-samples.js';
import { runPing } from './run.js';
import { type PingParams, pingSchema } from './schema.js';
import { sniffPing } from './sniff.js';
import type { PingTrialSettings } from './trial-settings.js';
import { pingTrials } from './trials.js';

const VERSION = '0.1.0';

/** The `ping` tool plugin: ICMP echo round trips with per-packet RTT histograms, both directions. */
export function pingPlugin(): Branded<ToolPlugin<PingParams>> {
  return definePlugin<ToolPlugin<PingParams, PingTrialSettings>>({
    kind: 'tool',
    name: 'ping',
    version: VERSION,
    description: 'ICMP round-trip latency with iputils ping: percentiles from every reply, loss, both directions',
    schema: pingSchema,
    // PKB's ping names: the mean latency is the result, the printed percentiles its columns.
    metrics: PING_METRICS,
    trials: pingTrials,
    check: checkPing,
    install: (host, ctx) => installAptPackage(host, 'iputils-ping', ctx),
    run: runPing,
    // `test` as pingTrials names it, for `netbench import`.
    parse: (raw, options) => pingSamples(parsePingOutput(raw, options?.source), { test: 'icmp' }),
    sniff: sniffPing,
    flows: pingFlows,
    // No server process (the kernel answers): the client's CPU is the whole pinning.
    placement: clientOnlyPlacement,
  });
}
