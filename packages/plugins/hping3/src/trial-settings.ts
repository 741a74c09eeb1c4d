import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/** What `hping3Trials` gives each trial: what `run` receives as `trial.params` (undefined ones are left out of the plan). */
export type Hping3TrialSettings = {
  readonly mode: 'syn' | 'flood';
  readonly port: number;
  /** syn only. */
  readonly count?: number;
  /** syn only: microseconds between probes. */
  readonly interval?: number;
  /** flood only: seconds. */
  readonly duration?: number;
  readonly cpu_client?: number;
};

/**
 * syn: `hping3 -S -p PORT -c COUNT -i uINTERVAL -- TARGET`; flood:
 * `timeout -s INT DURATION hping3 -S --flood -p PORT -- TARGET` (SIGINT makes
 * hping3 print its statistics). Per-probe lines on stdout, statistics on stderr.
 */
export function hping3Argv(settings: Hping3TrialSettings, target: string): string[] {
  const address = assertHostAddress(target, 'hping3 target');
  if (settings.mode === 'flood') return ['timeout', '-s', 'INT', String(settings.duration ?? 5), 'hping3', '-S', '--flood', '-p', String(settings.port), '--', address];
  return ['hping3', '-S', '-p', String(settings.port), '-c', String(settings.count ?? 100), '-i', `u${settings.interval ?? 10_000}`, '--', address];
}
