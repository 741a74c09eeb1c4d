import { daemonArgv } from './commands.js';
import type { Endpoint } from './endpoint.js';
import { HANDSHAKE_BUDGET_MS, logTail, must, type Side, waitUntil, writePrivate } from './side.js';
import { natTraversalPort, type ResolvedTunnel, type TunnelImplementation } from './tunnel-schema.js';
import { linkUpArgv } from './wireguard.js';

export const CHARON = '/usr/lib/ipsec/charon';

// The order is charon's preference among plugins offering the same algorithm: openssl (AES-NI, fast GHASH) first,
// strongSwan's own aes/gcm (portable, ~5x slower for AES-GCM here) after. Plugins not installed are skipped with a notice.
const CRYPTO = 'openssl random nonce kdf aes sha1 sha2 hmac gmp gcm curve25519 pubkey';

/** charon's own settings: only our plugins, the tunnel's IKE and NAT-T ports, a private vici socket, a log file in the end's directory. */
export function strongswanConf(ep: Endpoint, tunnel: Pick<ResolvedTunnel, 'port'>, implementation: TunnelImplementation): string {
  const kernel = implementation === 'userspace' ? 'kernel-libipsec kernel-netlink' : 'kernel-netlink';
  return [
    'charon {',
    `  load = ${CRYPTO} ${kernel} socket-default vici`,
    // Each tunnel's charon binds its own ports: two ipsec tunnels on one host need different ones (checked in the spec).
    `  port = ${tunnel.port}`,
    `  port_nat_t = ${natTraversalPort(tunnel.port)}`,
    '  install_routes = yes',
    '  install_virtual_ip = no',
    '  filelog {',
    `    log { path = ${ep.dir}/charon.log`,
    '      default = 1',
    '      flush_line = yes',
    '      time_format = %F %T }',
    '  }',
    '  plugins {',
    `    vici { socket = unix://${ep.dir}/charon.vici }`,
    '    kernel-libipsec { allow_peer_ts = yes }',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** One connection between the outer addresses, one tunnel-mode child between the inner ones, a per-run PSK. */
export function swanctlConf(ep: Endpoint, tunnel: ResolvedTunnel, psk: string): string {
  return [
    'connections {',
    '  netbench {',
    `    version = ${tunnel.ike}`,
    `    local_addrs = ${ep.outer}`,
    `    remote_addrs = ${ep.peerOuter}`,
    `    remote_port = ${tunnel.port}`,
    `    proposals = ${tunnel.ikeProposal}`,
    `    local { auth = psk`,
    `      id = ${ep.outer} }`,
    `    remote { auth = psk`,
    `      id = ${ep.peerOuter} }`,
    '    children {',
    '      netbench {',
    `        local_ts = ${ep.inner}/32`,
    `        remote_ts = ${ep.peerInner}/32`,
    `        esp_proposals = ${tunnel.cipher}`,
    '        mode = tunnel',
    '      }',
    '    }',
    '  }',
    '}',
    `secrets { ike-netbench { secret = 0x${psk} } }`,
    '',
  ].join('\n');
}

const swanctl = (ep: Endpoint, ...args: string[]): string[] => ['env', `STRONGSWAN_CONF=${ep.dir}/strongswan.conf`, 'swanctl', ...args, '--uri', `unix://${ep.dir}/charon.vici`];

export const loadArgv = (ep: Endpoint) => swanctl(ep, '--load-all', '--file', `${ep.dir}/swanctl.conf`);
export const initiateArgv = (ep: Endpoint) => swanctl(ep, '--initiate', '--child', 'netbench', '--timeout', '20');

/** charon in a private mount namespace (its own `/run`), so several run on one machine. */
export const charonArgv = (ep: Endpoint): string[] =>
  daemonArgv(`${ep.dir}/charon.pid`, `${ep.dir}/charon.out`, ['env', `STRONGSWAN_CONF=${ep.dir}/strongswan.conf`, CHARON], true);

const TUN_RE = /created TUN device: (\S+)/;

/** The TUN device kernel-libipsec made (`ipsec0` unless taken), from charon's log. */
export function parseTunDevice(log: string): string | undefined {
  return TUN_RE.exec(log)?.[1];
}

/**
 * Both ends: configs and a per-run pre-shared key (written 0600, never shown),
 * charon, the connection, inner addresses (on the TUN device in userspace, on
 * `lo` with the kernel's ESP), then `a` initiates. Resolves to each end's interface.
 */
export async function ipsecUp(a: Side, b: Side, psk: string): Promise<[string, string]> {
  const ifaces = await Promise.all(
    [a, b].map(async (side) => {
      await writePrivate(side, `${side.ep.dir}/strongswan.conf`, strongswanConf(side.ep, side.tunnel, side.implementation));
      await writePrivate(side, `${side.ep.dir}/swanctl.conf`, swanctlConf(side.ep, side.tunnel, psk));
      await must(side, charonArgv(side.ep));
      await waitUntil(side, ['test', '-S', `${side.ep.dir}/charon.vici`], 'charon starting', 20_000, 100).catch(async (error: Error) => {
        throw new Error(`${error.message}; charon said: ${await logTail(side, `${side.ep.dir}/charon.out`)} ${await logTail(side, `${side.ep.dir}/charon.log`)}`);
      });
      await must(side, loadArgv(side.ep));
      if (side.implementation === 'kernel') {
        await must(side, ['ip', 'address', 'add', `${side.ep.inner}/32`, 'dev', 'lo']);
        return 'lo';
      }
      const log = (await must(side, ['cat', '--', `${side.ep.dir}/charon.log`])).stdout;
      const tun = parseTunDevice(log);
      if (!tun) throw new Error(`tunnel ${side.tunnel.name} on ${side.host.id}: charon made no TUN device (is kernel-libipsec installed?)`);
      await must(side, ['ip', 'address', 'add', `${side.ep.inner}/32`, 'dev', tun]);
      await must(side, linkUpArgv(tun, side.tunnel.mtu));
      return tun;
    }),
  );
  await must(a, initiateArgv(a.ep)).catch(async (error: Error) => {
    throw new Error(`${error.message}; charon said: ${await logTail(a, `${a.ep.dir}/charon.log`)}`);
  });
  await waitUntil(a, ['ping', '-c', '1', '-W', '1', '-I', a.ep.inner, b.ep.inner], `traffic through the IPsec SA to ${b.host.id}`, HANDSHAKE_BUDGET_MS);
  return [ifaces[0]!, ifaces[1]!];
}
