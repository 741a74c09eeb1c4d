import type { ExecResult, Host } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import type { ResolvedTunnel, TunnelImplementation, TunnelType } from './tunnel-schema.js';

/**
 * Whether the host's kernel has the tunnel's data path, probed in a throwaway
 * network namespace (`unshare --net`: gone when the probe exits, nothing to
 * clean up): a WireGuard link, an ESP state. OpenVPN's kernel path (DCO) is not
 * supported by netbench.
 */
export function kernelProbeArgv(type: TunnelType): string[] | undefined {
  if (type === 'wireguard') return ['unshare', '--net', '--', 'ip', 'link', 'add', 'dev', 'nbprobe0', 'type', 'wireguard'];
  if (type === 'ipsec') {
    return [
      'unshare',
      '--net',
      '--',
      'ip',
      'xfrm',
      'state',
      'add',
      'src',
      '192.0.2.1',
      'dst',
      '192.0.2.2',
      'proto',
      'esp',
      'spi',
      '0x100',
      'mode',
      'tunnel',
      'enc',
      'cbc(aes)',
      `0x${'11'.repeat(16)}`,
      'auth',
      'hmac(sha256)',
      `0x${'22'.repeat(32)}`,
    ];
  }
  return undefined;
}

// What iproute2 says when the kernel lacks the link type or the transform.
const ABSENT_RE = /Unknown device type|Requested type not found|Protocol not supported|not supported|No such file or directory/i;

/** `true`: present; `false`: absent; a string: the probe itself failed (no root, no `unshare`). */
export function readKernelProbe(result: Pick<ExecResult, 'code' | 'stderr'>): boolean | string {
  if (result.code === 0) return true;
  if (ABSENT_RE.test(result.stderr)) return false;
  return result.stderr.trim() || `exit ${result.code}`;
}

/** The userspace programs each type needs on a host. */
export const USERSPACE_PROGRAMS: Record<TunnelType, readonly string[]> = {
  wireguard: ['wireguard-go', 'wg'],
  ipsec: ['/usr/lib/ipsec/charon', 'swanctl'],
  openvpn: ['openvpn', 'openssl'],
};
export const KERNEL_PROGRAMS: Record<TunnelType, readonly string[]> = {
  wireguard: ['wg'],
  ipsec: ['/usr/lib/ipsec/charon', 'swanctl'],
  openvpn: [],
};

/** Pick the data path for `auto`, or check the one asked for: a kernel path asked for but absent is refused. */
export function chooseImplementation(tunnel: Pick<ResolvedTunnel, 'name' | 'type' | 'implementation'>, host: string, kernel: boolean | string): TunnelImplementation {
  if (tunnel.type === 'openvpn') {
    if (tunnel.implementation === 'kernel')
      throw new NetbenchError(`tunnel ${tunnel.name}: openvpn's kernel data path (DCO) is not supported; use implementation: userspace or auto`);
    return 'userspace';
  }
  if (tunnel.implementation === 'userspace') return 'userspace';
  if (kernel === true) return 'kernel';
  if (tunnel.implementation === 'auto') return 'userspace';
  const what = tunnel.type === 'wireguard' ? 'WireGuard module' : 'ESP (XFRM) support';
  const why = kernel === false ? `this kernel has no ${what}` : `probing for ${what} failed: ${kernel}`;
  throw new NetbenchError(`tunnel ${tunnel.name}: implementation: kernel asked for, but on host ${host} ${why}; use implementation: userspace (or auto)`);
}

/** Probe one host and choose its implementation; check the programs it then needs are there. */
export async function detectImplementation(host: Host, tunnel: ResolvedTunnel, signal: AbortSignal): Promise<TunnelImplementation> {
  const probe = tunnel.implementation === 'userspace' ? undefined : kernelProbeArgv(tunnel.type);
  const kernel = probe ? readKernelProbe(await host.exec(probe, { timeoutMs: 15_000, signal })) : false;
  const chosen = chooseImplementation(tunnel, host.id, kernel);
  const programs = (chosen === 'kernel' ? KERNEL_PROGRAMS : USERSPACE_PROGRAMS)[tunnel.type];
  const found = await host.exec(['sh', '-c', 'for p in "$@"; do command -v "$p" >/dev/null 2>&1 || echo "$p"; done', 'sh', ...programs], { timeoutMs: 15_000, signal });
  const missing = found.stdout.split('\n').filter(Boolean);
  if (found.code !== 0 || missing.length > 0) {
    throw new NetbenchError(
      `tunnel ${tunnel.name}: host ${host.id} lacks ${missing.join(', ') || 'a shell'} for a ${chosen} ${tunnel.type} tunnel (Debian: ${PACKAGES[tunnel.type]})`,
    );
  }
  return chosen;
}

const PACKAGES: Record<TunnelType, string> = {
  wireguard: 'wireguard-tools, wireguard-go',
  ipsec: 'strongswan-charon, strongswan-swanctl, libcharon-extra-plugins; AES-GCM ESP also needs libstrongswan-standard-plugins',
  openvpn: 'openvpn, openssl',
};
