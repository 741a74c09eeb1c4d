import type { TrialSpec } from '@netbench/plugin-api';
import type { PktgenParams } from './schema.js';
import type { PktgenTrialSettings } from './trial-settings.js';

/** A rate to estimate an unpaced trial's time with: a veth between namespaces of a small VM does ~100–500 kpps. */
const ESTIMATED_PPS = 100_000;

/** One trial: `count` UDP packets of `size` bytes from the client's kernel to the server's address. */
export function pktgenTrials(params: PktgenParams): TrialSpec<PktgenTrialSettings>[] {
  const settings: { -readonly [K in keyof PktgenTrialSettings]: PktgenTrialSettings[K] } = { count: params.count, size: params.size, cpu_client: params.cpu, port: params.port };
  if (params.rate !== undefined) settings.rate = params.rate;
  const pps = params.rate ?? ESTIMATED_PPS;
  return [
    {
      test: 'udp_pps',
      params: settings,
      estimatedSeconds: params.count / pps,
      traffic: { direction: 'forward', ...(params.rate !== undefined ? { bitsPerSecond: params.rate * (params.size + 4) * 8 } : {}) },
    },
  ];
}
