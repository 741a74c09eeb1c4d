import { ParseError } from '@netbench/plugin-api';
import type { ErrorKind, ExtraFigure, HttpResult } from './http-result.js';

const VERSION_RE = /^This is ApacheBench, Version (\S+)/m;
const FIELD_RE = /^([A-Z][A-Za-z0-9 -]+?):\s+(.*)$/;
const FAILED_DETAIL_RE = /\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)/;
const TIMES_ROW_RE = /^(Connect|Processing|Waiting|Total):\s+(\d+)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s*$/;
const PERCENTILE_RE = /^\s*(\d+)%\s+(\d+)(?: \(longest request\))?\s*$/;
// What ab prints instead of results when it gives up (connection refused, timeout): `apr_socket_recv: Connection refused (111)`.
const AB_FAILURE_RE = /^(?:.*\.\.\.)?(apr_\w+: .*\(\d+\))\s*$/m;

/** Reads `ab`'s report (what it prints to stdout). Throws ParseError naming `source` when the run did not finish. */
export function parseAb(raw: string, source = '<ab output>'): HttpResult {
  const fields = new Map<string, string>();
  const lines = raw.split('\n');
  const failure = AB_FAILURE_RE.exec(raw)?.[1];
  let failedDetail: RegExpExecArray | null = null;
  const times: ExtraFigure[] = [];
  const percentiles: [number, number][] = [];
  let inPercentiles = false;
  for (const line of lines) {
    if (line.startsWith('Percentage of the requests served')) {
      inPercentiles = true;
      continue;
    }
    const percentile = inPercentiles ? PERCENTILE_RE.exec(line) : null;
    if (percentile) {
      percentiles.push([Number(percentile[1]), Number(percentile[2])]);
      continue;
    }
    const row = TIMES_ROW_RE.exec(line);
    if (row) {
      const phase = row[1]!.toLowerCase();
      const stats = [
        ['min', row[2]],
        ['mean', row[3]],
        ['sd', row[4]],
        ['median', row[5]],
        ['max', row[6]],
      ] as const;
      for (const [stat, value] of stats) times.push([`HTTP_${row[1]}_Time`, Number(value), 'ms', { phase, stat }]);
      continue;
    }
    failedDetail ??= FAILED_DETAIL_RE.exec(line);
    const field = FIELD_RE.exec(line.trim());
    if (field && !fields.has(field[1]!)) fields.set(field[1]!, field[2]!);
    else if (field && field[1] === 'Time per request') fields.set('Time per request (concurrent)', field[2]!);
  }
  const number = (name: string, required = true): number | undefined => {
    const text = fields.get(name);
    const value = text === undefined ? Number.NaN : Number.parseFloat(text);
    if (Number.isFinite(value)) return value;
    if (required) {
      throw new ParseError(failure ? `ab did not finish: ${failure}` : `no "${name}:" line: not a finished ab report`, source);
    }
    return undefined;
  };
  const seconds = number('Time taken for tests')!;
  const complete = number('Complete requests')!;
  const failed = number('Failed requests')!;
  const non2xx = number('Non-2xx responses', false) ?? 0;
  const errors: Partial<Record<ErrorKind, number>> = { status: non2xx };
  if (failedDetail) {
    errors.connect = Number(failedDetail[1]);
    errors.read = Number(failedDetail[2]);
    errors.length = Number(failedDetail[3]);
    errors.exceptions = Number(failedDetail[4]);
  } else if (failed > 0) {
    errors.other = failed;
  }
  const unanswered = failedDetail ? (errors.connect ?? 0) + (errors.read ?? 0) + (errors.exceptions ?? 0) : failed;
  const answered = Math.max(0, complete - unanswered);
  const transferKiB = number('Transfer rate', false);
  const concurrency = number('Concurrency Level', false);
  const extra: ExtraFigure[] = [...times];
  const perConcurrent = number('Time per request (concurrent)', false);
  if (perConcurrent !== undefined) extra.push(['HTTP_Time_Per_Request_All_Connections', perConcurrent, 'ms']);
  const reported = number('Requests per second', false);
  if (reported !== undefined) extra.push(['ab_Requests_Per_Second_All_Statuses', reported, 'requests/s']);
  const keepAlive = number('Keep-Alive requests', false);
  if (keepAlive !== undefined) extra.push(['HTTP_Keep_Alive_Requests', keepAlive, 'count']);
  const total = times.find(([, , , labels]) => labels?.phase === 'total' && labels.stat === 'max')?.[1];
  const totalMin = times.find(([, , , labels]) => labels?.phase === 'total' && labels.stat === 'min')?.[1];
  const mean = number('Time per request', false);
  const sd = times.find(([, , , labels]) => labels?.phase === 'total' && labels.stat === 'sd')?.[1];
  const version = VERSION_RE.exec(raw)?.[1];
  return {
    generator: 'ab',
    ...(version !== undefined ? { generatorVersion: version } : {}),
    // With -r, ab counts requests that failed to connect or read as complete: only the rest were answered.
    requests: answered,
    // ab counts a non-2xx reply as complete; it is an error here, as is a reply of unexpected length.
    successes: Math.max(0, answered - (errors.length ?? 0) - non2xx),
    seconds,
    errors,
    latency: {
      ...(mean !== undefined ? { mean } : {}),
      ...(sd !== undefined ? { stdev: sd } : {}),
      ...(totalMin !== undefined ? { min: totalMin } : {}),
      ...(total !== undefined ? { max: total } : {}),
    },
    percentiles,
    ...(transferKiB !== undefined ? { transferBytesPerSecond: transferKiB * 1024 } : {}),
    ...(concurrency !== undefined ? { connections: concurrency } : {}),
    extra,
  };
}

const CSV_HEAD_RE = /^Percentage served,Time in ms\s*$/;
const CSV_ROW_RE = /^(\d+),(\d+(?:\.\d+)?)\s*$/;

/** `ab -e FILE`'s CSV: milliseconds (to the microsecond) at every whole percentile 0-100, finer than the report's table. */
export function parseAbPercentilesCsv(raw: string, source = '<ab -e csv>'): [number, number][] {
  const lines = raw.split('\n').filter((line) => line.trim() !== '');
  if (!CSV_HEAD_RE.test(lines[0] ?? '')) throw new ParseError('not an ab -e CSV (first line is not "Percentage served,Time in ms")', source, 1);
  return lines.slice(1).map((line, i) => {
    const row = CSV_ROW_RE.exec(line);
    if (!row) throw new ParseError(`expected "percent,ms", got ${JSON.stringify(line.slice(0, 80))}`, source, i + 2);
    return [Number(row[1]), Number(row[2])];
  });
}
