import { z } from 'zod';
import type { Scalar } from '@netbench/plugin-api';
import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/** The parameters `fpingTrials` put in a trial, read back (keys the engine adds are ignored). */
const trialSettingsSchema = z.object({
  direction: z.enum(['forward', 'reverse']),
  count: z.int().positive(),
  period: z.int().positive(),
  size: z.int().nonnegative(),
  timeout: z.int().positive().optional(),
});

export type FpingTrialSettings = z.output<typeof trialSettingsSchema>;

export function readTrialSettings(params: Readonly<Record<string, Scalar>>): FpingTrialSettings {
  return trialSettingsSchema.parse(params);
}

/**
 * `fping -C COUNT -D -p PERIOD -b SIZE [-t TIMEOUT] -- TARGET` under `LC_ALL=C`:
 * per-packet lines with times on stdout, every round trip (`-C`) on stderr.
 */
export function fpingArgv(settings: FpingTrialSettings, target: string): string[] {
  return [
    'env', 'LC_ALL=C',
    'fping', '-C', String(settings.count), '-D',
    '-p', String(settings.period),
    '-b', String(settings.size),
    ...(settings.timeout === undefined ? [] : ['-t', String(settings.timeout)]),
    // `--` ends fping's options (fping 5.1 accepts it): `-f/etc/passwd` would read targets from a file.
    '--', assertHostAddress(target, 'fping target'),
  ];
}
