import { describe, expect, it } from 'vitest';
import { hostSchema } from './host-schema.js';
import { sshOptions } from './ssh-options.js';

const request = (config: Record<string, unknown>) => ({ id: 'db', name: 'db', cloud: 'static', config: hostSchema.parse(config) });

describe('static host fields', () => {
  it('maps a host to the transport options: internal address, host key policy, bastion, retries', () => {
    const options = sshOptions(
      request({
        address: '203.0.113.7',
        port: 2222,
        user: 'bench',
        key: '~/.ssh/id_ed25519',
        internalAddress: '10.0.0.7',
        zone: 'rack-3',
        knownHosts: '/etc/netbench/known_hosts',
        jump: { address: 'bastion.example', key: '/k' },
        connectRetry: { attempts: 10 },
        connectTimeout: 2.5,
      }),
    );
    expect(options).toMatchObject({
      address: '203.0.113.7',
      port: 2222,
      user: 'bench',
      internalIp: '10.0.0.7',
      externalIp: '203.0.113.7',
      zone: 'rack-3',
      hostKey: { mode: 'known-hosts', file: '/etc/netbench/known_hosts' },
      jump: { address: 'bastion.example', user: 'bench', privateKeyPath: '/k', hostKey: { mode: 'known-hosts' } },
      connectRetry: { attempts: 10, initialDelayMs: 500, maxDelayMs: 5000 },
      readyTimeoutMs: 2500,
    });
    expect(options.privateKeyPath).toMatch(/^\/.*\/\.ssh\/id_ed25519$/);
  });

  it('uses the connect address inside when no internal one is given, and pins hostKeys', () => {
    const options = sshOptions(request({ address: '10.1.1.1', hostKeys: ['SHA256:abc'] }));
    expect(options).toMatchObject({ internalIp: '10.1.1.1', externalIp: undefined, hostKey: { mode: 'pinned', keys: ['SHA256:abc'], source: 'hosts.db.hostKeys' } });
  });

  it('reads the passphrase from the named environment variable', () => {
    process.env.NBT_STATIC_PASS = 'from env';
    expect(sshOptions(request({ address: 'x', key: '/k', passphraseEnv: 'NBT_STATIC_PASS' })).passphrase).toBe('from env');
    delete process.env.NBT_STATIC_PASS;
  });

  it('refuses unknown fields, bad ports, conflicting choices', () => {
    for (const bad of [
      { address: 'x', password: 'no' },
      { address: 'x', port: 0 },
      { address: 'x', port: 70000 },
      {},
      { address: 'x', passphrase: 'a', passphraseEnv: 'B' },
      { address: 'x', knownHosts: '/k', hostKeys: ['SHA256:x'] },
      { address: 'x', passphraseEnv: 'not a name' },
      { address: 'x', jump: { address: 'b', proxy: 1 } },
      { address: 'x', connectRetry: { attempts: 0 } },
    ])
      expect(hostSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('takes only addresses as addresses: nothing a tool could read as an option (fping -f reads a file)', () => {
    for (const field of [
      { address: '-f/etc/passwd' },
      { address: 'x', internalAddress: '-f/etc/passwd' },
      { address: 'x', internalAddress: '10.0.0.7 -c' },
      { address: 'x', jump: { address: '-oProxyCommand=x' } },
      { address: '--help' },
      { address: 'x', internalAddress: '' },
    ]) {
      const result = hostSchema.safeParse(field);
      expect(result.success, JSON.stringify(field)).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/expected an IP address or a host name/);
    }
    for (const good of ['10.0.0.7', 'fd00::7', 'db-1.rack3.example', 'localhost']) expect(hostSchema.safeParse({ address: good, internalAddress: good }).success, good).toBe(true);
  });
});
