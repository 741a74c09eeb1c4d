import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/**
 * The parameters `pingTrials` gives each trial: what `run` receives as
 * `trial.params`, typed, never parsed again (undefined ones are left out of the plan).
 */
export type PingTrialSettings = {
  readonly direction: 'forward' | 'reverse';
  readonly count: number;
  readonly interval?: number;
  readonly size: number;
  readonly flood: boolean;
  readonly timeout?: number;
  /** CPU the pinging process is pinned to (`taskset -c`). */
  readonly cpu_client?: number;
};

/**
 * `ping -n -D -c COUNT [-i INTERVAL] -s SIZE [-W TIMEOUT] [-f] -- TARGET`, under
 * `LC_ALL=C` so numbers are printed with a decimal point whatever the host's locale.
 */
export function pingArgv(settings: PingTrialSettings, target: string): string[] {
  return [
    'env',
    'LC_ALL=C',
    'ping',
    '-n',
    '-D',
    '-c',
    String(settings.count),
    ...(settings.interval === undefined ? [] : ['-i', String(settings.interval)]),
    '-s',
    String(settings.size),
    ...(settings.timeout === undefined ? [] : ['-W', String(settings.timeout)]),
    ...(settings.flood ? ['-f'] : []),
    // `--` ends ping's options (getopt): an address can never be read as one.
    '--',
    assertHostAddress(target, 'ping target'),
  ];
}
