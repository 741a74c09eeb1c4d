// `trustHost` against a real sshd on 127.0.0.1 (the lab's): the fingerprint
// it shows is the one ssh-keygen computes from the server's key file, and a
// key it recorded is one connectSshHost then accepts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keygen, type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSshHost } from './connect-ssh-host.js';
import { trustHost } from './trust-host.js';

const dir = mkdtempSync(join(tmpdir(), 'nbt-trust-'));
let sshd: LabSshd;
let fingerprint: string;
let loginKey: string;

beforeAll(async () => {
  loginKey = join(dir, 'login');
  sshd = await startSshd(dir, await keygen(loginKey));
  // What the user would read on the machine: ssh-keygen's own fingerprint of the host key file.
  fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', join(dir, 'host_ed25519.pub')], { encoding: 'utf8' }).split(/\s+/)[1]!;
  expect(fingerprint).toMatch(/^SHA256:/);
});
afterAll(async () => {
  await sshd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const fresh = (name: string) => join(dir, name, '.ssh', 'known_hosts');

describe('netbench hosts trust (trustHost)', () => {
  it('shows the fingerprint ssh-keygen computes and records nothing when the user declines', async () => {
    const file = fresh('declined');
    const shown: string[] = [];
    const result = await trustHost({
      address: '127.0.0.1',
      port: sshd.port,
      knownHosts: file,
      confirm: async (key, where) => {
        shown.push(`${key.keyType} ${key.fingerprint} ${where}`);
        return false;
      },
    });
    expect(shown).toEqual([`ssh-ed25519 ${fingerprint} ${file}`]);
    expect(result).toMatchObject({ status: 'declined', fingerprint, keyType: 'ssh-ed25519' });
    expect(existsSync(file)).toBe(false);
  });

  it('records a confirmed key in a known_hosts whose folder did not exist (owner-only), and SSH then trusts it', async () => {
    const file = fresh('confirmed');
    const result = await trustHost({ address: '127.0.0.1', port: sshd.port, knownHosts: file, confirm: async () => true });
    expect(result.status).toBe('recorded');
    const [host, type, key] = readFileSync(file, 'utf8').trim().split(' ');
    expect([host, `${type} ${key}`]).toEqual([`[127.0.0.1]:${sshd.port}`, sshd.hostKeyLine.split(' ').slice(0, 2).join(' ')]);
    expect(statSync(join(dir, 'confirmed', '.ssh')).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const ssh = await connectSshHost({
      id: 'h',
      name: 'h',
      cloud: 'static',
      internalIp: '127.0.0.1',
      address: '127.0.0.1',
      port: sshd.port,
      user: 'root',
      privateKeyPath: loginKey,
      hostKey: { mode: 'known-hosts', file },
    });
    try {
      expect((await ssh.exec(['echo', 'trusted'])).stdout).toBe('trusted\n');
    } finally {
      await ssh.close?.();
    }
    // Again: already there, not written twice.
    expect((await trustHost({ address: '127.0.0.1', port: sshd.port, knownHosts: file, confirm: async () => true })).status).toBe('already-trusted');
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('with a fingerprint instead of a prompt: records it only when it matches', async () => {
    const file = fresh('pinned');
    await expect(trustHost({ address: '127.0.0.1', port: sshd.port, knownHosts: file, fingerprint: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).rejects.toThrow(
      `offers ssh-ed25519 ${fingerprint}, not the SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA you gave: nothing recorded`,
    );
    expect(existsSync(file)).toBe(false);
    expect((await trustHost({ address: '127.0.0.1', port: sshd.port, knownHosts: file, fingerprint: `${fingerprint}=` })).status).toBe('recorded');
    expect(readFileSync(file, 'utf8')).toContain(sshd.hostKeyLine.split(' ')[1]);
  });

  it('never replaces a different recorded key, refuses a non-address, and needs a confirmation', async () => {
    const file = join(dir, 'other_known_hosts');
    const otherKey = (await keygen(join(dir, 'other'))).split(' ').slice(0, 2).join(' ');
    writeFileSync(file, `[127.0.0.1]:${sshd.port} ${otherKey}\n`);
    await expect(trustHost({ address: '127.0.0.1', port: sshd.port, knownHosts: file, confirm: async () => true })).rejects.toThrow(
      /HOST KEY MISMATCH: .*Nothing recorded.*ssh-keygen -R/,
    );
    expect(readFileSync(file, 'utf8')).toBe(`[127.0.0.1]:${sshd.port} ${otherKey}\n`);
    await expect(trustHost({ address: '-oProxyCommand=x', knownHosts: file, confirm: async () => true })).rejects.toThrow(
      'host "-oProxyCommand=x" is not an IP address or host name',
    );
    await expect(trustHost({ address: '127.0.0.1', port: sshd.port, knownHosts: file })).rejects.toThrow(/needs a confirmation/);
  });
});
