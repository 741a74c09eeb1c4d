import type { SampleInput } from '@netbench/plugin-api';

// "[  5]   0.00-0.50   sec   291 MBytes  4.88 Gbits/sec    1   3.00 MBytes", "[SUM][RX-S]   0.50-1.00   sec ...  (omitted)".
const INTERVAL_RE = /^\[\s*(\d+|SUM)\](?:\[([TR]X)-[CS]\])?\s+(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)\s+sec\s+\d+(?:\.\d+)? [KMGT]?Bytes\s+(\d+(?:\.\d+)?) ([KMGT]?)bits\/sec(.*)$/;
const BITS: Readonly<Record<string, number>> = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };

export interface LiveIntervalOptions {
  /** Streams of the test (`-P`): with several, only the `[SUM]` lines are live values. */
  readonly streams: number;
  /** `-R`: the server sends (its lines are the reverse direction). */
  readonly reverse: boolean;
}

/**
 * One interval line of iperf3's human-readable report, as the one-off server
 * prints it with `--forceflush` while the test runs, as a live value:
 * `Interval Throughput` (Mbits/sec, what the server sent or received in that
 * interval), labelled `direction`, `interval_start`/`interval_end` and
 * `omitted`. The final summary (`sender`/`receiver` lines), per-stream lines
 * of a multi-stream test, headers and anything else give `undefined`.
 */
export function liveIntervalSample(line: string, options: LiveIntervalOptions, receivedAt = Date.now()): SampleInput | undefined {
  const match = INTERVAL_RE.exec(line.trim());
  if (!match) return undefined;
  const [, id, role, start, end, rate, prefix, rest] = match;
  if (/\b(?:sender|receiver)\s*$/.test(rest!)) return undefined;
  if (options.streams > 1 ? id !== 'SUM' : id === 'SUM') return undefined;
  // --bidir: the server's RX lines carry the client's sending (forward), its TX lines the reverse.
  const direction = role === 'RX' ? 'forward' : role === 'TX' ? 'reverse' : options.reverse ? 'reverse' : 'forward';
  return {
    metric: 'Interval Throughput',
    value: (Number(rate) * BITS[prefix!]!) / 1e6,
    unit: 'Mbits/sec',
    timestamp: receivedAt,
    labels: { direction, interval_start: Number(start), interval_end: Number(end), omitted: /\(omitted\)/.test(rest!) },
  };
}

/** Calls `onLine` for every complete line of a byte stream. */
export function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = '';
  stream.on('data', (chunk: Buffer | string) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}
