// A row of /proc/net/tcp or tcp6: `  0: 00000000:1451 00000000:0000 0A ...` (hex port, state 0A = LISTEN).
const ROW_RE = /^\s*\d+:\s+[0-9A-Fa-f]+:([0-9A-Fa-f]{4})\s+[0-9A-Fa-f]+:[0-9A-Fa-f]{4}\s+([0-9A-Fa-f]{2})\s/;
const LISTEN = '0A';

/** TCP ports in LISTEN state in the text of `/proc/net/tcp` and `/proc/net/tcp6`. */
export function listeningPorts(procNetTcp: string): Set<number> {
  const ports = new Set<number>();
  for (const line of procNetTcp.split('\n')) {
    const match = ROW_RE.exec(line);
    if (match && match[2]!.toUpperCase() === LISTEN) ports.add(Number.parseInt(match[1]!, 16));
  }
  return ports;
}
