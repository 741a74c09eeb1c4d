import { z } from 'zod';
import type { Scalar } from '@netbench/plugin-api';
import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/** The parameters `iperfTrials` put in a trial, read back (keys the engine adds are ignored). */
const trialSettingsSchema = z.object({
  protocol: z.enum(['tcp', 'udp']),
  streams: z.int().positive(),
  duration: z.int().positive(),
  reverse: z.boolean(),
  nodelay: z.boolean(),
  interval: z.number().positive().optional(),
  bitrate: z.union([z.string(), z.number()]).optional(),
  length: z.union([z.string(), z.number()]).optional(),
  window: z.union([z.string(), z.number()]).optional(),
  mss: z.int().positive().optional(),
});

export type IperfTrialSettings = z.output<typeof trialSettingsSchema>;

export function readTrialSettings(params: Readonly<Record<string, Scalar>>): IperfTrialSettings {
  return trialSettingsSchema.parse(params);
}

/**
 * `iperf -c TARGET -p PORT -e -f m -t D -P N ...`: enhanced reports (`-e`;
 * 2.1.8 does not know PKB's `--enhancedreports` spelling) in Mbits (`-f m`, as PKB).
 */
export function clientArgv(settings: IperfTrialSettings, target: string, port: number): string[] {
  const optional = (flag: string, value: string | number | undefined) => (value === undefined ? [] : [flag, String(value)]);
  return [
    // The address is -c's value (no operands to put after `--`), validated so it is an address.
    'iperf', '-c', assertHostAddress(target, 'iperf target'), '-p', String(port), '-e', '-f', 'm',
    '-t', String(settings.duration),
    '-P', String(settings.streams),
    ...optional('-i', settings.interval),
    ...(settings.protocol === 'udp' ? ['-u'] : []),
    ...optional('-b', settings.bitrate),
    ...(settings.reverse ? ['-R'] : []),
    ...optional('-l', settings.length),
    ...optional('-w', settings.window),
    ...optional('-M', settings.mss),
    ...(settings.nodelay ? ['-N'] : []),
  ];
}

/** A server for one trial, on its own port, with enhanced reports. */
export function serverArgv(settings: IperfTrialSettings, port: number): string[] {
  return [
    'iperf', '-s', '-p', String(port), '-e', '-f', 'm',
    ...(settings.protocol === 'udp' ? ['-u'] : []),
    ...(settings.window === undefined ? [] : ['-w', String(settings.window)]),
  ];
}
