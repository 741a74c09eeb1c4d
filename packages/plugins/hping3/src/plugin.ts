import type { Branded, ToolPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { installAptPackage, PING_METRICS } from '@netbench/plugin-api/tool-kit';
import { checkHping3 } from './check.js';
import { hping3Samples } from './hping3-samples.js';
import { parseHping3Output } from './parse-output.js';
import { runHping3 } from './run.js';
import { type Hping3Params, hping3Schema } from './schema.js';
import { sniffHping3 } from './sniff.js';
import type { Hping3TrialSettings } from './trial-settings.js';
import { hping3Trials } from './trials.js';

const VERSION = '0.1.0';

/** The `hping3` tool plugin: TCP SYN round trips (0.1 ms resolution) and a SYN flood's packets per second. */
export function hping3Plugin(): Branded<ToolPlugin<Hping3Params>> {
  return definePlugin<ToolPlugin<Hping3Params, Hping3TrialSettings>>({
    kind: 'tool',
    name: 'hping3',
    version: VERSION,
    description: 'TCP SYN latency (per-probe RTTs, 0.1 ms resolution) and SYN flood packets per second with hping3',
    schema: hping3Schema,
    // Ping mode reads as ping does; a flood's result is its send rate.
    metrics: { ...PING_METRICS, 'Packet Rate': { role: 'rate', better: 'higher' } },
    trials: hping3Trials,
    check: checkHping3,
    install: (host, ctx) => installAptPackage(host, 'hping3', ctx),
    run: runHping3,
    // No server process: pinned when the sending process is.
    placement: { pinned: (params) => params['cpu_client'] !== undefined },
    parse: (raw, options) => {
      const output = parseHping3Output(raw, options?.source);
      return hping3Samples(output, { test: output.flood ? 'tcp_syn_flood' : 'tcp_syn' });
    },
    sniff: sniffHping3,
  });
}
