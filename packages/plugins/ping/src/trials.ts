import type { TrialSpec } from '@netbench/plugin-api';
import { DEFAULT_INTERVAL, type PingParams } from './schema.js';
import type { PingTrialSettings } from './trial-settings.js';

export type PingDirection = 'forward' | 'reverse';

/** Flood ping sends at least 100 requests/s (more when replies come faster). */
const FLOOD_MAX_SECONDS_PER_REQUEST = 0.01;

/** One trial per interval (a list is a sweep) and direction; `both` means client→server then server→client. */
export function pingTrials(params: PingParams): TrialSpec<PingTrialSettings>[] {
  const intervals = Array.isArray(params.interval) ? params.interval : [params.interval];
  return intervals.flatMap((interval) => directionTrials(params, interval));
}

function directionTrials(params: PingParams, given: number | undefined): TrialSpec<PingTrialSettings>[] {
  const directions: PingDirection[] = params.direction === 'both' ? ['forward', 'reverse'] : [params.direction];
  const interval = given ?? (params.flood ? undefined : DEFAULT_INTERVAL);
  const secondsPerRequest = interval ?? FLOOD_MAX_SECONDS_PER_REQUEST;
  // The last request still waits for its reply: `-W`, or ping's own linger of up to ~10 s when nothing comes back.
  const tail = params.timeout ?? 1;
  return directions.map((direction) => {
    const trialParams: { -readonly [K in keyof PingTrialSettings]: PingTrialSettings[K] } = {
      direction,
      count: params.count,
      size: params.size,
      flood: params.flood,
    };
    if (interval !== undefined) trialParams.interval = interval;
    if (params.timeout !== undefined) trialParams.timeout = params.timeout;
    if (params.cpus?.client !== undefined) trialParams.cpu_client = params.cpus.client;
    return {
      test: 'icmp',
      params: trialParams,
      estimatedSeconds: params.count * secondsPerRequest + tail,
    };
  });
}
