import { z } from 'zod';
import type { Scalar } from '@netbench/plugin-api';
import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/** The parameters `pingTrials` put in a trial, read back (the engine may add matrix keys; they are ignored). */
const trialSettingsSchema = z.object({
  direction: z.enum(['forward', 'reverse']),
  count: z.int().positive(),
  interval: z.number().positive().optional(),
  size: z.int().nonnegative(),
  flood: z.boolean(),
  timeout: z.number().positive().optional(),
});

export type PingTrialSettings = z.output<typeof trialSettingsSchema>;

export function readTrialSettings(params: Readonly<Record<string, Scalar>>): PingTrialSettings {
  return trialSettingsSchema.parse(params);
}

/**
 * `ping -n -D -c COUNT [-i INTERVAL] -s SIZE [-W TIMEOUT] [-f] -- TARGET`, under
 * `LC_ALL=C` so numbers are printed with a decimal point whatever the host's locale.
 */
export function pingArgv(settings: PingTrialSettings, target: string): string[] {
  return [
    'env', 'LC_ALL=C',
    'ping', '-n', '-D',
    '-c', String(settings.count),
    ...(settings.interval === undefined ? [] : ['-i', String(settings.interval)]),
    '-s', String(settings.size),
    ...(settings.timeout === undefined ? [] : ['-W', String(settings.timeout)]),
    ...(settings.flood ? ['-f'] : []),
    // `--` ends ping's options (getopt): an address can never be read as one.
    '--', assertHostAddress(target, 'ping target'),
  ];
}
