import type { TrialSpec } from '@netbench/plugin-api';
import { cpuParams } from '@netbench/plugin-api/tool-kit';
import { DEFAULT_UDP_BITRATE, type Iperf3Params } from './schema.js';
import type { Iperf3TrialSettings } from './trial-settings.js';

/** One trial per protocol × stream count. */
export function iperf3Trials(params: Iperf3Params): TrialSpec<Iperf3TrialSettings>[] {
  const protocols = Array.isArray(params.protocol) ? params.protocol : [params.protocol];
  const streams = Array.isArray(params.streams) ? params.streams : [params.streams];
  return protocols.flatMap((protocol) =>
    streams.map((streamCount) => {
      // Mutable while it is built; what run receives is Iperf3TrialSettings.
      const trialParams: { -readonly [K in keyof Iperf3TrialSettings]: Iperf3TrialSettings[K] } = {
        protocol,
        streams: streamCount,
        duration: params.duration,
        omit: params.omit,
        interval: params.interval,
        reverse: params.reverse,
        bidir: params.bidir,
        zerocopy: params.zerocopy,
      };
      const bitrate = params.bitrate ?? (protocol === 'udp' ? DEFAULT_UDP_BITRATE : undefined);
      if (bitrate !== undefined) trialParams.bitrate = bitrate;
      if (params.mss !== undefined) trialParams.mss = params.mss;
      if (params.length !== undefined) trialParams.length = params.length;
      if (params.window !== undefined) trialParams.window = params.window;
      Object.assign(trialParams, cpuParams(params.cpus));
      if (params.congestion !== undefined && protocol === 'tcp') trialParams.congestion = params.congestion;
      // For egress cost estimates: `-b` is per stream; unset (TCP) means as fast as the path goes.
      const rate = bitrate !== undefined ? bitsPerSecond(bitrate) : undefined;
      const traffic = {
        direction: params.bidir ? ('both' as const) : params.reverse ? ('reverse' as const) : ('forward' as const),
        ...(rate !== undefined ? { bitsPerSecond: rate * streamCount } : {}),
      };
      return { test: protocol, params: trialParams, estimatedSeconds: params.duration + params.omit, traffic };
    }),
  );
}

const RATE_SUFFIX: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, g: 1e9, t: 1e12 };

/** iperf3's `-b` value (`100M`, `1.5G`, `100M/10`, or a number) in bits per second; iperf3's suffixes are powers of 1000 for rates. */
function bitsPerSecond(bitrate: string | number): number | undefined {
  if (typeof bitrate === 'number') return bitrate;
  const match = /^(\d+(?:\.\d+)?)([KMGTkmgt]?)/.exec(bitrate);
  if (!match) return undefined;
  return Number(match[1]) * (match[2] ? RATE_SUFFIX[match[2].toLowerCase()]! : 1);
}
