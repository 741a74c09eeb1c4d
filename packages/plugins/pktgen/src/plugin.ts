import type { Branded, ToolPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { checkPktgen } from './check.js';
import { parsePktgenResult } from './parse-result.js';
import { pktgenSamples } from './pktgen-samples.js';
import { runPktgen } from './run.js';
import { type PktgenParams, pktgenSchema } from './schema.js';
import { sniffPktgen } from './sniff.js';
import type { PktgenTrialSettings } from './trial-settings.js';
import { pktgenTrials } from './trials.js';

const VERSION = '0.1.0';

/** The `pktgen` tool plugin: the kernel's packet generator, packets per second of small UDP frames, and what the receiver counted. */
export function pktgenPlugin(): Branded<ToolPlugin<PktgenParams>> {
  return definePlugin<ToolPlugin<PktgenParams, PktgenTrialSettings>>({
    kind: 'tool',
    name: 'pktgen',
    version: VERSION,
    description: "Packets per second with the kernel's packet generator (pktgen): UDP frames of 64 bytes by default, counted at the receiver",
    schema: pktgenSchema,
    // The bit rate the frames make, then their rate (what pktgen is for), as results read them.
    metrics: {
      Throughput: { role: 'throughput', better: 'higher', primary: true },
      'Packet Rate': { role: 'rate', better: 'higher' },
    },
    trials: pktgenTrials,
    check: checkPktgen,
    run: runPktgen,
    // Sent by a kernel thread bound to its CPU (`cpu`): always pinned.
    placement: { pinned: () => true },
    parse: (raw, options) => pktgenSamples(parsePktgenResult(raw, options?.source), undefined, { test: 'udp_pps' }),
    sniff: sniffPktgen,
  });
}
