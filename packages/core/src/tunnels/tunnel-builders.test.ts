import { describe, expect, test } from 'vitest';
import { chooseImplementation, kernelProbeArgv, readKernelProbe } from './detect.js';
import { endpointIface, makeEndpoint } from './endpoint.js';
import { charonArgv, parseTunDevice, strongswanConf, swanctlConf } from './ipsec.js';
import { openvpnArgv, parseFingerprint } from './openvpn.js';
import { endpointData, tunnelLabels } from './running-tunnel.js';
import { resolveTunnel, tunnelSchema } from './tunnel-schema.js';
import { wgCreateArgv, wgSetArgv, wireguardSocket } from './wireguard.js';

const RUN = '20261125-043501-tysxax';
const wg = resolveTunnel(tunnelSchema.parse({ name: 'wg', type: 'wireguard', between: ['a', 'b'] }), 2);
const ovpn = resolveTunnel(tunnelSchema.parse({ name: 'ovpn', type: 'openvpn', between: ['a', 'b'], cipher: 'CHACHA20-POLY1305', mtu: 1300, port: 1200 }), 0);
const ipsec = resolveTunnel(tunnelSchema.parse({ name: 'ipsec', type: 'ipsec', between: ['a', 'b'], ike: 1, cipher: 'aes256-sha256', subnet: '10.99.7.0/24' }), 0);

describe('resolved tunnels', () => {
  test('defaults per type, addresses from the subnet or the tunnel index', () => {
    expect(wg).toMatchObject({ cipher: 'chacha20poly1305', mtu: 1420, port: 51820, addresses: ['10.249.2.1', '10.249.2.2'], implementation: 'auto' });
    expect(ovpn).toMatchObject({ cipher: 'CHACHA20-POLY1305', mtu: 1300, port: 1200 });
    expect(ipsec).toMatchObject({ ike: 1, ikeProposal: 'aes128-sha256-modp2048', mtu: 1400, addresses: ['10.99.7.1', '10.99.7.2'] });
  });

  test('interface names are unique per run, tunnel and side, and fit 15 characters', () => {
    const names = [endpointIface(RUN, wg, 0), endpointIface(RUN, wg, 1), endpointIface(RUN, ovpn, 0), endpointIface('20261125-043501-other0', wg, 0)];
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(/^nb[wio][0-9a-f]{8}[ab]$/);
  });
});

describe('argv and configs', () => {
  const a = makeEndpoint(RUN, wg, 0, 'a', '10.213.0.1', '10.213.0.2');
  const b = makeEndpoint(RUN, wg, 1, 'b', '10.213.0.2', '10.213.0.1');

  test('WireGuard: a kernel link or wireguard-go under the pid-file wrapper; the peer by its public key', () => {
    expect(a.dir).toBe(`/dev/shm/netbench-${RUN}/wg-a`);
    expect(wgCreateArgv(a, 'kernel')).toEqual(['ip', 'link', 'add', 'dev', a.iface, 'type', 'wireguard']);
    const userspace = wgCreateArgv(a, 'userspace');
    expect(userspace.slice(0, 3)).toEqual(['setsid', '-f', 'sh']);
    expect(userspace.slice(-3)).toEqual(['wireguard-go', '-f', a.iface]);
    expect(userspace).toContain(`${a.dir}/wireguard-go.pid`);
    const key = 'T77Az9hUp6DqajkzAqETC+tGL9yVK7iQWEhGFiefDyA=';
    expect(wgSetArgv(a, wg, key)).toEqual([
      'wg',
      'set',
      a.iface,
      'listen-port',
      '51820',
      'private-key',
      `${a.dir}/private.key`,
      'peer',
      key,
      'endpoint',
      '10.213.0.2:51820',
      'allowed-ips',
      '10.249.2.2/32',
    ]);
    expect(wireguardSocket(b.iface)).toBe(`/var/run/wireguard/${b.iface}.sock`);
  });

  test('OpenVPN: the first end is the TLS server, both pin the peer, the cipher and MTU are passed on', () => {
    const oa = makeEndpoint(RUN, ovpn, 0, 'a', '10.213.0.1', '10.213.0.2');
    const ob = makeEndpoint(RUN, ovpn, 1, 'b', '10.213.0.2', '10.213.0.1');
    const server = openvpnArgv(oa, ovpn, 'AA:BB');
    const client = openvpnArgv(ob, ovpn, 'CC:DD');
    const after = (argv: string[], flag: string) => argv[argv.indexOf(flag) + 1];
    expect(server).toContain('--tls-server');
    expect(server).not.toContain('--tls-client');
    expect(client).toContain('--tls-client');
    expect(after(server, '--peer-fingerprint')).toBe('AA:BB');
    expect(after(server, '--data-ciphers')).toBe('CHACHA20-POLY1305');
    expect(after(server, '--tun-mtu')).toBe('1300');
    expect(after(server, '--lport')).toBe('1200');
    expect(server.slice(server.indexOf('--ifconfig'), server.indexOf('--ifconfig') + 3)).toEqual(['--ifconfig', '10.249.0.1', '10.249.0.2']);
    expect(server).toContain('--disable-dco');
    expect(parseFingerprint('sha256 Fingerprint=2C:88:35:AB:DF:C7:48:15:3B:2F:68:A3:2D:2E:38:33:06:CF:56:6C:D6:19:C8:88:F6:DD:1E:FB:A4:5C:18:08\n')).toBe(
      '2C:88:35:AB:DF:C7:48:15:3B:2F:68:A3:2D:2E:38:33:06:CF:56:6C:D6:19:C8:88:F6:DD:1E:FB:A4:5C:18:08',
    );
    expect(parseFingerprint('unable to load certificate')).toBeUndefined();
  });

  test('IPsec: kernel-libipsec only in userspace, IKE version and proposals, the PSK only in swanctl.conf', () => {
    const ia = makeEndpoint(RUN, ipsec, 0, 'a', '10.213.0.1', '10.213.0.2');
    expect(strongswanConf(ia, ipsec, 'userspace')).toMatch(/load = .*kernel-libipsec kernel-netlink socket-default vici/);
    expect(strongswanConf(ia, ipsec, 'kernel')).not.toMatch(/load = .*kernel-libipsec/);
    expect(strongswanConf(ia, ipsec, 'kernel')).toContain(`socket = unix://${ia.dir}/charon.vici`);
    expect(strongswanConf(ia, ipsec, 'userspace')).toMatch(/port = 500\n\s+port_nat_t = 4500\n/);
    const second = resolveTunnel(tunnelSchema.parse({ name: 'ipsec2', type: 'ipsec', between: ['a', 'b'], port: 1500 }), 1);
    expect(strongswanConf(ia, second, 'userspace')).toMatch(/port = 1500\n\s+port_nat_t = 1501\n/);
    expect(swanctlConf(ia, second, 'ab'.repeat(32))).toContain('remote_port = 1500');
    const conf = swanctlConf(ia, ipsec, 'ab'.repeat(32));
    expect(conf).toContain('version = 1');
    expect(conf).toContain('proposals = aes128-sha256-modp2048');
    expect(conf).toContain('esp_proposals = aes256-sha256');
    expect(conf).toContain('local_ts = 10.99.7.1/32');
    expect(conf).toContain('remote_ts = 10.99.7.2/32');
    expect(conf).toContain(`secret = 0x${'ab'.repeat(32)}`);
    expect(strongswanConf(ia, ipsec, 'userspace')).not.toContain('ab'.repeat(32));
    const charon = charonArgv(ia);
    expect(charon.slice(0, 7)).toEqual(['setsid', '-f', 'unshare', '--mount', '--propagation', 'private', '--']);
    expect(charon.slice(-2)).toEqual([`STRONGSWAN_CONF=${ia.dir}/strongswan.conf`, '/usr/lib/ipsec/charon']);
    expect(parseTunDevice('2026-11-25 04:35:02 00[LIB] created TUN device: ipsec0\n')).toBe('ipsec0');
    expect(parseTunDevice('00[LIB] failed to create TUN device\n')).toBeUndefined();
  });
});

describe('kernel detection', () => {
  test('the probes create something only a kernel with the data path accepts, in a throwaway namespace', () => {
    expect(kernelProbeArgv('wireguard')).toEqual(['unshare', '--net', '--', 'ip', 'link', 'add', 'dev', 'nbprobe0', 'type', 'wireguard']);
    expect(kernelProbeArgv('ipsec')?.slice(0, 9)).toEqual(['unshare', '--net', '--', 'ip', 'xfrm', 'state', 'add', 'src', '192.0.2.1']);
    expect(kernelProbeArgv('openvpn')).toBeUndefined();
  });

  test('iproute2 answers: present, absent, or the probe could not run', () => {
    expect(readKernelProbe({ code: 0, stderr: '' })).toBe(true);
    expect(readKernelProbe({ code: 2, stderr: 'Error: Unknown device type.\n' })).toBe(false);
    expect(readKernelProbe({ code: 2, stderr: 'Error: Requested type not found.\n' })).toBe(false);
    expect(readKernelProbe({ code: 1, stderr: 'unshare: unshare failed: Operation not permitted\n' })).toBe('unshare: unshare failed: Operation not permitted');
  });

  test('auto takes the kernel where present; an explicit kernel path that is absent is refused, saying why', () => {
    expect(chooseImplementation(wg, 'a', true)).toBe('kernel');
    expect(chooseImplementation(wg, 'a', false)).toBe('userspace');
    expect(chooseImplementation({ ...wg, implementation: 'userspace' }, 'a', true)).toBe('userspace');
    expect(() => chooseImplementation({ ...wg, implementation: 'kernel' }, 'a', false)).toThrow(
      'tunnel wg: implementation: kernel asked for, but on host a this kernel has no WireGuard module; use implementation: userspace (or auto)',
    );
    expect(() => chooseImplementation({ ...ipsec, implementation: 'kernel' }, 'b', 'Operation not permitted')).toThrow(
      /probing for ESP \(XFRM\) support failed: Operation not permitted/,
    );
    expect(() => chooseImplementation({ ...ovpn, implementation: 'kernel' }, 'a', true)).toThrow(/DCO\) is not supported/);
    expect(chooseImplementation(ovpn, 'a', true)).toBe('userspace');
  });
});

describe('ledger entries and labels', () => {
  test('cleanup only undoes what lies in a netbench tunnel directory', () => {
    const ok = { dir: `/dev/shm/netbench-${RUN}/wg-a`, iface: 'nbw0123abcda', kernelLink: false, runId: RUN, tunnel: 'wg', type: 'wireguard', sameMachine: true };
    expect(endpointData({ type: 'tunnel-endpoint', id: 'wg-a', data: ok })).toEqual(ok);
    expect(endpointData({ type: 'tunnel-endpoint', id: 'wg-a', data: { ...ok, dir: '/' } })).toBeUndefined();
    expect(endpointData({ type: 'tunnel-endpoint', id: 'wg-a', data: { ...ok, dir: `/dev/shm/netbench-${RUN}/../../etc-a` } })).toBeUndefined();
    expect(endpointData({ type: 'tunnel-endpoint', id: 'wg-a', data: { ...ok, iface: 'eth0; reboot' } })).toBeUndefined();
  });

  test('a sample says which tunnel, type, implementation, cipher and MTU it went through', () => {
    expect(tunnelLabels(undefined)).toEqual({ tunnel: 'none', tunnel_type: 'none' });
    expect(tunnelLabels({ tunnel: ipsec, hosts: ['a', 'b'], implementation: 'userspace', resources: [], up: true })).toEqual({
      tunnel: 'ipsec',
      tunnel_type: 'ipsec',
      tunnel_implementation: 'userspace',
      tunnel_cipher: 'aes256-sha256',
      tunnel_mtu: 1400,
      tunnel_ike: 'v1',
      tunnel_ike_proposal: 'aes128-sha256-modp2048',
    });
  });
});
