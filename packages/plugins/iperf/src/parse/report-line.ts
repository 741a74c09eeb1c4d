/** One throughput report line of iperf 2, read on its own (what it means depends on where it stands). */
export interface ReportLine {
  /** Stream id (`1`, `*1` for a reversed stream) or `SUM` (`SUM-2` too). */
  readonly id: string;
  readonly start: number;
  readonly end: number;
  readonly bytes: number;
  readonly bitsPerSecond: number;
  /** What the columns after the bandwidth say the line is; `unknown` for plain (no `-e`) reports. */
  readonly kind: 'tcp-sender' | 'tcp-receiver' | 'udp-sender' | 'udp-receiver' | 'unknown';
  readonly writes?: number;
  readonly writeErrors?: number;
  readonly retries?: number;
  readonly cwndKBytes?: number;
  readonly rttUs?: number;
  readonly pps?: number;
  readonly jitterMs?: number;
  readonly lost?: number;
  readonly total?: number;
  /** One-way latency (`-e` UDP server): avg/min/max/stdev in ms; meaningful only with synchronised clocks. */
  readonly latencyMs?: { readonly avg: number; readonly min: number; readonly max: number; readonly stdev: number };
}

// "[  1] 0.0000-1.0000 sec  1.44 GBytes  12.4 Gbits/sec  <columns of -e>"; ids: 1, *1 (reverse), SUM, SUM-2.
const DATA_RE = /^\[\s*(\*?\d+|SUM(?:-\d+)?)\]\s+(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s+sec\s+(\d+(?:\.\d+)?)\s+([KMGT]?)Bytes?\s+(\d+(?:\.\d+)?)\s+([KMGT]?)bits\/sec\s*(.*)$/;
// "14291/0   109   350K/74(22) us  25312838"; a [SUM] line stops after the retries.
const TCP_SENDER_RE = /^(\d+)\/(\d+)\s+(\d+)(?:\s+(-?\d+)K\/(\d+)\((\d+)\) us)?/;
const UDP_SENDER_RE = /^(\d+)\/(\d+)\s+(\d+) pps/;
// "71575=20664:25:8:43939:1093:9:4:5833" (reads and their size histogram).
const TCP_RECEIVER_RE = /^\d+=\d+(?::\d+)*/;
// "0.002 ms 0/8920 (0%) 0.007/0.003/2.467/0.027 ms 4459 pps ..."; plain reports stop after the percentage.
const UDP_RECEIVER_RE =
  /^(\d+(?:\.\d+)?) ms\s+(\d+)\/\s*(\d+)\s+\(([\d.e+-]+|-?nan)%\)(?:\s+(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?) ms)?(?:\s+(\d+) pps)?/;
// iperf 2 sizes: upper-case byte prefixes are powers of 1024, bit rates are decimal.
const BYTES: Readonly<Record<string, number>> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };
const BITS: Readonly<Record<string, number>> = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** The report a line holds, or undefined when it is not a report line. */
export function readReportLine(line: string): ReportLine | undefined {
  const data = DATA_RE.exec(line);
  if (!data) return undefined;
  const [, rawId, from, to, transfer, byteUnit, rate, bitUnit, rest = ''] = data as unknown as [string, string, string, string, string, string, string, string, string];
  const base = {
    id: rawId.startsWith('SUM') ? 'SUM' : rawId,
    start: Number(from),
    end: Number(to),
    bytes: Math.round(Number(transfer) * BYTES[byteUnit]!),
    bitsPerSecond: Number(rate) * BITS[bitUnit]!,
  };
  const udpSender = UDP_SENDER_RE.exec(rest);
  if (udpSender) return { ...base, kind: 'udp-sender', writes: Number(udpSender[1]), writeErrors: Number(udpSender[2]), pps: Number(udpSender[3]) };
  const tcpSender = TCP_SENDER_RE.exec(rest);
  if (tcpSender) {
    return {
      ...base,
      kind: 'tcp-sender',
      writes: Number(tcpSender[1]),
      writeErrors: Number(tcpSender[2]),
      retries: Number(tcpSender[3]),
      ...(tcpSender[4] !== undefined ? { cwndKBytes: Number(tcpSender[4]), rttUs: Number(tcpSender[5]) } : {}),
    };
  }
  if (TCP_RECEIVER_RE.test(rest)) return { ...base, kind: 'tcp-receiver' };
  const udp = UDP_RECEIVER_RE.exec(rest);
  if (udp) {
    return {
      ...base,
      kind: 'udp-receiver',
      jitterMs: Number(udp[1]),
      lost: Number(udp[2]),
      total: Number(udp[3]),
      ...(udp[5] !== undefined ? { latencyMs: { avg: Number(udp[5]), min: Number(udp[6]), max: Number(udp[7]), stdev: Number(udp[8]) } } : {}),
      ...(udp[9] !== undefined ? { pps: Number(udp[9]) } : {}),
    };
  }
  return { ...base, kind: 'unknown' };
}
