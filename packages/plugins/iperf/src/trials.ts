import type { TrialSpec } from '@netbench/plugin-api';
import { cpuParams } from '@netbench/plugin-api/tool-kit';
import { DEFAULT_UDP_BITRATE, type IperfParams } from './schema.js';
import type { IperfTrialSettings } from './trial-settings.js';

/** Seconds a trial needs beyond its measuring time: server start, connect, final reports. */
const OVERHEAD_SECONDS = 2;
// iperf 2's help: lower-case suffixes are powers of 10, upper-case powers of 2.
const RATE_RE = /^(\d+(?:\.\d+)?)([kmgKMG]?)$/;
const SCALE: Readonly<Record<string, number>> = { '': 1, k: 1e3, m: 1e6, g: 1e9, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** A `-b` value in bits/s. */
export function rateBitsPerSecond(rate: string | number): number | undefined {
  if (typeof rate === 'number') return rate;
  const match = RATE_RE.exec(rate);
  return match ? Number(match[1]) * SCALE[match[2]!]! : undefined;
}

/** One trial per protocol × stream count; the test is the protocol. */
export function iperfTrials(params: IperfParams): TrialSpec<IperfTrialSettings>[] {
  const protocols = Array.isArray(params.protocol) ? params.protocol : [params.protocol];
  const streams = Array.isArray(params.streams) ? params.streams : [params.streams];
  return protocols.flatMap((protocol) =>
    streams.map((streamCount) => {
      // Mutable while it is built; what run receives is IperfTrialSettings.
      const trialParams: { -readonly [K in keyof IperfTrialSettings]: IperfTrialSettings[K] } = {
        protocol,
        streams: streamCount,
        duration: params.duration,
        reverse: params.reverse,
        nodelay: params.nodelay,
      };
      const bitrate = params.bitrate ?? (protocol === 'udp' ? DEFAULT_UDP_BITRATE : undefined);
      if (bitrate !== undefined) trialParams.bitrate = bitrate;
      if (params.interval !== undefined) trialParams.interval = params.interval;
      if (params.length !== undefined) trialParams.length = params.length;
      if (params.window !== undefined) trialParams.window = params.window;
      if (params.mss !== undefined) trialParams.mss = params.mss;
      Object.assign(trialParams, cpuParams(params.cpus));
      // For egress cost estimates: `-b` is per stream; unset (TCP) means as fast as the path goes.
      const rate = bitrate === undefined ? undefined : rateBitsPerSecond(bitrate);
      const traffic = { direction: params.reverse ? ('reverse' as const) : ('forward' as const), ...(rate === undefined ? {} : { bitsPerSecond: rate * streamCount }) };
      return { test: protocol, params: trialParams, estimatedSeconds: params.duration + OVERHEAD_SECONDS, traffic };
    }),
  );
}
