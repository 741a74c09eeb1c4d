/** What a settings line at the top of an iperf 2 output says. */
export interface Header {
  /** "Client connecting to ..." or "Server listening on ..." (the client of `-r`/`-d` prints both). */
  readonly role?: 'client' | 'server';
  readonly protocol?: 'tcp' | 'udp';
  readonly port?: number;
  readonly bufferBytes?: number;
  readonly windowBytes?: number;
  readonly datagramBytes?: number;
}

const CLIENT_RE = /^Client connecting to \S+, (TCP|UDP) port (\d+)/;
const SERVER_RE = /^Server listening on (TCP|UDP) port (\d+)/;
const BUFFER_RE = /^(?:Write|Read) buffer size:\s+(\d+(?:\.\d+)?) ([KMG]?)Byte/;
const WINDOW_RE = /^(?:TCP window|UDP buffer) size:\s+(-?\d+(?:\.\d+)?) ([KMG]?)Byte/;
const DATAGRAM_RE = /^Sending (\d+) byte datagrams/;
const OTHER_RE = /^(?:TOS set to |Server set to single client|Enabled rate limiting|MSS size |MSS req size )/;
const SCALE: Readonly<Record<string, number>> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** The settings a header line states; undefined when the line is not a header line. */
export function readHeader(line: string): Header | undefined {
  const role = CLIENT_RE.exec(line) ?? SERVER_RE.exec(line);
  if (role) {
    return { role: line.startsWith('Client') ? 'client' : 'server', protocol: role[1] === 'UDP' ? 'udp' : 'tcp', port: Number(role[2]) };
  }
  const buffer = BUFFER_RE.exec(line);
  if (buffer) return { bufferBytes: Math.round(Number(buffer[1]) * SCALE[buffer[2]!]!) };
  const window = WINDOW_RE.exec(line);
  // -1 bytes: the socket never existed (connect failed).
  if (window) return Number(window[1]) > 0 ? { windowBytes: Math.round(Number(window[1]) * SCALE[window[2]!]!) } : {};
  const datagram = DATAGRAM_RE.exec(line);
  if (datagram) return { datagramBytes: Number(datagram[1]) };
  return OTHER_RE.test(line) ? {} : undefined;
}
