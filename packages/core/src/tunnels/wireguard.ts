import { daemonArgv } from './commands.js';
import type { Endpoint } from './endpoint.js';
import { HANDSHAKE_BUDGET_MS, logTail, must, type Side, waitUntil } from './side.js';
import type { ResolvedTunnel, TunnelImplementation } from './tunnel-schema.js';

/** wireguard-go's UAPI socket (fixed directory; the interface name makes it unique). */
export const wireguardSocket = (iface: string) => `/var/run/wireguard/${iface}.sock`;

/** Generate the private key on the host (it never leaves it) into a new file (none there is written through), print the public key. */
export const wgKeyArgv = (dir: string): string[] => ['sh', '-c', 'umask 077 && rm -f -- "$1" && set -C && wg genkey > "$1" && wg pubkey < "$1"', 'sh', `${dir}/private.key`];

/** The interface: a kernel link, or wireguard-go in the foreground under the daemon wrapper. */
export function wgCreateArgv(ep: Endpoint, implementation: TunnelImplementation): string[] {
  if (implementation === 'kernel') return ['ip', 'link', 'add', 'dev', ep.iface, 'type', 'wireguard'];
  return daemonArgv(`${ep.dir}/wireguard-go.pid`, `${ep.dir}/wireguard-go.log`, ['wireguard-go', '-f', ep.iface]);
}

export function wgSetArgv(ep: Endpoint, tunnel: ResolvedTunnel, peerPublicKey: string): string[] {
  return [
    'wg',
    'set',
    ep.iface,
    'listen-port',
    String(tunnel.port),
    'private-key',
    `${ep.dir}/private.key`,
    'peer',
    peerPublicKey,
    'endpoint',
    `${ep.peerOuter}:${tunnel.port}`,
    'allowed-ips',
    `${ep.peerInner}/32`,
  ];
}

export const addressArgv = (ep: Endpoint, prefix: number): string[] => ['ip', 'address', 'add', `${ep.inner}/${prefix}`, 'dev', ep.iface];
export const linkUpArgv = (iface: string, mtu: number): string[] => ['ip', 'link', 'set', 'dev', iface, 'mtu', String(mtu), 'up'];

const WG_KEY_RE = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** Both ends: keys, interfaces, peers, addresses; resolves once `a` reaches `b` through the tunnel. */
export async function wireguardUp(a: Side, b: Side): Promise<void> {
  const keys = await Promise.all(
    [a, b].map(async (side) => {
      const key = (await must(side, wgKeyArgv(side.ep.dir))).stdout.trim();
      if (!WG_KEY_RE.test(key)) throw new Error(`tunnel ${side.tunnel.name} on ${side.host.id}: wg pubkey printed no key`);
      return key;
    }),
  );
  await Promise.all(
    [a, b].map(async (side, i) => {
      await must(side, wgCreateArgv(side.ep, side.implementation));
      if (side.implementation === 'userspace') {
        await waitUntil(side, ['ip', 'link', 'show', 'dev', side.ep.iface], 'wireguard-go creating its interface', 20_000, 100).catch(async (error: Error) => {
          throw new Error(`${error.message}; wireguard-go said: ${await logTail(side, `${side.ep.dir}/wireguard-go.log`)}`);
        });
      }
      await must(side, wgSetArgv(side.ep, side.tunnel, keys[1 - i]!));
      await must(side, addressArgv(side.ep, 24));
      await must(side, linkUpArgv(side.ep.iface, side.tunnel.mtu));
    }),
  );
  await waitUntil(a, ['ping', '-c', '1', '-W', '1', '-I', a.ep.inner, b.ep.inner], `a WireGuard handshake with ${b.host.id}`, HANDSHAKE_BUDGET_MS);
}
