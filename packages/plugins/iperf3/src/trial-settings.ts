import { z } from 'zod';
import type { Scalar } from '@netbench/plugin-api';
import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/** The parameters `iperf3Trials` put in a trial, read back (keys the engine adds are ignored). */
const trialSettingsSchema = z.object({
  protocol: z.enum(['tcp', 'udp']),
  streams: z.int().positive(),
  duration: z.int().positive(),
  omit: z.int().nonnegative(),
  interval: z.number().positive(),
  reverse: z.boolean(),
  bidir: z.boolean(),
  zerocopy: z.boolean(),
  bitrate: z.union([z.string(), z.number()]).optional(),
  mss: z.int().positive().optional(),
  length: z.union([z.string(), z.number()]).optional(),
  window: z.union([z.string(), z.number()]).optional(),
});

export type Iperf3TrialSettings = z.output<typeof trialSettingsSchema>;

export function readTrialSettings(params: Readonly<Record<string, Scalar>>): Iperf3TrialSettings {
  return trialSettingsSchema.parse(params);
}

/** `iperf3 -c TARGET -p PORT -J -t .. -O .. -i .. -P ..` plus the optional flags. */
export function clientArgv(settings: Iperf3TrialSettings, target: string, port: number): string[] {
  const optional = (flag: string, value: string | number | undefined) => (value === undefined ? [] : [flag, String(value)]);
  return [
    // iperf3 reads `--` but has no operands: the address is -c's value, validated so it is an address.
    'iperf3', '-c', assertHostAddress(target, 'iperf3 target'), '-p', String(port), '-J',
    '-t', String(settings.duration),
    '-O', String(settings.omit),
    '-i', String(settings.interval),
    '-P', String(settings.streams),
    ...(settings.protocol === 'udp' ? ['-u'] : []),
    ...optional('-b', settings.bitrate),
    ...(settings.reverse ? ['-R'] : []),
    ...(settings.bidir ? ['--bidir'] : []),
    ...optional('-M', settings.mss),
    ...optional('-l', settings.length),
    ...optional('-w', settings.window),
    ...(settings.zerocopy ? ['-Z'] : []),
  ];
}

/** A one-off server (`-1`: exits after one test) with JSON output, on its own port. */
export function serverArgv(port: number): string[] {
  return ['iperf3', '-s', '-1', '-p', String(port), '-J'];
}
