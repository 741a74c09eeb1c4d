import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/**
 * The parameters `iperfTrials` gives each trial: what `run` receives as
 * `trial.params`, typed, never parsed again (undefined ones are left out of the plan).
 */
export type IperfTrialSettings = {
  readonly protocol: 'tcp' | 'udp';
  readonly streams: number;
  readonly duration: number;
  readonly reverse: boolean;
  readonly nodelay: boolean;
  readonly interval?: number;
  readonly bitrate?: string | number;
  readonly length?: string | number;
  readonly window?: string | number;
  readonly mss?: number;
  /** CPUs the client and server processes are pinned to (`taskset -c`). */
  readonly cpu_client?: number;
  readonly cpu_server?: number;
};

/**
 * `iperf -c TARGET -p PORT -e -f m -t D -P N ...`: enhanced reports (`-e`;
 * 2.1.8 does not know PKB's `--enhancedreports` spelling) in Mbits (`-f m`, as PKB).
 */
export function clientArgv(settings: IperfTrialSettings, target: string, port: number): string[] {
  const optional = (flag: string, value: string | number | undefined) => (value === undefined ? [] : [flag, String(value)]);
  return [
    // The address is -c's value (no operands to put after `--`), validated so it is an address.
    'iperf',
    '-c',
    assertHostAddress(target, 'iperf target'),
    '-p',
    String(port),
    '-e',
    '-f',
    'm',
    '-t',
    String(settings.duration),
    '-P',
    String(settings.streams),
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
export function serverArgv(settings: Pick<IperfTrialSettings, 'protocol' | 'window'>, port: number): string[] {
  return [
    'iperf',
    '-s',
    '-p',
    String(port),
    '-e',
    '-f',
    'm',
    ...(settings.protocol === 'udp' ? ['-u'] : []),
    ...(settings.window === undefined ? [] : ['-w', String(settings.window)]),
  ];
}
