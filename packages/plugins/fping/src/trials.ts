import type { TrialSpec } from '@netbench/plugin-api';
import type { FpingParams } from './schema.js';
import type { FpingTrialSettings } from './trial-settings.js';

/** fping's own default reply timeout, ms. */
const DEFAULT_TIMEOUT_MS = 500;

/** One trial per direction; the test is `icmp`, as for ping. */
export function fpingTrials(params: FpingParams): TrialSpec<FpingTrialSettings>[] {
  const directions = params.direction === 'both' ? (['forward', 'reverse'] as const) : [params.direction];
  return directions.map((direction) => {
    const trialParams: { -readonly [K in keyof FpingTrialSettings]: FpingTrialSettings[K] } = { direction, count: params.count, period: params.period, size: params.size };
    if (params.timeout !== undefined) trialParams.timeout = params.timeout;
    if (params.cpus?.client !== undefined) trialParams.cpu_client = params.cpus.client;
    return {
      test: 'icmp',
      params: trialParams,
      estimatedSeconds: (params.count * params.period + (params.timeout ?? DEFAULT_TIMEOUT_MS)) / 1000,
    };
  });
}
