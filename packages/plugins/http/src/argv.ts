import type { HttpTrialSettings } from './trial-settings.js';

/** Prefix argv with `taskset -c CPUS` when the trial pins the process. */
export function pinned(cpus: string | undefined, argv: readonly string[]): string[] {
  return cpus === undefined ? [...argv] : ['taskset', '-c', cpus, ...argv];
}

/** `http://10.0.0.2:18080/obj-1024`; IPv6 addresses in brackets. */
export function endpointUrl(scheme: 'http' | 'https', address: string, port: number, path: string): string {
  const host = address.includes(':') ? `[${address}]` : address;
  return `${scheme}://${host}:${port}${path}`;
}

/**
 * `ab -n N -c C [-k] -s TIMEOUT -r -- URL`. `-r` keeps going on receive errors
 * (they are counted as failed requests instead of ending the test).
 */
export function abArgv(settings: HttpTrialSettings, url: string): string[] {
  return pinned(settings.cpu_client, [
    'ab',
    '-n',
    String(settings.requests ?? 10_000),
    '-c',
    String(settings.connections),
    ...(settings.keepalive ? ['-k'] : []),
    '-s',
    String(settings.timeout),
    '-r',
    '--',
    url,
  ]);
}

/** `wrk -t T -c C -d Ds --timeout Ts --latency [-s SCRIPT] [-H 'Connection: close'] -- URL`. */
export function wrkArgv(settings: HttpTrialSettings, url: string, scriptPath?: string): string[] {
  return pinned(settings.cpu_client, [
    'wrk',
    '-t',
    String(settings.threads ?? 1),
    '-c',
    String(settings.connections),
    '-d',
    `${settings.duration ?? 10}s`,
    '--timeout',
    `${settings.timeout}s`,
    '--latency',
    ...(scriptPath !== undefined ? ['-s', scriptPath] : []),
    // wrk always keeps connections open; asking the server to close makes it reconnect per request.
    ...(settings.keepalive ? [] : ['-H', 'Connection: close']),
    '--',
    url,
  ]);
}

/**
 * `oha -z Ds -c C [-q RATE --latency-correction] [--disable-keepalive] -t Ts -w
 * --no-tui --output-format json [--insecure] -- URL`. With a rate, latency is
 * measured from when each request was due, not when it was sent.
 */
export function ohaArgv(command: string, settings: HttpTrialSettings, url: string): string[] {
  return pinned(settings.cpu_client, [
    command,
    '-z',
    `${settings.duration ?? 10}s`,
    '-c',
    String(settings.connections),
    ...(settings.rate !== undefined ? ['-q', String(settings.rate), '--latency-correction'] : []),
    ...(settings.keepalive ? [] : ['--disable-keepalive']),
    // -w: requests in flight when the duration ends are waited for, not cut and counted as errors.
    '-t',
    `${settings.timeout}s`,
    '-w',
    '--no-tui',
    '--output-format',
    'json',
    // The endpoint's certificate is self-signed for the run.
    ...(url.startsWith('https:') ? ['--insecure'] : []),
    '--',
    url,
  ]);
}
