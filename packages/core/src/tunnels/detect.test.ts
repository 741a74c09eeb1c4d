import { spawnSync } from 'node:child_process';
import { processHost } from '@netbench/plugin-api';
import { describe, expect, test } from 'vitest';
import { detectImplementation, kernelProbeArgv, readKernelProbe } from './detect.js';
import { resolveTunnel, type TunnelType, tunnelSchema } from './tunnel-schema.js';

// The real probes on this machine's kernel (root: `unshare --net`), through a Host like any other.
const root = process.getuid?.() === 0;
const host = processHost({ id: 'here', name: 'here', cloud: 'local', internalIp: '127.0.0.1' });
const tunnel = (type: TunnelType, implementation: 'auto' | 'kernel' | 'userspace') =>
  resolveTunnel(tunnelSchema.parse({ name: 't', type, between: ['a', 'b'], implementation }), 0);
const probe = (type: TunnelType) => {
  const argv = kernelProbeArgv(type)!;
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
  return readKernelProbe({ code: r.status, stderr: r.stderr });
};
const programs = (names: string[]) => names.every((p) => spawnSync('sh', ['-c', 'command -v "$1"', 'sh', p]).status === 0);

describe.skipIf(!root)('kernel data paths probed on this machine', () => {
  test('the probes give a definite answer (present or absent), never a probe failure, and leave no namespace or link behind', () => {
    const before = spawnSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' }).stdout;
    for (const type of ['wireguard', 'ipsec'] as const) expect(typeof probe(type), type).toBe('boolean');
    expect(spawnSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' }).stdout).toBe(before);
  });

  test.skipIf(probe('wireguard') !== false)('no WireGuard module here: kernel is refused before anything is made, auto falls back to userspace', async () => {
    const signal = new AbortController().signal;
    await expect(detectImplementation(host, tunnel('wireguard', 'kernel'), signal)).rejects.toThrow(
      'tunnel t: implementation: kernel asked for, but on host here this kernel has no WireGuard module; use implementation: userspace (or auto)',
    );
    if (programs(['wireguard-go', 'wg'])) expect(await detectImplementation(host, tunnel('wireguard', 'auto'), signal)).toBe('userspace');
  });

  test.skipIf(probe('ipsec') !== false)('no ESP here: kernel is refused, auto falls back to kernel-libipsec', async () => {
    const signal = new AbortController().signal;
    await expect(detectImplementation(host, tunnel('ipsec', 'kernel'), signal)).rejects.toThrow(
      'tunnel t: implementation: kernel asked for, but on host here this kernel has no ESP (XFRM) support; use implementation: userspace (or auto)',
    );
    if (programs(['/usr/lib/ipsec/charon', 'swanctl'])) expect(await detectImplementation(host, tunnel('ipsec', 'auto'), signal)).toBe('userspace');
  });

  test('OpenVPN: DCO is refused whatever the kernel has', async () => {
    await expect(detectImplementation(host, tunnel('openvpn', 'kernel'), new AbortController().signal)).rejects.toThrow(/openvpn's kernel data path \(DCO\) is not supported/);
  });
});
