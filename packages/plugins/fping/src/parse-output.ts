import { ParseError } from '@netbench/plugin-api';

/** What fping reported for one target. */
export interface FpingTarget {
  readonly target: string;
  readonly sent: number;
  /** Distinct requests answered. */
  readonly received: number;
  readonly lossPercent: number;
  /** Every reply's round trip, ms, in request order: from `-C`'s vector, else from the per-packet lines. */
  readonly rttsMs: readonly number[];
  /** fping's own min/avg/max (`-c` summary), ms. */
  readonly summary?: { readonly min: number; readonly avg: number; readonly max: number };
  readonly duplicates: number;
  /** ICMP errors (unreachable, prohibited) fping reported for requests to it. */
  readonly icmpErrors: number;
  /** ICMP packet size fping printed (payload + 8 header bytes). */
  readonly packetBytes?: number;
  /** Milliseconds since the epoch of the last per-packet line (`-D`). */
  readonly lastTimestamp?: number;
}

export interface FpingOutput {
  readonly targets: readonly FpingTarget[];
  /** Per-request round trips are known (per-packet lines or `-C`), so percentiles are. */
  readonly perPacket: boolean;
  /** fping's diagnostics (errors while sending, unknown names). */
  readonly messages: readonly string[];
}

const NUM = String.raw`\d+(?:\.\d+)?`;
const TIMESTAMP_RE = /^\[(\d+(?:\.\d+)?)\]\s+(.*)$/;
const REPLY_RE = new RegExp(String.raw`^(\S+)\s+: \[(\d+)\], (\d+) bytes, (${NUM}) ms \((?:${NUM}|NaN) avg, (\d+)% loss\)$`);
const TIMED_OUT_RE = new RegExp(String.raw`^(\S+)\s+: \[(\d+)\], timed out \((?:${NUM}|NaN) avg, (\d+)% loss\)$`);
const DUPLICATE_RE = /^(\S+)\s+: duplicate for \[(\d+)\]/;
const COUNT_SUMMARY_RE = new RegExp(String.raw`^(\S+)\s+: xmt\/rcv\/%loss = (\d+)\/(\d+)\/(\d+)%(?:, outage\(ms\) = \d+)?(?:, min\/avg\/max = (${NUM})\/(${NUM})\/(${NUM}))?$`);
const VECTOR_SUMMARY_RE = new RegExp(String.raw`^(\S+)\s+: ((?:${NUM}|-)(?: (?:${NUM}|-))*)$`);
const ICMP_RE = /^ICMP .* from \S+ for ICMP Echo sent to (\S+)/;
const ALIVE_RE = /^(\S+) is (?:alive|unreachable)\b/;
const DIAGNOSTIC_RE = /^(?:fping: .*|\S+: (?:error while sending ping|Name or service not known|Temporary failure in name resolution|.*not known).*)$/;

interface Accumulator {
  readonly target: string;
  replies: Map<number, number>;
  highestSeq: number;
  duplicates: number;
  icmpErrors: number;
  packetBytes?: number;
  lastTimestamp?: number;
  count?: { sent: number; received: number; loss: number; min?: number; avg?: number; max?: number };
  vector?: (number | undefined)[];
  vectorLine?: number;
}

/**
 * Read fping output in count mode: `-c N` or `-C N`, with or without `-q`
 * (summaries only) and `-D`, one target or many, as fping writes it (per-packet
 * lines on stdout, summaries on stderr; a file may hold either or both).
 * Pure. Throws ParseError naming source and line on anything else, including
 * fping's "is alive" mode, which measures nothing.
 */
export function parseFpingOutput(raw: string, source?: string): FpingOutput {
  const lines = raw.split(/\r?\n/);
  const fail = (message: string, index?: number): never => {
    throw new ParseError(message, source, index === undefined ? undefined : index + 1);
  };
  const targets = new Map<string, Accumulator>();
  const messages: string[] = [];
  const of = (target: string) => {
    let acc = targets.get(target);
    if (!acc) targets.set(target, (acc = { target, replies: new Map(), highestSeq: -1, duplicates: 0, icmpErrors: 0 }));
    return acc;
  };

  for (const [index, rawLine] of lines.entries()) {
    let line = rawLine.trim();
    if (line === '') continue;
    let timestamp: number | undefined;
    const stamped = TIMESTAMP_RE.exec(line);
    if (stamped) {
      timestamp = Math.round(Number(stamped[1]) * 1000);
      line = stamped[2]!;
    }
    let match: RegExpExecArray | null;
    if ((match = REPLY_RE.exec(line))) {
      const acc = of(match[1]!);
      const seq = Number(match[2]);
      if (!acc.replies.has(seq)) acc.replies.set(seq, Number(match[4]));
      acc.highestSeq = Math.max(acc.highestSeq, seq);
      acc.packetBytes = Number(match[3]);
      if (timestamp !== undefined) acc.lastTimestamp = timestamp;
    } else if ((match = TIMED_OUT_RE.exec(line))) {
      const acc = of(match[1]!);
      acc.highestSeq = Math.max(acc.highestSeq, Number(match[2]));
      if (timestamp !== undefined) acc.lastTimestamp = timestamp;
    } else if ((match = DUPLICATE_RE.exec(line))) {
      of(match[1]!).duplicates += 1;
    } else if ((match = COUNT_SUMMARY_RE.exec(line))) {
      const summary = match;
      of(summary[1]!).count = {
        sent: Number(summary[2]),
        received: Number(summary[3]),
        loss: Number(summary[4]),
        ...(summary[5] !== undefined ? { min: Number(summary[5]), avg: Number(summary[6]), max: Number(summary[7]) } : {}),
      };
    } else if ((match = VECTOR_SUMMARY_RE.exec(line))) {
      const acc = of(match[1]!);
      acc.vector = match[2]!.split(' ').map((v) => (v === '-' ? undefined : Number(v)));
      acc.vectorLine = index;
    } else if ((match = ICMP_RE.exec(line))) {
      of(match[1]!).icmpErrors += 1;
    } else if (ALIVE_RE.test(line)) {
      fail('fping ran without -c or -C (only "is alive"/"is unreachable"): no round trips to import; run fping -C N or -c N', index);
    } else if (DIAGNOSTIC_RE.test(line)) {
      messages.push(line);
    } else {
      fail(`unrecognised line ${JSON.stringify(line.length > 120 ? `${line.slice(0, 117)}...` : line)}`, index);
    }
  }

  if (targets.size === 0) {
    if (messages.length > 0)
      fail(
        `fping failed: ${messages.join(' | ')}`,
        lines.findIndex((l) => DIAGNOSTIC_RE.test(l.trim())),
      );
    fail(raw.trim() === '' ? 'empty output' : 'no fping results');
  }
  checkComplete([...targets.values()], fail, lastLine(lines));
  const list = [...targets.values()].map(finish);
  return { targets: list, perPacket: list.some((t) => t.rttsMs.length > 0), messages };
}

/**
 * fping prints one summary per target, and with -C each holds every request
 * of the count: a summary missing beside the others', or a vector shorter than
 * another's or than the requests its per-packet lines show, is output cut off,
 * whose counts would pass for the test's.
 */
function checkComplete(accs: readonly Accumulator[], fail: (message: string, index?: number) => never, last: number): void {
  const bare = accs.filter((acc) => !acc.count && !acc.vector);
  if (bare.length > 0 && bare.length < accs.length) {
    fail(`no summary line for ${bare.map((acc) => acc.target).join(', ')} while the other targets have one: the output stops early (truncated?)`, last);
  }
  const longest = Math.max(0, ...accs.map((acc) => acc.vector?.length ?? 0));
  for (const acc of accs) {
    if (!acc.vector) continue;
    const expected = Math.max(longest, acc.highestSeq + 1);
    if (acc.vector.length < expected) {
      fail(`the -C round trips of ${acc.target} stop after ${acc.vector.length} of ${expected} requests: the output is cut off (truncated?)`, acc.vectorLine);
    }
  }
}

function lastLine(lines: readonly string[]): number {
  for (let index = lines.length - 1; index >= 0; index -= 1) if (lines[index]!.trim() !== '') return index;
  return 0;
}

function finish(acc: Accumulator): FpingTarget {
  const replies = [...acc.replies.entries()].sort((a, b) => a[0] - b[0]).map(([, rtt]) => rtt);
  const rttsMs = acc.vector ? acc.vector.filter((v): v is number => v !== undefined) : replies;
  // The summary is fping's own count; without it (stdout only) the per-packet lines are all there is.
  const sent = acc.count?.sent ?? acc.vector?.length ?? acc.highestSeq + 1;
  const received = acc.count?.received ?? (acc.vector ? rttsMs.length : acc.replies.size);
  const lossPercent = acc.count?.loss ?? (sent > 0 ? ((sent - received) / sent) * 100 : 0);
  const { count } = acc;
  return {
    target: acc.target,
    sent,
    received,
    lossPercent,
    rttsMs,
    ...(count?.min !== undefined ? { summary: { min: count.min, avg: count.avg!, max: count.max! } } : {}),
    duplicates: acc.duplicates,
    icmpErrors: acc.icmpErrors,
    ...(acc.packetBytes !== undefined ? { packetBytes: acc.packetBytes } : {}),
    ...(acc.lastTimestamp !== undefined ? { lastTimestamp: acc.lastTimestamp } : {}),
  };
}
