import type { SampleInput } from '@netbench/plugin-api';
import { type PlainReply, readPlainReply } from './plain-reply.js';

/** The live value's metric: one reply's round-trip time. */
export const LIVE_RTT_METRIC = 'RTT';

/**
 * Turns ping's reply lines, as they stream, into per-packet samples for live
 * display (`ctx.interval`, or a flow's `ctx.flow.interval`): `RTT` in ms,
 * labelled `icmp_seq` and `interval_start`/`interval_end` (seconds since
 * ping started, the previous reply's time and this one's), stamped when the
 * line arrived. Any other line (errors, the summary) gives `undefined`.
 * Uses the same line reader as the final parse (`readPlainReply`).
 */
export class PingReplyReader {
  private readonly reply: PlainReply = { timestamp: undefined, bytes: 0, from: '', seq: 0, ttl: 0, rttMs: 0 };
  private previousEnd = 0;

  constructor(private readonly startedAt: number) {}

  sample(line: string, receivedAt = Date.now()): SampleInput | undefined {
    if (!readPlainReply(line, this.reply.from, this.reply)) return undefined;
    const end = Math.max(this.previousEnd, (receivedAt - this.startedAt) / 1000);
    const start = this.previousEnd;
    this.previousEnd = end;
    return {
      metric: LIVE_RTT_METRIC,
      value: this.reply.rttMs,
      unit: 'ms',
      timestamp: receivedAt,
      labels: { icmp_seq: this.reply.seq, interval_start: round(start), interval_end: round(end) },
    };
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
