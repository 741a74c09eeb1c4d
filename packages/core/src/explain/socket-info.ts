/** What `ss -tin` says of one TCP socket at one moment. */
export interface SocketInfo {
  readonly local: string;
  readonly peer: string;
  readonly congestionControl?: string;
  /** Smoothed RTT in ms. */
  readonly rttMs?: number;
  readonly mss?: number;
  readonly pmtu?: number;
  readonly cwnd?: number;
  readonly bytesSent?: number;
  readonly bytesRetrans?: number;
  /** Total retransmitted segments (`retrans:a/b`'s b). */
  readonly retransTotal?: number;
  readonly deliveryRateBps?: number;
  readonly pacingRateBps?: number;
  /** Share of the socket's busy time it was limited by the receiver's window / its send buffer (`rwnd_limited`, `sndbuf_limited`). */
  readonly rwndLimitedPct?: number;
  readonly sndbufLimitedPct?: number;
  readonly rcvSpace?: number;
  readonly sndWnd?: number;
}

const SOCKET_LINE_RE = /^(\S+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)/;
const CC_NAMES = new Set(['cubic', 'bbr', 'reno', 'dctcp', 'htcp', 'vegas', 'westwood', 'bic', 'highspeed', 'hybla', 'illinois', 'scalable', 'yeah', 'lp', 'veno', 'nv', 'cdg']);

function field(info: string, name: string): string | undefined {
  return new RegExp(`(?:^|\\s)${name}:(\\S+)`).exec(info)?.[1];
}

function numberField(info: string, name: string): number | undefined {
  const value = field(info, name);
  const n = value === undefined ? Number.NaN : Number.parseFloat(value);
  return Number.isFinite(n) ? n : undefined;
}

function rate(info: string, name: string): number | undefined {
  const match = new RegExp(`(?:^|\\s)${name} (\\d+(?:\\.\\d+)?)bps`).exec(info);
  return match ? Number(match[1]) : undefined;
}

/** `ss -tinH`: a socket line, then its indented info line. */
export function parseSocketInfo(text: string): SocketInfo[] {
  const sockets: SocketInfo[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const head = SOCKET_LINE_RE.exec(lines[i]!);
    if (!head || /^\s/.test(lines[i]!)) continue;
    const info = /^\s/.test(lines[i + 1] ?? '') ? lines[++i]!.trim() : '';
    const firstWord = info.split(/\s+/)[0];
    const retrans = field(info, 'retrans')?.split('/')[1];
    const limited = (name: string) => {
      const m = new RegExp(`(?:^|\\s)${name}:\\d+ms\\((\\d+(?:\\.\\d+)?)%\\)`).exec(info);
      return m ? Number(m[1]) : undefined;
    };
    const values: Record<string, number | string | undefined> = {
      congestionControl: firstWord && CC_NAMES.has(firstWord) ? firstWord : undefined,
      rttMs: numberField(info, 'rtt'),
      mss: numberField(info, 'mss'),
      pmtu: numberField(info, 'pmtu'),
      cwnd: numberField(info, 'cwnd'),
      bytesSent: numberField(info, 'bytes_sent'),
      bytesRetrans: numberField(info, 'bytes_retrans'),
      retransTotal: retrans === undefined ? undefined : Number(retrans),
      deliveryRateBps: rate(info, 'delivery_rate'),
      pacingRateBps: rate(info, 'pacing_rate'),
      rwndLimitedPct: limited('rwnd_limited'),
      sndbufLimitedPct: limited('sndbuf_limited'),
      rcvSpace: numberField(info, 'rcv_space'),
      sndWnd: numberField(info, 'snd_wnd'),
    };
    const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
    sockets.push({ local: head[4]!, peer: head[5]!, ...defined } as SocketInfo);
  }
  return sockets;
}
