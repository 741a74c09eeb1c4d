import type { ToolInfo } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import type { TrialParams } from './trials.js';

/** Refuse, before measuring, what this host's netperf build cannot do (netperf would silently ignore it). */
export function requireFeatures(params: TrialParams, info: ToolInfo, hostName: string): void {
  if (params.intervalWaitMs !== undefined && info.features.intervals !== true) {
    throw new UnsupportedError(
      `interval pacing (-w/-b) was asked for, but this netperf build on ${hostName} (netperf ${info.version}) lacks interval pacing: ` +
        'it was configured without --enable-intervals, as Debian and Ubuntu build netperf 2.7.0, and would ignore -w/-b ' +
        '("Packet rate control is not compiled in"). Build netperf from source with ./configure --enable-intervals ' +
        '(or --enable-spin for sub-millisecond intervals), put it first on PATH on the client, or remove `interval` from the block.',
    );
  }
  if (params.histogram && info.features.histogram !== true) {
    const why =
      info.features.histogram === 'unknown'
        ? 'could not be verified to support it (its loopback self-test failed)'
        : 'lacks it (configured without --enable-histogram, as Debian and Ubuntu build it)';
    throw new UnsupportedError(
      `netperf's printed latency histogram (-v 2) was asked for, but this netperf build on ${hostName} (netperf ${info.version}) ${why}. ` +
        'Build netperf with ./configure --enable-histogram, or set `histogram: false`: P50/P90/P99 latencies are reported either way.',
    );
  }
}
