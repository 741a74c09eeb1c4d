import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/**
 * The parameters `fpingTrials` gives each trial: what `run` receives as
 * `trial.params`, typed, never parsed again (undefined ones are left out of the plan).
 */
export type FpingTrialSettings = {
  readonly direction: 'forward' | 'reverse';
  readonly count: number;
  readonly period: number;
  readonly size: number;
  readonly timeout?: number;
  /** CPU the pinging process is pinned to (`taskset -c`). */
  readonly cpu_client?: number;
};

/**
 * `fping -C COUNT -D -p PERIOD -b SIZE [-t TIMEOUT] -- TARGET` under `LC_ALL=C`:
 * per-packet lines with times on stdout, every round trip (`-C`) on stderr.
 */
export function fpingArgv(settings: FpingTrialSettings, target: string): string[] {
  return [
    'env',
    'LC_ALL=C',
    'fping',
    '-C',
    String(settings.count),
    '-D',
    '-p',
    String(settings.period),
    '-b',
    String(settings.size),
    ...(settings.timeout === undefined ? [] : ['-t', String(settings.timeout)]),
    // `--` ends fping's options (fping 5.1 accepts it): `-f/etc/passwd` would read targets from a file.
    '--',
    assertHostAddress(target, 'fping target'),
  ];
}
