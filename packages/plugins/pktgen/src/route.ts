import type { Host } from '@netbench/plugin-api';
import { NetbenchError, UnsupportedError } from '@netbench/plugin-api';
import { assertHostAddress } from '@netbench/plugin-api/tool-kit';

const MAC_RE = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/;
const DEVICE_RE = /^[A-Za-z0-9_.-]{1,15}$/;

/** Where the client's kernel sends packets for `target`: the device, and the next hop's MAC address. */
export interface PktgenPath {
  readonly device: string;
  readonly nextHop: string;
  readonly mac: string;
}

/**
 * `ip -j route get TARGET` on the client names the device and the next hop
 * (the gateway, or the target on the same link); one ping makes the kernel
 * resolve the next hop's MAC, which `ip -j neigh show` then reads. pktgen
 * writes Ethernet frames itself, so it needs both.
 */
export async function pktgenPath(client: Host, target: string, signal: AbortSignal): Promise<PktgenPath> {
  const address = assertHostAddress(target, 'pktgen destination');
  const options = { signal, timeoutMs: 15_000 };
  const route = await client.exec(['ip', '-j', 'route', 'get', address], options);
  if (route.code !== 0) throw new NetbenchError(`pktgen: host ${client.name} has no route to ${address}: ${route.stderr.trim()}`);
  const [entry] = JSON.parse(route.stdout) as { dev?: string; gateway?: string }[];
  const device = entry?.dev;
  if (!device || !DEVICE_RE.test(device)) throw new NetbenchError(`pktgen: ip route get ${address} on host ${client.name} named no device (${route.stdout.trim().slice(0, 200)})`);
  if (device === 'lo') throw new UnsupportedError(`pktgen: ${address} is host ${client.name}'s own address (device lo): pktgen sends out of a network device to another host`);
  const nextHop = assertHostAddress(entry.gateway ?? address, 'pktgen next hop');
  // The reply does not matter, only that the kernel asked for the MAC (ARP or neighbour discovery).
  await client.exec(['ping', '-c', '1', '-W', '1', '--', nextHop], options);
  const neigh = await client.exec(['ip', '-j', 'neigh', 'show', 'to', nextHop, 'dev', device], options);
  const [found] = neigh.code === 0 && neigh.stdout.trim() !== '' ? (JSON.parse(neigh.stdout) as { lladdr?: string }[]) : [];
  const mac = found?.lladdr?.toLowerCase();
  if (!mac || !MAC_RE.test(mac)) {
    throw new UnsupportedError(
      `pktgen: no Ethernet address for next hop ${nextHop} on ${client.name}'s ${device} (${neigh.stdout.trim() || 'no neighbour entry'}): pktgen needs an Ethernet device whose next hop answers ARP (not a tunnel)`,
    );
  }
  return { device, nextHop, mac };
}
