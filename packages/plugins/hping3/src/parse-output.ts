import { ParseError } from '@netbench/plugin-api';

/** One reply line: `len=40 ip=10.0.0.2 ttl=64 DF id=0 sport=9 flags=RA seq=0 win=0 rtt=0.9 ms`. */
export interface Hping3Reply {
  readonly seq: number;
  readonly flags: string;
  /** As printed: milliseconds with one decimal (hping3's resolution is 0.1 ms). */
  readonly rttMs: number;
  readonly duplicate: boolean;
}

export interface Hping3Output {
  readonly target: string;
  readonly flood: boolean;
  readonly replies: readonly Hping3Reply[];
  readonly transmitted: number;
  readonly received: number;
  readonly lossPercent: number;
  readonly summary?: { readonly min: number; readonly avg: number; readonly max: number };
}

const HEADER_RE = /^HPING (\S+) \(\S+ \S+\): .* set, \d+ headers \+ \d+ data bytes$/;
const REPLY_RE = /^(DUP! )?len=\d+ ip=\S+ ttl=\d+ (?:DF )?id=\d+ sport=\d+ flags=(\S+) seq=(\d+) win=\d+ rtt=(\d+(?:\.\d+)?) ms$/;
const STATS_TITLE_RE = /^--- (\S+) hping statistic ---$/;
// hping3 before 3.0.0-alpha-2 printed "tramitted".
const STATS_RE = /^(\d+) packets tra(?:ns)?mitted, (\d+) packets received, (\d+)% packet loss$/;
const RTT_RE = /^round-trip min\/avg\/max = (\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?) ms$/;
const FLOOD_RE = /^hping in flood mode, no replies will be shown$/;

/** hping3's stdout and stderr in one text (stdout first, as the plugin saves them); `source` names the file in errors. */
export function parseHping3Output(raw: string, source?: string): Hping3Output {
  let target: string | undefined;
  let flood = false;
  const replies: Hping3Reply[] = [];
  let stats: { transmitted: number; received: number; loss: number } | undefined;
  let summary: Hping3Output['summary'];
  const lines = raw.split('\n');
  lines.forEach((text, index) => {
    const line = text.trim();
    if (line === '') return;
    let m: RegExpExecArray | null;
    if ((m = HEADER_RE.exec(line))) target = m[1];
    else if ((m = REPLY_RE.exec(line))) replies.push({ duplicate: m[1] !== undefined, flags: m[2]!, seq: Number(m[3]), rttMs: Number(m[4]) });
    else if (FLOOD_RE.test(line)) flood = true;
    else if ((m = STATS_TITLE_RE.exec(line))) target ??= m[1];
    else if ((m = STATS_RE.exec(line))) stats = { transmitted: Number(m[1]), received: Number(m[2]), loss: Number(m[3]) };
    else if ((m = RTT_RE.exec(line))) summary = { min: Number(m[1]), avg: Number(m[2]), max: Number(m[3]) };
    // hping3's own complaints ("[open_sockraw] socket(): Operation not permitted") are the run's failure; other lines
    // (ICMP errors it reports, "DUP!" notes) carry nothing netbench reads.
    else if (/^(?:\[\w+\]|hping3?: )/.test(line) && !stats) throw new ParseError(`hping3 said: ${line.slice(0, 200)}`, source, index + 1);
  });
  if (!stats)
    throw new ParseError(target ? 'hping3 output without its statistics (cut short?)' : 'not hping3 output (no "HPING target" line, no statistics)', source, lines.length);
  return {
    target: target ?? '',
    flood,
    replies,
    transmitted: stats.transmitted,
    received: stats.received,
    lossPercent: stats.loss,
    ...(summary && stats.received > 0 ? { summary } : {}),
  };
}
