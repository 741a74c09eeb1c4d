import type { Host } from '../plugin/host.js';

// A row of /proc/net/{tcp,udp}{,6}: `  0: 00000000:1451 00000000:0000 0A ...` (hex local port, hex state).
const ROW_RE = /^\s*\d+:\s+[0-9A-Fa-f]+:([0-9A-Fa-f]{4})\s+[0-9A-Fa-f]+:[0-9A-Fa-f]{4}\s+([0-9A-Fa-f]{2})\s/;
const TCP_LISTEN = '0A';

export type PortProtocol = 'tcp' | 'udp';

/**
 * Ports a server could be reached on, from the text of /proc/net files:
 * TCP sockets in LISTEN, UDP sockets bound to a port (UDP has no listening state).
 */
export function boundPorts(procNet: string, protocol: PortProtocol): Set<number> {
  const ports = new Set<number>();
  for (const line of procNet.split('\n')) {
    const match = ROW_RE.exec(line);
    if (match && (protocol === 'udp' || match[2]!.toUpperCase() === TCP_LISTEN)) ports.add(Number.parseInt(match[1]!, 16));
  }
  return ports;
}

/**
 * Ports bound on the host now, read from /proc/net. No probe connection is
 * made: it would count as a test, or use up a one-off server. Undefined when
 * the host has no such files (not Linux).
 */
export async function readBoundPorts(host: Host, protocol: PortProtocol, signal: AbortSignal): Promise<Set<number> | undefined> {
  const files = protocol === 'tcp' ? ['/proc/net/tcp', '/proc/net/tcp6'] : ['/proc/net/udp', '/proc/net/udp6'];
  const result = await host.exec(['cat', ...files], { signal, timeoutMs: 5_000 });
  // The *6 file is missing when IPv6 is off; cat still prints the other and exits 1.
  if (!result.stdout.includes('local_address')) return undefined;
  return boundPorts(result.stdout, protocol);
}
