import { ParseError } from '@netbench/plugin-api';
import type { ErrorKind, ExtraFigure, HttpResult } from './http-result.js';

interface OhaJson {
  readonly summary?: {
    readonly successRate?: number;
    readonly total?: number;
    readonly slowest?: number | null;
    readonly fastest?: number | null;
    readonly average?: number | null;
    readonly requestsPerSec?: number;
    readonly totalData?: number;
    readonly sizePerSec?: number | null;
  };
  readonly latencyPercentiles?: Readonly<Record<string, number | null>>;
  readonly rps?: { readonly mean?: number | null; readonly stddev?: number | null; readonly max?: number | null; readonly min?: number | null };
  readonly statusCodeDistribution?: Readonly<Record<string, number>>;
  readonly errorDistribution?: Readonly<Record<string, number>>;
}

const PERCENTILE_KEY_RE = /^p(\d+(?:\.\d+)?)$/;
const ABORTED_AT_END_RE = /^aborted due to deadline$/;

/**
 * Reads `oha --output-format json` (oha 1.x; times in seconds). Non-2xx
 * statuses are errors (`status`); oha's error messages are sorted into
 * connect, timeout, read/write and other by their text.
 */
export function parseOha(raw: string, source = '<oha json>'): HttpResult {
  let json: OhaJson;
  try {
    json = JSON.parse(raw) as OhaJson;
  } catch (error) {
    throw new ParseError(`not JSON: ${(error as Error).message}`, source);
  }
  const summary = json?.summary;
  if (typeof summary !== 'object' || summary === null || typeof summary.total !== 'number' || typeof json.statusCodeDistribution !== 'object') {
    throw new ParseError('no "summary.total" and "statusCodeDistribution": not oha --output-format json', source);
  }
  let responses = 0;
  let successes = 0;
  for (const [code, count] of Object.entries(json.statusCodeDistribution ?? {})) {
    responses += count;
    if (/^2\d\d$/.test(code)) successes += count;
  }
  const errors: Partial<Record<ErrorKind, number>> = { status: responses - successes };
  for (const [message, count] of Object.entries(json.errorDistribution ?? {})) {
    // Requests still in flight when -z ran out (oha without -w): cut by the client, not failed by the server.
    if (ABORTED_AT_END_RE.test(message)) continue;
    const kind = errorKind(message);
    errors[kind] = (errors[kind] ?? 0) + count;
  }
  const ms = (seconds: number | null | undefined) => (typeof seconds === 'number' && Number.isFinite(seconds) ? seconds * 1000 : undefined);
  const percentiles: [number, number][] = [];
  for (const [key, value] of Object.entries(json.latencyPercentiles ?? {})) {
    const p = PERCENTILE_KEY_RE.exec(key)?.[1];
    const v = ms(value);
    if (p !== undefined && v !== undefined) percentiles.push([Number(p), v]);
  }
  percentiles.sort((a, b) => a[0] - b[0]);
  const mean = ms(summary.average);
  const min = ms(summary.fastest);
  const max = ms(summary.slowest);
  const extra: ExtraFigure[] = [];
  if (typeof summary.requestsPerSec === 'number') extra.push(['oha_Requests_Per_Second_All', summary.requestsPerSec, 'requests/s']);
  if (typeof summary.successRate === 'number') extra.push(['oha_Success_Rate', summary.successRate * 100, 'percent']);
  return {
    generator: 'oha',
    requests: responses,
    successes,
    seconds: summary.total,
    errors,
    latency: { ...(mean !== undefined ? { mean } : {}), ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) },
    percentiles,
    ...(typeof summary.sizePerSec === 'number' ? { transferBytesPerSecond: summary.sizePerSec } : {}),
    extra,
  };
}

function errorKind(message: string): ErrorKind {
  if (/timed? ?out|deadline/i.test(message)) return 'timeout';
  if (/connect|refused|unreachable|dns/i.test(message)) return 'connect';
  if (/reset|broken pipe|closed|eof|incomplete/i.test(message)) return 'read';
  return 'other';
}
