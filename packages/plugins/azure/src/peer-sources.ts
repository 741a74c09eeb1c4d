import { isIP } from 'node:net';
import type { PeerHost } from '@netbench/plugin-api';

/** The peers' addresses as NSG source prefixes, one list per address family (Azure refuses mixed rules). */
export interface PeerSources {
  /** `a.b.c.d/32`, in the order given (external first), without repeats. */
  readonly v4: readonly string[];
  /** `…/128`. */
  readonly v6: readonly string[];
  /** Addresses no packet reaching Azure comes from, with why. */
  readonly skipped: readonly { readonly peer: string; readonly address: string; readonly reason: string }[];
}

// Loopback, unspecified and link-local addresses never arrive from outside a
// host; a peer on this machine (`local`) reaches Azure from its public address.
const V4_NEVER = [/^127\./, /^0\.0\.0\.0$/, /^169\.254\./];
const V6_NEVER = [/^::1?$/, /^fe[89ab][0-9a-f]:/i];

export function peerSources(peers: readonly PeerHost[]): PeerSources {
  const v4 = new Set<string>();
  const v6 = new Set<string>();
  const skipped: { peer: string; address: string; reason: string }[] = [];
  for (const peer of peers) {
    for (const address of peer.addresses) {
      const family = isIP(address);
      if (family === 0) skipped.push({ peer: peer.id, address, reason: 'not an IP address' });
      else if ((family === 4 ? V4_NEVER : V6_NEVER).some((re) => re.test(address))) skipped.push({ peer: peer.id, address, reason: 'loopback, unspecified or link-local' });
      else if (family === 4) v4.add(`${address}/32`);
      else v6.add(`${address.toLowerCase()}/128`);
    }
  }
  return { v4: [...v4], v6: [...v6], skipped };
}
