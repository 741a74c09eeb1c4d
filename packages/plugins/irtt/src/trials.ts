import type { TrialSpec } from '@netbench/plugin-api';
import { cpuParams } from '@netbench/plugin-api/tool-kit';
import type { IrttParams } from './schema.js';
import type { IrttTrialSettings } from './trial-settings.js';

/** irtt waits for late replies after the last packet (3 × the largest RTT, at most 4 s each way when none came back). */
const END_WAIT_SECONDS = 1;

/** One trial per interval (a list is a sweep). */
export function irttTrials(params: IrttParams): TrialSpec<IrttTrialSettings>[] {
  const intervals = Array.isArray(params.interval) ? params.interval : [params.interval];
  return intervals.map((interval) => {
    const trialParams: { -readonly [K in keyof IrttTrialSettings]: IrttTrialSettings[K] } = {
      interval,
      duration: params.duration,
      fill: params.fill,
      per_packet: params.perPacket,
    };
    if (params.length !== undefined) trialParams.length = params.length;
    if (params.dscp !== undefined) trialParams.dscp = params.dscp;
    Object.assign(trialParams, cpuParams(params.cpus));
    return { test: 'udp_rtt', params: trialParams, estimatedSeconds: params.duration + END_WAIT_SECONDS };
  });
}
