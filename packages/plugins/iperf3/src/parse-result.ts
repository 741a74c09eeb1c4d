import { ParseError } from '@netbench/plugin-api';
import { iperf3Failure } from './iperf3-error.js';
import { type Iperf3Json, type Iperf3Summary, iperf3JsonSchema } from './iperf3-json.js';

export type Iperf3Direction = 'forward' | 'reverse';

/** One direction of data: forward is client → server, reverse is server → client. */
export interface Iperf3Flow {
  readonly direction: Iperf3Direction;
  /** The sender's totals (bytes written, TCP retransmits, UDP packets sent). */
  readonly sent: Iperf3Summary;
  /** The receiver's totals (bytes read, UDP jitter and loss). */
  readonly received: Iperf3Summary;
  /** UDP datagrams that arrived out of order, summed over streams. */
  readonly outOfOrder?: number;
}

export interface Iperf3Interval {
  readonly direction: Iperf3Direction;
  readonly start: number;
  readonly end: number;
  readonly bitsPerSecond: number;
  /** In the `-O` warm-up, left out of the totals. */
  readonly omitted: boolean;
}

export interface Iperf3Result {
  readonly version?: string;
  readonly protocol: 'tcp' | 'udp';
  readonly streams: number;
  readonly duration: number;
  readonly omit: number;
  /** Buffer / datagram length in bytes (`-l`); absent when a text report does not say (no `-V`). */
  readonly blockSize?: number;
  /** Bits/s per stream; 0 means unlimited; absent when a text report does not say. */
  readonly targetBitrate?: number;
  readonly reverse: boolean;
  readonly bidir: boolean;
  /** Milliseconds since the epoch when the test started. */
  readonly startedAt?: number;
  readonly tcpMssDefault?: number;
  /** Congestion control of the sending end (`congestion`) and the receiving end, as iperf3 reports them. */
  readonly congestion?: string;
  readonly receiverCongestion?: string;
  readonly flows: readonly Iperf3Flow[];
  readonly intervals: readonly Iperf3Interval[];
  /** CPU use in percent; `client` is the host that ran `iperf3 -c`. */
  readonly cpu?: {
    readonly client: { readonly total: number; readonly user: number; readonly system: number };
    readonly server: { readonly total: number; readonly user: number; readonly system: number };
  };
}

/**
 * Read the client's `iperf3 -J` output (TCP, UDP, `-R`, `--bidir`, any
 * streams). Pure. Throws `ParseError` on text that is not such JSON, and the
 * error iperf3 itself reported when its JSON has an `error` field.
 */
export function parseIperf3Json(raw: string, source?: string): Iperf3Result {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ParseError(`not iperf3 JSON (${raw.trim() === '' ? 'empty output' : message})`, source, jsonErrorLine(message, raw));
  }
  if (typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string') {
    throw iperf3Failure((value as { error: string }).error, source);
  }
  const parsed = iperf3JsonSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ParseError(`unexpected iperf3 JSON at ${issue.path.join('.') || '<root>'}: ${issue.message}`, source);
  }
  const json = parsed.data;
  if (json.start.accepted_connection && !json.start.connecting_to) {
    throw new ParseError("this is an iperf3 server's -J output, which lacks the sender's totals; import the client's output", source);
  }
  return toResult(json);
}

function toResult(json: Iperf3Json): Iperf3Result {
  const test = json.start.test_start;
  const reverse = test.reverse === 1;
  // --bidir is not in test_start; its reverse-direction totals are.
  const bidir = json.end.sum_sent_bidir_reverse !== undefined;
  const main: Iperf3Direction = reverse ? 'reverse' : 'forward';
  const protocol = test.protocol.toLowerCase() === 'udp' ? 'udp' : 'tcp';
  // A stream's `sender` flag says whether the client sent on it, i.e. its direction.
  const outOfOrder = (direction: Iperf3Direction) => {
    if (protocol !== 'udp') return undefined;
    return json.end.streams.reduce((sum, stream) => {
      const udp = stream.udp;
      const streamDirection = udp?.sender === false ? 'reverse' : 'forward';
      return streamDirection === direction ? sum + (udp?.out_of_order ?? 0) : sum;
    }, 0);
  };
  const flows: Iperf3Flow[] = [{ direction: main, sent: json.end.sum_sent, received: json.end.sum_received, outOfOrder: outOfOrder(main) }];
  if (bidir && json.end.sum_received_bidir_reverse) {
    flows.push({ direction: 'reverse', sent: json.end.sum_sent_bidir_reverse!, received: json.end.sum_received_bidir_reverse, outOfOrder: outOfOrder('reverse') });
  }
  const intervals: Iperf3Interval[] = json.intervals.flatMap((interval) => {
    const sums: [Iperf3Direction, Iperf3Summary | undefined][] = [
      [main, interval.sum],
      ['reverse', interval.sum_bidir_reverse],
    ];
    return sums.flatMap(([direction, sum]) => (sum ? [{ direction, start: sum.start, end: sum.end, bitsPerSecond: sum.bits_per_second, omitted: sum.omitted ?? false }] : []));
  });
  const cpu = json.end.cpu_utilization_percent;
  return {
    version: json.start.version,
    protocol,
    streams: test.num_streams,
    duration: test.duration,
    omit: test.omit,
    blockSize: test.blksize,
    targetBitrate: test.target_bitrate ?? 0,
    reverse,
    bidir,
    startedAt: json.start.timestamp ? json.start.timestamp.timesecs * 1000 : undefined,
    tcpMssDefault: json.start.tcp_mss_default,
    congestion: json.end.sender_tcp_congestion,
    receiverCongestion: json.end.receiver_tcp_congestion,
    flows,
    intervals,
    cpu: cpu && {
      client: { total: cpu.host_total, user: cpu.host_user, system: cpu.host_system },
      server: { total: cpu.remote_total, user: cpu.remote_user, system: cpu.remote_system },
    },
  };
}

/** V8 names the position of a JSON syntax error; turn it into a line number. */
function jsonErrorLine(message: string, raw: string): number | undefined {
  const line = /line (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (position) return raw.slice(0, Number(position[1])).split('\n').length;
  // Truncated input: the error is at the end.
  if (/end of JSON input/.test(message)) return raw.split('\n').length;
  // V8 gives no position for "Unexpected token"; text that does not even start like JSON fails at its first character.
  const first = /\S/.exec(raw);
  if (first && first[0] !== '{' && first[0] !== '[') return raw.slice(0, first.index).split('\n').length;
  return undefined;
}
