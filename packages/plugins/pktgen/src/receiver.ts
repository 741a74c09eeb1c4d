import type { Host } from '@netbench/plugin-api';
import type { ReceiverCount } from './pktgen-samples.js';

// "2: eth0    inet 10.0.0.2/24 brd …" (`ip -o addr show`): the interface holding an address.
const ADDR_RE = /^\d+:\s+(\S+)\s+inet6?\s+([^/\s]+)/;

/** The interface of the host that holds `address` (`ip -o addr show`), or undefined when none does (NAT, an external address). */
export function interfaceWithAddress(ipAddrOutput: string, address: string): string | undefined {
  for (const line of ipAddrOutput.split('\n')) {
    const match = ADDR_RE.exec(line.trim());
    if (match && match[2] === address) return match[1];
  }
  return undefined;
}

/** One interface's receive counters in `/proc/net/dev` (`packets` and `drop` of its Receive half). */
export function receiveCounters(procNetDev: string, device: string): { packets: number; dropped: number } | undefined {
  for (const line of procNetDev.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim() !== device) continue;
    const fields = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    // Receive: bytes packets errs drop fifo frame compressed multicast; then Transmit.
    if (fields.length < 16 || fields.some((n) => !Number.isFinite(n))) return undefined;
    return { packets: fields[1]!, dropped: fields[3]! };
  }
  return undefined;
}

/** What `device` received between two readings of `/proc/net/dev`. */
export function receivedBetween(before: string, after: string, device: string): ReceiverCount | undefined {
  const a = receiveCounters(before, device);
  const b = receiveCounters(after, device);
  if (!a || !b) return undefined;
  return { device, packets: b.packets - a.packets, dropped: b.dropped - a.dropped };
}

/** The server's receive counters, read with `cat` (no shell). */
export async function readProcNetDev(host: Host, signal: AbortSignal): Promise<string> {
  const result = await host.exec(['cat', '/proc/net/dev'], { signal, timeoutMs: 15_000 });
  return result.code === 0 ? result.stdout : '';
}
