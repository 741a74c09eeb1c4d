import { ParseError } from '@netbench/plugin-api';
import type { ErrorKind, ExtraFigure, HttpResult } from './http-result.js';

const RUNNING_RE = /^Running (\S+) test @ (\S+)/m;
const SETUP_RE = /^\s*(\d+) threads and (\d+) connections/m;
const LATENCY_RE = /^\s*Latency\s+([\d.]+\w+)\s+([\d.]+\w+)\s+([\d.]+\w+)\s+([\d.]+)%/m;
const REQ_SEC_RE = /^\s*Req\/Sec\s+([\d.]+\w?)\s+([\d.]+\w?)\s+([\d.]+\w?)\s+([\d.]+)%/m;
const DISTRIBUTION_RE = /^\s*(\d+(?:\.\d+)?)%\s+([\d.]+\w+)\s*$/;
const TOTAL_RE = /^\s*(\d+) requests in ([\d.]+\w+), ([\d.]+\w+) read/m;
const SOCKET_ERRORS_RE = /^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/m;
const STATUS_ERRORS_RE = /^\s*Non-2xx or 3xx responses: (\d+)/m;
const RPS_RE = /^Requests\/sec:\s+([\d.]+)/m;
const TRANSFER_RE = /^Transfer\/sec:\s+([\d.]+\w+)/m;
const UNABLE_RE = /^unable to connect to (.*)$/m;

const TIME_UNITS: Readonly<Record<string, number>> = { us: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };
// wrk prints sizes in binary units and counts in decimal ones.
const BYTE_UNITS: Readonly<Record<string, number>> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };
const COUNT_UNITS: Readonly<Record<string, number>> = { '': 1, k: 1e3, M: 1e6, G: 1e9 };

/** Reads wrk's report (with or without `--latency`). Throws ParseError naming `source` when there is none. */
export function parseWrk(raw: string, source = '<wrk output>'): HttpResult {
  const unable = UNABLE_RE.exec(raw)?.[1];
  if (unable !== undefined) throw new ParseError(`wrk could not connect: ${unable.trim()}`, source);
  const total = TOTAL_RE.exec(raw);
  const running = RUNNING_RE.exec(raw);
  if (!total || !running) throw new ParseError('no "N requests in T, B read" line: not a finished wrk report', source);
  const at = (text: string, units: Readonly<Record<string, number>>, what: string) => {
    const match = /^([\d.]+)([A-Za-z]*)$/.exec(text);
    const factor = match ? units[match[2]!] : undefined;
    if (!match || factor === undefined) throw new ParseError(`cannot read ${what} ${JSON.stringify(text)}`, source);
    return Number(match[1]) * factor;
  };
  const ms = (text: string) => at(text, TIME_UNITS, 'time');
  const requests = Number(total[1]);
  const seconds = ms(total[2]!) / 1000;
  const socket = SOCKET_ERRORS_RE.exec(raw);
  const status = Number(STATUS_ERRORS_RE.exec(raw)?.[1] ?? 0);
  const errors: Partial<Record<ErrorKind, number>> = {
    connect: Number(socket?.[1] ?? 0),
    read: Number(socket?.[2] ?? 0),
    write: Number(socket?.[3] ?? 0),
    timeout: Number(socket?.[4] ?? 0),
    status,
  };
  const latency = LATENCY_RE.exec(raw);
  const percentiles: [number, number][] = [];
  let inDistribution = false;
  for (const line of raw.split('\n')) {
    if (/^\s*Latency Distribution/.test(line)) {
      inDistribution = true;
      continue;
    }
    if (!inDistribution) continue;
    const row = DISTRIBUTION_RE.exec(line);
    if (!row) {
      if (percentiles.length > 0) inDistribution = false;
      continue;
    }
    percentiles.push([Number(row[1]), ms(row[2]!)]);
  }
  const extra: ExtraFigure[] = [];
  const perThread = REQ_SEC_RE.exec(raw);
  if (perThread) {
    extra.push(['wrk_Thread_Request_Rate', at(perThread[1]!, COUNT_UNITS, 'rate'), 'requests/s', { stat: 'mean' }]);
    extra.push(['wrk_Thread_Request_Rate', at(perThread[2]!, COUNT_UNITS, 'rate'), 'requests/s', { stat: 'stdev' }]);
    extra.push(['wrk_Thread_Request_Rate', at(perThread[3]!, COUNT_UNITS, 'rate'), 'requests/s', { stat: 'max' }]);
  }
  const reported = RPS_RE.exec(raw)?.[1];
  if (reported !== undefined) extra.push(['wrk_Requests_Per_Second_All_Statuses', Number(reported), 'requests/s']);
  const transfer = TRANSFER_RE.exec(raw)?.[1];
  const setup = SETUP_RE.exec(raw);
  return {
    generator: 'wrk',
    requests,
    // A status error is in `requests` and was not served. wrk's timeout count mixes answers later than
    // --timeout (in `requests`) with requests still waiting at its 2-s checks (not in it, maybe counted
    // twice): subtracting them all never counts a late answer as served, and may undercount successes.
    successes: Math.max(0, requests - status - errors.timeout!),
    seconds,
    errors,
    latency: latency ? { mean: ms(latency[1]!), stdev: ms(latency[2]!), max: ms(latency[3]!) } : {},
    percentiles,
    ...(transfer !== undefined ? { transferBytesPerSecond: at(transfer, BYTE_UNITS, 'size') } : {}),
    ...(setup ? { connections: Number(setup[2]) } : {}),
    extra,
  };
}
