import { BlockList, isIP } from 'node:net';
import type { PeerHost } from '@netbench/plugin-api';
import type { IpFamily } from './bodies.js';

/** Source ranges to admit, one list per address family (a GCE rule holds one family only). */
export interface PeerRanges {
  readonly ipv4: readonly string[];
  readonly ipv6: readonly string[];
  /** Fleet ids whose addresses made it into a range. */
  readonly admitted: readonly string[];
  /** Addresses left out, with why (loopback, link-local, not an address). */
  readonly skipped: readonly { readonly peer: string; readonly address: string; readonly reason: string }[];
}

// Addresses no packet reaching a GCE VM can come from: admitting them would be noise.
const UNROUTABLE = new BlockList();
UNROUTABLE.addSubnet('0.0.0.0', 8, 'ipv4');
UNROUTABLE.addSubnet('127.0.0.0', 8, 'ipv4');
UNROUTABLE.addSubnet('169.254.0.0', 16, 'ipv4');
UNROUTABLE.addSubnet('224.0.0.0', 3, 'ipv4'); // multicast and reserved, up to 255.255.255.255
UNROUTABLE.addAddress('::', 'ipv6');
UNROUTABLE.addAddress('::1', 'ipv6');
UNROUTABLE.addSubnet('fe80::', 10, 'ipv6');
UNROUTABLE.addSubnet('ff00::', 8, 'ipv6');

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** One address as a single-host range of its family, or why it is left out. */
function hostRange(address: string): { family: IpFamily; range: string } | { reason: string } {
  // Traffic from an IPv4-mapped IPv6 address arrives as IPv4.
  const ip = MAPPED_V4.exec(address)?.[1] ?? address;
  const version = isIP(ip);
  if (version === 0) return { reason: 'not an IP address (firewall rules take addresses, not names)' };
  const family: IpFamily = version === 4 ? 'ipv4' : 'ipv6';
  if (UNROUTABLE.check(ip, family)) return { reason: 'loopback, link-local or multicast: no traffic comes from it' };
  return { family, range: version === 4 ? `${ip}/32` : `${ip.toLowerCase()}/128` };
}

/** Every usable peer address as a `/32` or `/128`, deduplicated, in the order given. */
export function peerRanges(peers: readonly PeerHost[]): PeerRanges {
  const ranges: Record<IpFamily, Set<string>> = { ipv4: new Set(), ipv6: new Set() };
  const admitted: string[] = [];
  const skipped: { peer: string; address: string; reason: string }[] = [];
  for (const peer of peers) {
    let any = false;
    for (const address of peer.addresses) {
      const r = hostRange(address.trim());
      if ('reason' in r) {
        skipped.push({ peer: peer.id, address, reason: r.reason });
        continue;
      }
      ranges[r.family].add(r.range);
      any = true;
    }
    if (any) admitted.push(peer.id);
  }
  return { ipv4: [...ranges.ipv4], ipv6: [...ranges.ipv6], admitted, skipped };
}
