import type { TrialSpec } from '@netbench/plugin-api';
import type { Hping3Params } from './schema.js';
import type { Hping3TrialSettings } from './trial-settings.js';

/** One trial: `tcp_syn` (RTT per probe) or `tcp_syn_flood` (packets per second). */
export function hping3Trials(params: Hping3Params): TrialSpec<Hping3TrialSettings>[] {
  const cpu = params.cpus?.client !== undefined ? { cpu_client: params.cpus.client } : {};
  if (params.mode === 'flood') {
    return [
      {
        test: 'tcp_syn_flood',
        params: { mode: 'flood', port: params.port, duration: params.duration, ...cpu },
        estimatedSeconds: params.duration,
        traffic: { direction: 'forward' },
      },
    ];
  }
  return [
    {
      test: 'tcp_syn',
      params: { mode: 'syn', port: params.port, count: params.count, interval: params.interval, ...cpu },
      estimatedSeconds: (params.count * params.interval) / 1e6 + 1,
    },
  ];
}
