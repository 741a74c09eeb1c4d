import { ParseError } from '@netbench/plugin-api';
import { type Header, readHeader } from './header.js';
import type { IperfDirection, IperfFlow, IperfInterval, IperfResult, IperfTotals } from './iperf-result.js';
import { type ReportLine, readReportLine } from './report-line.js';

// Failures iperf 2 prints instead of reports: no server, bad address, refused bind.
const FAILURE_RE = /^(?:(?:tcp )?connect failed: .*|write failed: .*|listener bind failed: .*|ERROR: .*|iperf: ignoring extra argument.*|.*: Name or service not known.*)$/i;
const WARNING_RE = /^(?:\[\s*\S+\]\s+)?(?:WARNING: .*|iperf: unrecognized option .*|read failed: .*)$/;
const SERVER_REPORT_RE = /^\[\s*(\*?\d+)\] Server Report:/;
const OUT_OF_ORDER_RE = /^\[\s*(\*?\d+)\]\s+[\d.]+\s*-\s*[\d.]+ sec\s+(\d+) datagrams received out-of-order/;
// "[  1] local 10.0.0.1%eth0 port 39908 connected with 10.0.0.2 port 5501 ... on 2026-11-22 11:45:32 (UTC)"
const CONNECTED_RE = /^\[\s*(\*?\d+)\] local \S+ port (\d+) connected with \S+ port \d+.*?(?: on (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?: \((\w+)\))?)?$/;

interface Placed extends ReportLine {
  /** The view of the data: its sender's or its receiver's. */
  readonly view: 'sender' | 'receiver';
  readonly direction: IperfDirection;
  readonly line: number;
}

/**
 * Read one output of iperf 2 (2.0.x and 2.1.x): the client's or the server's,
 * TCP or UDP, plain or enhanced (`-e`) reports, `-P` with `[SUM]` lines,
 * `-i` intervals, a UDP client's "Server Report", `-R`, and the extra
 * streams of `-r`/`-d`. Pure. Throws ParseError naming source and line on a
 * failure iperf printed, output that is not iperf 2's, or output that stops
 * before the final reports.
 */
export function parseIperfOutput(raw: string, source?: string): IperfResult {
  const lines = raw.split(/\r?\n/);
  const fail = (message: string, index?: number): never => {
    throw new ParseError(message, source, index === undefined ? undefined : index + 1);
  };
  let first: Header | undefined;
  let side: 'client' | 'server' | undefined;
  let startedAt: number | undefined;
  const failures: { text: string; index: number }[] = [];
  const warnings: string[] = [];
  const pendingServerReports = new Set<string>();
  const connectedIds = new Set<string>();
  const reports: Placed[] = [];
  const outOfOrder = new Map<IperfDirection, number>();
  const settings: { bufferBytes?: number; windowBytes?: number; datagramBytes?: number } = {};
  // Until a stream connects, the output's first header says whose it is.
  const currentSide = () => side ?? first?.role ?? 'client';

  for (const [index, rawLine] of lines.entries()) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('---')) continue;
    const header = readHeader(line);
    if (header) {
      if (header.role) first ??= header;
      // The first of each setting: the -r/-d client's second header describes its reverse test.
      for (const key of ['bufferBytes', 'windowBytes', 'datagramBytes'] as const) if (header[key] !== undefined) settings[key] ??= header[key];
      continue;
    }
    const connected = CONNECTED_RE.exec(line);
    if (connected) {
      // The first stream's local port is the listening port on a server, an ephemeral one on a client (even with -r/-d, whose client also listens).
      side ??= first?.role === 'server' && Number(connected[2]) === first.port ? 'server' : 'client';
      connectedIds.add(connected[1]!);
      if (connected[3] && startedAt === undefined) startedAt = Date.parse(`${connected[3].replace(' ', 'T')}${connected[4] === 'UTC' ? 'Z' : ''}`);
      continue;
    }
    if (FAILURE_RE.test(line)) {
      failures.push({ text: line, index });
      continue;
    }
    if (WARNING_RE.test(line)) {
      warnings.push(line.replace(/^\[\s*\S+\]\s+/, ''));
      continue;
    }
    const serverReport = SERVER_REPORT_RE.exec(line);
    if (serverReport) {
      pendingServerReports.add(serverReport[1]!);
      continue;
    }
    const disorder = OUT_OF_ORDER_RE.exec(line);
    if (disorder) {
      const direction = directionOf(currentSide(), 'receiver', currentSide() === 'client');
      outOfOrder.set(direction, (outOfOrder.get(direction) ?? 0) + Number(disorder[2]));
      continue;
    }
    const report = readReportLine(line);
    if (!report) continue;
    const mine = currentSide();
    const fromServer = pendingServerReports.delete(report.id);
    const view = viewOf(report, mine, fromServer);
    reports.push({ ...report, view, direction: directionOf(mine, view, fromServer), line: index });
  }

  const finals = finalReports(reports);
  if (finals.length === 0) {
    if (failures.length > 0) fail(`iperf failed: ${failures.map((f) => f.text).join(' | ')}`, failures[0]!.index);
    if (first === undefined) fail('not iperf 2 output: no "Client connecting to" or "Server listening on" header and no report');
    const why = warnings.length > 0 ? ` (iperf said: ${warnings.join(' | ')})` : '';
    fail(`no final report: iperf did not finish (killed, interrupted or truncated?)${why}`, lastLine(lines));
  }
  // A stream that connected but has no total means the output stops early: the others' sum would pass for the test's.
  // A reversed stream's reports carry its id with a star ("[ *1]"), its "connected" line without.
  const missing = [...connectedIds].filter((id) => !finals.some((f) => f.id.replace('*', '') === id.replace('*', '')));
  if (missing.length > 0) {
    fail(
      `no final report for stream${missing.length > 1 ? 's' : ''} ${missing.map((id) => `[${id}]`).join(', ')}, which connected: the output stops before the last totals (truncated?)`,
      lastLine(lines),
    );
  }
  const resolvedSide = currentSide();
  const protocol = first?.protocol ?? (finals.some((f) => f.kind.startsWith('udp')) ? 'udp' : 'tcp');
  const flows = (['forward', 'reverse'] as const).flatMap((direction) => {
    const flow = flowOf(direction, finals, outOfOrder.get(direction));
    return flow ? [flow] : [];
  });
  return {
    side: resolvedSide,
    protocol,
    // Plain UDP server reports have jitter columns too; only -e adds the sender's and the TCP receiver's.
    enhanced: finals.some((f) => f.kind === 'tcp-sender' || f.kind === 'udp-sender' || f.kind === 'tcp-receiver' || f.latencyMs !== undefined),
    ...(startedAt !== undefined && Number.isFinite(startedAt) ? { startedAt } : {}),
    ...(settings.bufferBytes !== undefined ? { bufferBytes: settings.bufferBytes } : {}),
    ...(settings.windowBytes !== undefined ? { windowBytes: settings.windowBytes } : {}),
    ...(settings.datagramBytes !== undefined ? { datagramBytes: settings.datagramBytes } : {}),
    flows,
    intervals: intervalsOf(reports, finals, resolvedSide),
    warnings,
  };
}

/**
 * Whose view a line gives. The columns say it for enhanced reports; plain
 * ones are the sender's on a client and the receiver's on a server, except a
 * UDP client's "Server Report". iperf 2.1.8 prints a UDP server's [SUM] with
 * the sender's columns (lost/total as writes/errors): on a server it is the receiver's.
 */
function viewOf(report: ReportLine, side: 'client' | 'server', fromServer: boolean): 'sender' | 'receiver' {
  if (fromServer) return 'receiver';
  if (report.kind === 'tcp-sender' || report.kind === 'udp-sender') return report.kind === 'udp-sender' && report.id === 'SUM' && side === 'server' ? 'receiver' : 'sender';
  if (report.kind === 'tcp-receiver' || report.kind === 'udp-receiver') return 'receiver';
  return side === 'client' ? 'sender' : 'receiver';
}

/** A client sends forward and receives the reverse; a server the opposite. A server's report relayed to the client is forward. */
function directionOf(side: 'client' | 'server', view: 'sender' | 'receiver', fromServer: boolean): IperfDirection {
  if (fromServer) return 'forward';
  return (side === 'client') === (view === 'sender') ? 'forward' : 'reverse';
}

/**
 * Per stream (and [SUM]) and view, the total over the test: the last report
 * that starts at 0, unless a later interval ends after it (then the output
 * stopped before the total: the 0-start line was the first `-i` interval).
 */
function finalReports(reports: readonly Placed[]): Placed[] {
  const last = new Map<string, Placed>();
  const latestEnd = new Map<string, number>();
  for (const report of reports) {
    const key = `${report.direction}|${report.view}|${report.id}`;
    if (report.start === 0) last.set(key, report);
    latestEnd.set(key, Math.max(latestEnd.get(key) ?? 0, report.end));
  }
  return [...last.entries()].filter(([key, report]) => report.end >= latestEnd.get(key)!).map(([, report]) => report);
}

function flowOf(direction: IperfDirection, finals: readonly Placed[], outOfOrder: number | undefined): IperfFlow | undefined {
  const mine = finals.filter((f) => f.direction === direction);
  if (mine.length === 0) return undefined;
  const streams = new Set(mine.filter((f) => f.id !== 'SUM').map((f) => f.id)).size;
  const totals = (view: 'sender' | 'receiver') => {
    const lines = mine.filter((f) => f.view === view);
    return lines.length === 0 ? undefined : totalsOf(lines);
  };
  const sent = totals('sender');
  const received = totals('receiver');
  return { direction, streams: Math.max(1, streams), ...(sent ? { sent } : {}), ...(received ? { received } : {}), ...(outOfOrder !== undefined ? { outOfOrder } : {}) };
}

/** The [SUM] line where iperf printed one, else the streams added up; jitter and RTT are averaged over streams. */
function totalsOf(lines: readonly Placed[]): IperfTotals {
  const streams = lines.filter((l) => l.id !== 'SUM');
  const sum = lines.find((l) => l.id === 'SUM');
  const add = (key: 'writes' | 'writeErrors' | 'retries' | 'pps' | 'lost' | 'total') =>
    streams.some((s) => s[key] !== undefined) ? streams.reduce((total, s) => total + (s[key] ?? 0), 0) : undefined;
  const mean = (key: 'rttUs' | 'jitterMs') => {
    const values = streams.flatMap((s) => (s[key] === undefined ? [] : [s[key]!]));
    return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
  };
  const base = sum ?? {
    start: 0,
    end: Math.max(...streams.map((s) => s.end)),
    bytes: streams.reduce((total, s) => total + s.bytes, 0),
    bitsPerSecond: streams.reduce((total, s) => total + s.bitsPerSecond, 0),
  };
  // A UDP server's [SUM] carries lost/total where a sender's carries writes/errors.
  const sumIsReceiverUdp = sum?.kind === 'udp-sender' && sum.view === 'receiver';
  const totals: Record<string, number | undefined> = {
    seconds: base.end - base.start,
    bytes: base.bytes,
    bitsPerSecond: base.bitsPerSecond,
    writes: sumIsReceiverUdp ? undefined : (sum?.writes ?? add('writes')),
    writeErrors: sumIsReceiverUdp ? undefined : (sum?.writeErrors ?? add('writeErrors')),
    retries: sum?.retries ?? add('retries'),
    rttUs: mean('rttUs'),
    pps: sum?.pps ?? add('pps'),
    jitterMs: mean('jitterMs'),
    // The streams' own counts first: iperf 2.1.8's receiver [SUM] has been seen to drop a stream's loss.
    lost: add('lost') ?? (sumIsReceiverUdp ? sum.writes : sum?.lost),
    total: add('total') ?? (sumIsReceiverUdp ? sum.writeErrors : sum?.total),
  };
  return Object.fromEntries(Object.entries(totals).filter(([, v]) => v !== undefined)) as unknown as IperfTotals;
}

/** The time series: interval reports of the side's own view, [SUM] ones when there are several streams. */
function intervalsOf(reports: readonly Placed[], finals: readonly Placed[], side: 'client' | 'server'): IperfInterval[] {
  const isFinal = new Set(finals);
  const view = side === 'client' ? 'sender' : 'receiver';
  const own = reports.filter((r) => !isFinal.has(r) && r.view === view);
  const series: IperfInterval[] = [];
  for (const direction of ['forward', 'reverse'] as const) {
    const mine = own.filter((r) => r.direction === direction);
    const hasSum = mine.some((r) => r.id === 'SUM');
    for (const r of mine) if (!hasSum || r.id === 'SUM') series.push({ direction, start: r.start, end: r.end, bitsPerSecond: r.bitsPerSecond });
  }
  return series;
}

function lastLine(lines: readonly string[]): number {
  for (let index = lines.length - 1; index >= 0; index -= 1) if (lines[index]!.trim() !== '') return index;
  return 0;
}
