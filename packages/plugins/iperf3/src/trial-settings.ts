import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/**
 * The parameters `iperf3Trials` gives each trial: what `run` receives as
 * `trial.params`, typed, never parsed again (undefined ones are left out of the plan).
 */
export type Iperf3TrialSettings = {
  readonly protocol: 'tcp' | 'udp';
  readonly streams: number;
  readonly duration: number;
  readonly omit: number;
  readonly interval: number;
  readonly reverse: boolean;
  readonly bidir: boolean;
  readonly zerocopy: boolean;
  readonly bitrate?: string | number;
  readonly mss?: number;
  readonly length?: string | number;
  readonly window?: string | number;
  /** CPUs the client and the server process are pinned to (`taskset -c`); labels `cpu_client`, `cpu_server`. */
  readonly cpu_client?: number;
  readonly cpu_server?: number;
  readonly congestion?: string;
};

/** `iperf3 -c TARGET -p PORT -J -t .. -O .. -i .. -P ..` plus the optional flags. */
export function clientArgv(settings: Iperf3TrialSettings, target: string, port: number): string[] {
  const optional = (flag: string, value: string | number | undefined) => (value === undefined ? [] : [flag, String(value)]);
  return [
    // iperf3 reads `--` but has no operands: the address is -c's value, validated so it is an address.
    'iperf3',
    '-c',
    assertHostAddress(target, 'iperf3 target'),
    '-p',
    String(port),
    '-J',
    '-t',
    String(settings.duration),
    '-O',
    String(settings.omit),
    '-i',
    String(settings.interval),
    '-P',
    String(settings.streams),
    ...(settings.protocol === 'udp' ? ['-u'] : []),
    ...optional('-b', settings.bitrate),
    ...(settings.reverse ? ['-R'] : []),
    ...(settings.bidir ? ['--bidir'] : []),
    ...optional('-M', settings.mss),
    ...optional('-l', settings.length),
    ...optional('-w', settings.window),
    ...(settings.zerocopy ? ['-Z'] : []),
    ...(settings.protocol === 'tcp' ? optional('-C', settings.congestion) : []),
  ];
}

/**
 * A one-off server (`-1`: exits after one test) on its own port: with JSON
 * output, or — given `liveInterval` — its text report flushed every
 * `liveInterval` seconds (`--forceflush`), read line by line for live values
 * (iperf 3.12 has no `--json-stream`, and `-J` prints only at the end).
 */
export function serverArgv(port: number, liveInterval?: number): string[] {
  return liveInterval === undefined ? ['iperf3', '-s', '-1', '-p', String(port), '-J'] : ['iperf3', '-s', '-1', '-p', String(port), '--forceflush', '-i', String(liveInterval)];
}
