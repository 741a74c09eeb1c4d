import type { Scalar, TrialSpec } from '@netbench/core';
import { DEFAULT_UDP_BITRATE, type Iperf3Params } from './schema.js';

/** One trial per protocol × stream count. */
export function iperf3Trials(params: Iperf3Params): TrialSpec[] {
  const protocols = Array.isArray(params.protocol) ? params.protocol : [params.protocol];
  const streams = Array.isArray(params.streams) ? params.streams : [params.streams];
  return protocols.flatMap((protocol) =>
    streams.map((streamCount) => {
      const trialParams: Record<string, Scalar> = {
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
      return { test: protocol, params: trialParams, estimatedSeconds: params.duration + params.omit };
    }),
  );
}
