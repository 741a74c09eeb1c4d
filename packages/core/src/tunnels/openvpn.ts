import { daemonArgv } from './commands.js';
import type { Endpoint } from './endpoint.js';
import { HANDSHAKE_BUDGET_MS, logTail, must, type Side, waitUntil } from './side.js';
import type { ResolvedTunnel } from './tunnel-schema.js';

/**
 * A self-signed certificate made on the host (its key never leaves it); prints
 * the SHA-256 fingerprint the peer pins with `--peer-fingerprint` (OpenVPN ≥ 2.6
 * peer-to-peer TLS without a CA).
 */
export const certArgv = (dir: string): string[] => [
  'sh',
  '-c',
  [
    'umask 077',
    // openssl writes through whatever is there (keeping its owner and mode): start from no files at all.
    'rm -f -- "$1/tls.key" "$1/tls.crt" || exit 1',
    'openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$1/tls.key" -out "$1/tls.crt" -days 2 -subj /CN=netbench-tunnel 2>/dev/null || exit 1',
    'openssl x509 -in "$1/tls.crt" -noout -fingerprint -sha256',
  ].join('\n'),
  'sh',
  dir,
];

const FINGERPRINT_RE = /Fingerprint=((?:[0-9A-F]{2}:){31}[0-9A-F]{2})/;

export function parseFingerprint(stdout: string): string | undefined {
  return FINGERPRINT_RE.exec(stdout)?.[1];
}

/** openvpn in the foreground under the daemon wrapper: UDP peer-to-peer, TLS with a pinned peer, no DCO. */
export function openvpnArgv(ep: Endpoint, tunnel: ResolvedTunnel, peerFingerprint: string): string[] {
  const port = String(tunnel.port);
  return daemonArgv(`${ep.dir}/openvpn.pid`, `${ep.dir}/openvpn.log`, [
    'openvpn',
    '--dev',
    ep.iface,
    '--dev-type',
    'tun',
    '--proto',
    'udp',
    '--local',
    ep.outer,
    '--lport',
    port,
    '--remote',
    ep.peerOuter,
    '--rport',
    port,
    '--ifconfig',
    ep.inner,
    ep.peerInner,
    ...(ep.side === 0 ? ['--tls-server', '--dh', 'none'] : ['--tls-client']),
    '--cert',
    `${ep.dir}/tls.crt`,
    '--key',
    `${ep.dir}/tls.key`,
    '--peer-fingerprint',
    peerFingerprint,
    '--data-ciphers',
    tunnel.cipher,
    '--disable-dco',
    '--tun-mtu',
    String(tunnel.mtu),
    '--ping',
    '10',
    '--verb',
    '3',
  ]);
}

export async function openvpnUp(a: Side, b: Side): Promise<void> {
  const prints = await Promise.all(
    [a, b].map(async (side) => {
      const print = parseFingerprint((await must(side, certArgv(side.ep.dir))).stdout);
      if (!print) throw new Error(`tunnel ${side.tunnel.name} on ${side.host.id}: openssl printed no certificate fingerprint`);
      return print;
    }),
  );
  await Promise.all([a, b].map((side, i) => must(side, openvpnArgv(side.ep, side.tunnel, prints[1 - i]!))));
  await waitUntil(a, ['ping', '-c', '1', '-W', '1', b.ep.inner], `the OpenVPN handshake with ${b.host.id}`, HANDSHAKE_BUDGET_MS).catch(async (error: Error) => {
    throw new Error(`${error.message}; openvpn said: ${await logTail(a, `${a.ep.dir}/openvpn.log`)} | ${await logTail(b, `${b.ep.dir}/openvpn.log`)}`);
  });
}
