import type { TrialSpec } from '@netbench/plugin-api';
import type { Generator, HttpParams } from './schema.js';
import type { HttpTrialSettings } from './trial-settings.js';

const list = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? value : [value as T]);

/**
 * One trial per generator × scheme × keep-alive × connections × object size
 * (× offered rate, for oha). Test name: the generator. With `url`, scheme and
 * size come from the URL, so they are not swept.
 */
export function httpTrials(params: HttpParams): TrialSpec<HttpTrialSettings>[] {
  const trials: TrialSpec<HttpTrialSettings>[] = [];
  const schemes = params.url !== undefined ? [undefined] : list(params.scheme);
  const sizes = params.url !== undefined ? [undefined] : list(params.size);
  for (const generator of list(params.generator)) {
    const rates = generator === 'oha' && params.rate !== undefined ? list(params.rate) : [undefined];
    for (const scheme of schemes) {
      for (const keepalive of list(params.keepalive)) {
        for (const connections of list(params.connections)) {
          for (const size of sizes) {
            for (const rate of rates) trials.push(trial(params, generator, { scheme, keepalive, connections, size, rate }));
          }
        }
      }
    }
  }
  return trials;
}

interface Point {
  readonly scheme: 'http' | 'https' | undefined;
  readonly keepalive: boolean;
  readonly connections: number;
  readonly size: number | undefined;
  readonly rate: number | undefined;
}

function trial(params: HttpParams, generator: Generator, point: Point): TrialSpec<HttpTrialSettings> {
  const p: { -readonly [K in keyof HttpTrialSettings]: HttpTrialSettings[K] } = { generator, keepalive: point.keepalive, connections: point.connections, timeout: params.timeout };
  if (point.scheme !== undefined) p.scheme = point.scheme;
  if (point.size !== undefined) p.size = point.size;
  if (params.url !== undefined) p.url = params.url;
  else p.workers = params.workers;
  if (params.path !== undefined) p.path = params.path;
  if (generator === 'ab') p.requests = params.requests;
  else p.duration = params.duration;
  if (generator === 'wrk') {
    p.threads = Math.min(params.threads, point.connections);
    if (params.script !== undefined) p.script = params.script;
  }
  if (point.rate !== undefined) p.rate = point.rate;
  if (params.clientCpus !== undefined) p.cpu_client = params.clientCpus;
  if (params.serverCpus !== undefined && params.url === undefined) p.cpu_server = params.serverCpus;
  // ab has no time limit we use: guess 2,000 requests/s (ab -c 1000 without keep-alive did ~1,500/s on the lab); the trial timeout adds its slack.
  const seconds = generator === 'ab' ? Math.max(1, Math.ceil(params.requests / 2_000)) : params.duration;
  return { test: generator, params: p, estimatedSeconds: seconds, traffic: { direction: 'reverse' } };
}
