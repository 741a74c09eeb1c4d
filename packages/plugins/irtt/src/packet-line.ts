/** One per-packet line irtt prints while it runs (`seq=3 rtt=106µs rd=57.7µs sd=48.4µs ipdv=14.5µs`), times in ms. */
export interface IrttPacketLine {
  readonly seq: number;
  readonly rttMs: number;
  readonly receiveDelayMs?: number;
  readonly sendDelayMs?: number;
  readonly ipdvMs?: number;
}

const LINE_RE = /^seq=(\d+) rtt=(\S+)(?: rd=(\S+))?(?: sd=(\S+))?(?: ipdv=(\S+))?/;
const DURATION_RE = /^(\d+(?:\.\d+)?)(ns|µs|us|ms|s|m|h)$/;
const MS_PER: Readonly<Record<string, number>> = { ns: 1e-6, µs: 1e-3, us: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };

/** A Go duration as irtt prints it (`97.6µs`, `41.63ms`, `1.2s`) in milliseconds; undefined for `n/a` or anything else. */
export function goDurationMs(text: string): number | undefined {
  const match = DURATION_RE.exec(text);
  return match ? Number(match[1]) * MS_PER[match[2]!]! : undefined;
}

/** The packet a stderr line reports, or undefined for any other line (connection messages, the summary). */
export function parsePacketLine(line: string): IrttPacketLine | undefined {
  const match = LINE_RE.exec(line.trim());
  if (!match) return undefined;
  const rttMs = goDurationMs(match[2]!);
  if (rttMs === undefined) return undefined;
  const optional = (text: string | undefined) => (text === undefined ? undefined : goDurationMs(text));
  const receiveDelayMs = optional(match[3]);
  const sendDelayMs = optional(match[4]);
  const ipdvMs = optional(match[5]);
  return {
    seq: Number(match[1]),
    rttMs,
    ...(receiveDelayMs === undefined ? {} : { receiveDelayMs }),
    ...(sendDelayMs === undefined ? {} : { sendDelayMs }),
    ...(ipdvMs === undefined ? {} : { ipdvMs }),
  };
}
