import type { Scalar } from '@netbench/plugin-api';
import type { TrialSpec } from '@netbench/plugin-api';
import { DEFAULT_INTERVAL, type PingParams } from './schema.js';

export type PingDirection = 'forward' | 'reverse';

/** Flood ping sends at least 100 requests/s (more when replies come faster). */
const FLOOD_MAX_SECONDS_PER_REQUEST = 0.01;

/** One trial per direction; `both` means client→server then server→client. */
export function pingTrials(params: PingParams): TrialSpec[] {
  const directions: PingDirection[] = params.direction === 'both' ? ['forward', 'reverse'] : [params.direction];
  const interval = params.interval ?? (params.flood ? undefined : DEFAULT_INTERVAL);
  const secondsPerRequest = interval ?? FLOOD_MAX_SECONDS_PER_REQUEST;
  // The last request still waits for its reply: `-W`, or ping's own linger of up to ~10 s when nothing comes back.
  const tail = params.timeout ?? 1;
  return directions.map((direction) => {
    const trialParams: Record<string, Scalar> = {
      direction,
      count: params.count,
      size: params.size,
      flood: params.flood,
    };
    if (interval !== undefined) trialParams.interval = interval;
    if (params.timeout !== undefined) trialParams.timeout = params.timeout;
    return {
      test: 'icmp',
      params: trialParams,
      estimatedSeconds: params.count * secondsPerRequest + tail,
    };
  });
}
