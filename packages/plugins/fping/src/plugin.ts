import type { Branded, ToolPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { clientOnlyPlacement, installAptPackage, PING_METRICS } from '@netbench/plugin-api/tool-kit';
import { checkFping } from './check.js';
import { fpingSamples } from './fping-samples.js';
import { parseFpingOutput } from './parse-output.js';
import { runFping } from './run.js';
import { type FpingParams, fpingSchema } from './schema.js';
import { sniffFping } from './sniff.js';
import type { FpingTrialSettings } from './trial-settings.js';
import { fpingTrials } from './trials.js';

const VERSION = '0.1.0';

/** The `fping` tool plugin: ICMP round trips with every reply kept (`-C`), percentiles and loss. */
export function fpingPlugin(): Branded<ToolPlugin<FpingParams>> {
  return definePlugin<ToolPlugin<FpingParams, FpingTrialSettings>>({
    kind: 'tool',
    name: 'fping',
    version: VERSION,
    description: 'ICMP round-trip latency with fping: percentiles from every reply, loss, both directions',
    schema: fpingSchema,
    // PKB's ping names: the mean latency is the result, the printed percentiles its columns.
    metrics: PING_METRICS,
    trials: fpingTrials,
    check: checkFping,
    install: (host, ctx) => installAptPackage(host, 'fping', ctx),
    run: runFping,
    // `test` as fpingTrials names it, for `netbench import`.
    parse: (raw, options) => fpingSamples(parseFpingOutput(raw, options?.source), { test: 'icmp' }),
    sniff: sniffFping,
    // No server process (the kernel answers): the client's CPU is the whole pinning.
    placement: clientOnlyPlacement,
  });
}
