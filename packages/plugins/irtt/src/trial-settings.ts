import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

/**
 * The parameters `irttTrials` gives each trial: what `run` receives as
 * `trial.params`, typed, never parsed again (undefined ones are left out of the plan).
 */
export type IrttTrialSettings = {
  /** Seconds between packets. */
  readonly interval: number;
  readonly duration: number;
  readonly length?: number;
  readonly dscp?: number;
  readonly fill: 'none' | 'rand';
  readonly per_packet: boolean;
  /** CPU the client is pinned to (`taskset -c`). */
  readonly cpu_client?: number;
  /** CPU the server is pinned to: the trial then starts a server of its own under `taskset -c`. */
  readonly cpu_server?: number;
};

/** Go durations in whole nanoseconds, so no float formatting reaches irtt (`0.001` s is `1000000ns`). */
export function goDuration(seconds: number): string {
  return `${Math.round(seconds * 1e9)}ns`;
}

/** `host:port`, IPv6 in brackets as irtt wants. */
export function irttAddress(target: string, port: number): string {
  const address = assertHostAddress(target, 'irtt target');
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

/**
 * `irtt client -i .. -d .. [-l ..] [--dscp=..] --fill=.. -o - [-q] -- HOST:PORT`.
 * `-o -` writes the JSON result to stdout; the per-packet lines
 * (`seq=N rtt=.. rd=.. sd=.. ipdv=..`) and the summary then go to stderr, where
 * a flow reads them while it runs. Without `perPacketLines`, `-q` leaves them out.
 * irtt's long options take their value after `=` only.
 */
export function clientArgv(settings: IrttTrialSettings, target: string, port: number, perPacketLines: boolean): string[] {
  return [
    'irtt',
    'client',
    '-i',
    goDuration(settings.interval),
    '-d',
    goDuration(settings.duration),
    ...(settings.length === undefined ? [] : ['-l', String(settings.length)]),
    ...(settings.dscp === undefined ? [] : [`--dscp=${settings.dscp}`]),
    `--fill=${settings.fill}`,
    '-o',
    '-',
    ...(perPacketLines ? [] : ['-q']),
    '--',
    irttAddress(target, port),
  ];
}

/**
 * One server per host for the whole run, on its own port: `-i 0` and `-l 0`
 * lift irtt's default limits (10 ms minimum interval, which a sweep goes
 * below; no packet length cap); `--set-src-ip` makes replies leave from the
 * address the request came to, since it listens on every address.
 */
export function serverArgv(port: number): string[] {
  return ['irtt', 'server', '-b', `:${port}`, '-i', '0', '-l', '0', '-d', '0', '--set-src-ip'];
}
