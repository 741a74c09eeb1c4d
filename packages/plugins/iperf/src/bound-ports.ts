// A row of /proc/net/{tcp,udp}{,6}: `  0: 00000000:1451 00000000:0000 0A ...` (hex local port, hex state).
const ROW_RE = /^\s*\d+:\s+[0-9A-Fa-f]+:([0-9A-Fa-f]{4})\s+[0-9A-Fa-f]+:[0-9A-Fa-f]{4}\s+([0-9A-Fa-f]{2})\s/;
const TCP_LISTEN = '0A';

/**
 * Ports a server could be reached on, from the text of /proc/net files:
 * TCP sockets in LISTEN, UDP sockets bound to a port (UDP has no listening state).
 */
export function boundPorts(procNet: string, protocol: 'tcp' | 'udp'): Set<number> {
  const ports = new Set<number>();
  for (const line of procNet.split('\n')) {
    const match = ROW_RE.exec(line);
    if (match && (protocol === 'udp' || match[2]!.toUpperCase() === TCP_LISTEN)) ports.add(Number.parseInt(match[1]!, 16));
  }
  return ports;
}
