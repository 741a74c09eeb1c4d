import { ParseError } from '@netbench/plugin-api';
import type { Iperf3Summary } from './iperf3-json.js';
import type { Iperf3Direction, Iperf3Flow, Iperf3Interval, Iperf3Result } from './parse-result.js';

// `--timestamps` prefixes every line with ctime(3) time: "Sun Nov 22 11:46:53 2026 ".
const TIMESTAMP_RE = /^([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}) (.*)$/;
// "[  5]   0.00-1.00   sec   983 MBytes  8.24 Gbits/sec  136    489 KBytes", "[SUM][TX-C] ...".
const DATA_RE = /^\[\s*(\d+|SUM)\](?:\[([TR]X-[CS])\])?\s+(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)\s+sec\s+(\d+(?:\.\d+)?) ([KMGT]?)Bytes\s+(\d+(?:\.\d+)?) ([KMGT]?)bits\/sec\s*(.*)$/;
const UDP_FINAL_RE = /^(\d+(?:\.\d+)?) ms\s+(\d+)\/(\d+) \(([\d.e+-]+|nan)%\)\s+(sender|receiver)$/;
const TCP_FINAL_RE = /^(?:(\d+)\s+)?(sender|receiver)$/;
const UDP_INTERVAL_RE = /^(?:(\d+(?:\.\d+)?) ms\s+(\d+)\/(\d+) \([^)]*\)|(\d+))/;
const START_RE = /^Starting Test: protocol: (\w+), (\d+) streams, (\d+) byte blocks, omitting (\d+) seconds, (\d+) second test/;
const CPU_RE = /^CPU Utilization: local\/\w+ ([\d.]+)% \(([\d.]+)%u\/([\d.]+)%s\), remote\/\w+ ([\d.]+)% \(([\d.]+)%u\/([\d.]+)%s\)/;
const ERROR_RE = /^iperf3: error - (.*)$/;
const BYTES: Readonly<Record<string, number>> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };
const BITS: Readonly<Record<string, number>> = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };

interface DataLine {
  readonly id: string;
  readonly direction: Iperf3Direction;
  readonly role: 'sender' | 'receiver' | undefined;
  readonly summary: Iperf3Summary;
  readonly line: number;
}

/**
 * Read the client's human-readable iperf3 report (no `-J`): TCP and UDP,
 * `-P` with `[SUM]` lines, `-R`, `--bidir` (`[TX-C]`/`[RX-C]`), `-O`
 * warm-up intervals, `-V` and `--timestamps` extras. What the text does not
 * say (block size, target bitrate without `-V`) is left out. Pure. Throws
 * ParseError naming source and line on iperf3's own errors, a server's
 * report, or output that stops before the sender/receiver summary.
 */
export function parseIperf3Text(raw: string, source?: string): Iperf3Result {
  const lines = raw.split(/\r?\n/);
  const fail = (message: string, index?: number): never => {
    throw new ParseError(message, source, index === undefined ? undefined : index + 1);
  };
  let client = false;
  let reverse = false;
  let startedAt: number | undefined;
  let version: string | undefined;
  let start: RegExpExecArray | undefined;
  let cpu: Iperf3Result['cpu'];
  let congestion: string | undefined;
  let tcpMssDefault: number | undefined;
  let targetBitrate: number | undefined;
  let udpHint = false;
  const finals: DataLine[] = [];
  const intervals: (DataLine & { omitted: boolean })[] = [];

  for (const [index, rawLine] of lines.entries()) {
    let line = rawLine.trim();
    const stamped = TIMESTAMP_RE.exec(line);
    if (stamped) {
      startedAt ??= new Date(stamped[1]!).getTime();
      line = stamped[2]!.trim();
    }
    if (line === '') continue;
    const error = ERROR_RE.exec(line);
    if (error) fail(`iperf3 failed: ${error[1]}`, index);
    if (/^Server listening on /.test(line) && !client) {
      fail("this is an iperf3 server's report, which lacks the sender's totals; import the client's output", index);
    }
    if (line.startsWith('Connecting to host ')) client = true;
    else if (line.startsWith('Reverse mode,')) reverse = true;
    else if (/^iperf 3\.\d/.test(line)) version = line.split(' ')[1];
    else if (line.startsWith('Time: ')) startedAt ??= Date.parse(line.slice(6)) || undefined;
    else if (line.startsWith('TCP MSS: ')) tcpMssDefault = Number.parseInt(line.slice(9), 10) || undefined;
    else if (line.startsWith('Target Bitrate: ')) targetBitrate = Number(line.slice(16)) || undefined;
    else if (/^snd_tcp_congestion /.test(line)) congestion = line.split(' ')[1];
    else if (line.includes('Lost/Total Datagrams') || line.includes('Total Datagrams')) udpHint = true;
    start ??= START_RE.exec(line) ?? undefined;
    const cpuMatch = CPU_RE.exec(line);
    if (cpuMatch) {
      const n = cpuMatch.slice(1).map(Number) as [number, number, number, number, number, number];
      cpu = { client: { total: n[0], user: n[1], system: n[2] }, server: { total: n[3], user: n[4], system: n[5] } };
    }
    const data = DATA_RE.exec(line);
    if (!data) continue;
    const [, id, role, from, to, transfer, byteUnit, rate, bitUnit, rest] = data as unknown as string[];
    const direction: Iperf3Direction = role ? (role === 'TX-C' || role === 'RX-S' ? 'forward' : 'reverse') : reverse ? 'reverse' : 'forward';
    const base = {
      start: Number(from),
      end: Number(to),
      seconds: Number(to) - Number(from),
      bytes: Math.round(Number(transfer) * BYTES[byteUnit!]!),
      bits_per_second: Number(rate) * BITS[bitUnit!]!,
    };
    const udpFinal = UDP_FINAL_RE.exec(rest!);
    const tcpFinal = udpFinal ? null : TCP_FINAL_RE.exec(rest!);
    if (udpFinal) {
      const [, jitter, lost, total, percent, side] = udpFinal as unknown as string[];
      finals.push({
        id: id!,
        direction,
        role: side as 'sender' | 'receiver',
        line: index,
        summary: {
          ...base,
          jitter_ms: Number(jitter),
          lost_packets: Number(lost),
          packets: Number(total),
          lost_percent: percent === 'nan' ? 0 : Number(percent),
          sender: side === 'sender',
        },
      });
    } else if (tcpFinal) {
      finals.push({
        id: id!,
        direction,
        role: tcpFinal[2] as 'sender' | 'receiver',
        line: index,
        summary: { ...base, ...(tcpFinal[1] !== undefined ? { retransmits: Number(tcpFinal[1]) } : {}), sender: tcpFinal[2] === 'sender' },
      });
    } else {
      const udp = UDP_INTERVAL_RE.exec(rest!);
      const summary: Iperf3Summary = udp?.[1] !== undefined ? { ...base, jitter_ms: Number(udp[1]), lost_packets: Number(udp[2]), packets: Number(udp[3]) } : base;
      intervals.push({ id: id!, direction, role: undefined, line: index, omitted: rest!.includes('(omitted)'), summary: { ...summary, omitted: rest!.includes('(omitted)') } });
    }
  }

  if (!client && finals.length === 0) fail('not an iperf3 report: no "Connecting to host" line and no sender/receiver summary');
  if (finals.length === 0) fail('no sender/receiver summary: iperf3 did not finish (killed, interrupted or truncated?)', lastLine(lines));
  const bidir = finals.some((f) => f.direction !== finals[0]!.direction);
  const main: Iperf3Direction = reverse ? 'reverse' : 'forward';
  const directions: Iperf3Direction[] = bidir ? [main, main === 'forward' ? 'reverse' : 'forward'] : [main];
  const flows: Iperf3Flow[] = directions.map((direction) => {
    const mine = finals.filter((f) => f.direction === direction);
    // With -P, one stream's line is not the total: a cut before the [SUM] lines must not pass for a result.
    const parallel = Math.max(start ? Number(start[2]) : 1, streamsOf(direction, finals, intervals)) > 1;
    const pick = (role: 'sender' | 'receiver') => mine.find((f) => f.id === 'SUM' && f.role === role) ?? (parallel ? undefined : mine.find((f) => f.role === role));
    const sent = pick('sender');
    const received = pick('receiver');
    if (!sent || !received) {
      const what = `${parallel ? '[SUM] ' : ''}${sent ? 'receiver' : 'sender'}`;
      fail(`the ${direction} summary lacks its ${what} line (truncated output?)${parallel ? "; one stream's line is not the total of parallel streams" : ''}`, lastLine(lines));
    }
    return { direction, sent: sent!.summary, received: received!.summary };
  });
  const streamIds = new Set(finals.filter((f) => f.direction === main && f.id !== 'SUM').map((f) => f.id));
  const series: Iperf3Interval[] = intervals
    .filter((i) => (streamIds.size > 1 ? i.id === 'SUM' : true))
    .map((i) => ({ direction: i.direction, start: i.summary.start, end: i.summary.end, bitsPerSecond: i.summary.bits_per_second, omitted: i.omitted }));
  const protocol = start ? (start[1]!.toLowerCase() === 'udp' ? 'udp' : 'tcp') : udpHint || finals.some((f) => f.summary.jitter_ms !== undefined) ? 'udp' : 'tcp';
  const omittedEnds = intervals.filter((i) => i.omitted).map((i) => i.summary.end);
  return {
    ...(version !== undefined ? { version } : {}),
    protocol,
    streams: start ? Number(start[2]) : Math.max(1, streamIds.size),
    duration: start ? Number(start[5]) : Math.round(flows[0]!.sent.end),
    omit: start ? Number(start[4]) : omittedEnds.length > 0 ? Math.round(Math.max(...omittedEnds)) : 0,
    ...(start ? { blockSize: Number(start[3]) } : {}),
    ...(targetBitrate !== undefined ? { targetBitrate } : {}),
    reverse,
    bidir,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(tcpMssDefault !== undefined ? { tcpMssDefault } : {}),
    ...(congestion !== undefined ? { congestion } : {}),
    flows,
    intervals: series,
    ...(cpu ? { cpu } : {}),
  };
}

/** Distinct streams seen in one direction, by their id in interval or final lines. */
function streamsOf(direction: Iperf3Direction, ...groups: readonly (readonly DataLine[])[]): number {
  return new Set(groups.flatMap((group) => group.filter((l) => l.direction === direction && l.id !== 'SUM').map((l) => l.id))).size;
}

function lastLine(lines: readonly string[]): number {
  for (let index = lines.length - 1; index >= 0; index -= 1) if (lines[index]!.trim() !== '') return index;
  return 0;
}
