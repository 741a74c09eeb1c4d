import { ParseError } from '@netbench/plugin-api';

/** What `/proc/net/pktgen/<device>` says after a run. */
export interface PktgenResult {
  readonly device: string;
  /** Packets asked for (`Params: count`). */
  readonly count: number;
  /** Frame bytes without FCS (`min_pkt_size`). */
  readonly size: number;
  readonly destination?: string;
  /** Nanoseconds between packets (`delay`; `ratep` sets it). */
  readonly delayNs: number;
  /** Packets sent (`Result: … usec, N`). */
  readonly packets: number;
  /** Transmit errors the driver returned. */
  readonly errors: number;
  /** Time from the first to the last packet, microseconds, and the part spent waiting (`d…`: pacing, a full queue). */
  readonly elapsedUs: number;
  readonly idleUs: number;
  readonly pps: number;
  readonly bitsPerSecond: number;
}

const PARAMS_RE = /^Params: count (\d+)\s+min_pkt_size: (\d+)/m;
const IFNAME_RE = /\bdelay: (\d+)\s+clone_skb: \d+\s+ifname: (\S+)/;
const DST_RE = /\bdst_min: (\S+)/;
// "Result: OK: 5098028(c5065778+d32249) usec, 100000 (60byte,0frags)" then "  19615pps 9Mb/sec (9415200bps) errors: 0"
const RESULT_RE = /^Result: OK: (\d+)\(c(\d+)\+d(\d+)\) usec, (\d+) \((\d+)byte,(\d+)frags\)\n\s*(\d+)pps (\d+)Mb\/sec \((\d+)bps\) errors: (\d+)/m;
const OTHER_RESULT_RE = /^Result: (.*)$/m;

/** The device file of a finished pktgen run (`cat /proc/net/pktgen/<device>`); `source` names the file in errors. */
export function parsePktgenResult(raw: string, source?: string): PktgenResult {
  const params = PARAMS_RE.exec(raw);
  if (!params) throw new ParseError('not a pktgen device file (no "Params: count … min_pkt_size:" line)', source, 1);
  const result = RESULT_RE.exec(raw);
  if (!result) {
    // "Result: Idle" (never started), "Result: No such parameter …" (a refused write): what pktgen said instead.
    const other = OTHER_RESULT_RE.exec(raw);
    throw new ParseError(
      other ? `pktgen has no result: "Result: ${other[1]!.trim()}"` : 'pktgen device file without a "Result:" line',
      source,
      lineOf(raw, other?.index ?? raw.length),
    );
  }
  const iface = IFNAME_RE.exec(raw);
  const destination = DST_RE.exec(raw)?.[1];
  const [, elapsed, , idle, packets, size, , pps, , bps, errors] = result.map(Number) as number[];
  return {
    device: iface?.[2] ?? '',
    count: Number(params[1]),
    size: size!,
    ...(destination !== undefined ? { destination } : {}),
    delayNs: Number(iface?.[1] ?? 0),
    packets: packets!,
    errors: errors!,
    elapsedUs: elapsed!,
    idleUs: idle!,
    pps: pps!,
    bitsPerSecond: bps!,
  };
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}
