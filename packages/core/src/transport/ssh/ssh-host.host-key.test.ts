import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSshHost } from './connect-ssh-host.js';
import type { SshHostKeyPolicy, SshHostOptions } from './ssh-host-options.js';
import { startTestSshd, type TestSshd } from './test-support/test-sshd.js';

let sshd: TestSshd;
let fingerprint: string;
const fixtures = join(import.meta.dirname, '__fixtures__');
const otherKey = readFileSync(join(fixtures, 'key_a.pub'), 'utf8').trim();
const rsaKey = readFileSync(join(fixtures, 'key_r.pub'), 'utf8').trim();

const options = (hostKey: SshHostKeyPolicy): SshHostOptions => ({
  id: 'h',
  name: 'h',
  cloud: 'static',
  internalIp: '127.0.0.1',
  address: '127.0.0.1',
  port: sshd.port,
  user: 'root',
  privateKeyPath: sshd.clientKey,
  hostKey,
  connectRetry: { attempts: 3, initialDelayMs: 200, maxDelayMs: 200 },
});

/** Connect, run `true`, close; resolves to the verification mode. */
async function tryConnect(hostKey: SshHostKeyPolicy): Promise<string> {
  const host = await connectSshHost(options(hostKey));
  try {
    expect((await host.exec(['true'])).code).toBe(0);
    return host.hostKeyVerification;
  } finally {
    await host.close();
  }
}

beforeAll(async () => {
  sshd = await startTestSshd();
  fingerprint = execFileSync('ssh-keygen', ['-lf', sshd.knownHosts], { encoding: 'utf8' }).split(' ')[1]!;
});
afterAll(async () => {
  await sshd?.stop();
});

describe('host key verification', () => {
  const file = (name: string, text: string) => {
    const path = join(sshd.dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('accepts the key recorded in known_hosts, also when the file is hashed', async () => {
    const hashed = join(sshd.dir, 'hashed');
    copyFileSync(sshd.knownHosts, hashed);
    execFileSync('ssh-keygen', ['-H', '-f', hashed], { stdio: 'ignore' });
    expect(readFileSync(hashed, 'utf8')).toMatch(/^\|1\|/);
    expect(await tryConnect({ mode: 'known-hosts', file: hashed })).toBe('known-hosts');
  });

  it('refuses a different key at once, showing the offered fingerprint and what to do', async () => {
    const wrong = file('wrong', `[127.0.0.1]:${sshd.port} ${otherKey}\n`);
    const logins = sshd.acceptedLogins();
    const began = Date.now();
    const error = await tryConnect({ mode: 'known-hosts', file: wrong }).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('HOST KEY MISMATCH');
    expect((error as Error).message).toContain(fingerprint);
    expect((error as Error).message).toContain(`${wrong}:1 records ssh-ed25519 SHA256:VBhGaGNBvXXz6wW7isI4jrOQINbuXrOe4+zk0J9qyr0`);
    expect((error as Error).message).toContain(`ssh-keygen -R '[127.0.0.1]:${sshd.port}'`);
    expect(Date.now() - began).toBeLessThan(1500); // not retried
    expect(sshd.acceptedLogins()).toBe(logins);
  });

  it('refuses a host missing from known_hosts with the command to add it', async () => {
    const empty = file('empty', '# nothing\n');
    await expect(tryConnect({ mode: 'known-hosts', file: empty })).rejects.toThrow(
      new RegExp(`is not in .*empty: it offered ssh-ed25519 ${fingerprint.replace(/[+/]/g, '\\$&')}.*ssh-keyscan -p ${sshd.port} -t ed25519 127\\.0\\.0\\.1`),
    );
    // The way to add it: netbench's own confirm-then-record command, or keyscan after making the folder (it may not exist).
    const message = String(await tryConnect({ mode: 'known-hosts', file: empty }).catch((e: unknown) => e));
    expect(message).toContain(`netbench hosts trust 127.0.0.1 --port ${sshd.port} --known-hosts ${empty} (shows the fingerprint and records it once you confirm)`);
    expect(message).toContain(`or: mkdir -p -m 700 ${dirname(empty)} && ssh-keyscan -p ${sshd.port} -t ed25519 127.0.0.1 >> ${empty}`);
    expect(message).not.toMatch(/[^&] ssh-keyscan/);
  });

  it('refuses when known_hosts has only keys of another type for the host', async () => {
    const rsaOnly = file('rsa-only', `[127.0.0.1]:${sshd.port} ${rsaKey}\n`);
    await expect(tryConnect({ mode: 'known-hosts', file: rsaOnly })).rejects.toThrow(/offers no host key of the types recorded for it \(rsa-sha2-512/);
  });

  it('refuses a @revoked key', async () => {
    const revoked = file('revoked', `@revoked [127.0.0.1]:${sshd.port} ${sshd.hostKeyLine}\n${readFileSync(sshd.knownHosts, 'utf8')}`);
    await expect(tryConnect({ mode: 'known-hosts', file: revoked })).rejects.toThrow(/marks @revoked/);
  });

  it('pinned: accepts a matching key line or fingerprint, refuses others naming the source', async () => {
    expect(await tryConnect({ mode: 'pinned', keys: [otherKey, sshd.hostKeyLine], source: 'serial console of i-1' })).toBe('pinned');
    expect(await tryConnect({ mode: 'pinned', keys: [fingerprint], source: 'serial console of i-1' })).toBe('pinned');
    await expect(tryConnect({ mode: 'pinned', keys: [otherKey], source: 'serial console of i-1' })).rejects.toThrow(
      new RegExp(`HOST KEY MISMATCH: .*offered ssh-ed25519 ${fingerprint.replace(/[+/]/g, '\\$&')}, but the keys from serial console of i-1`),
    );
    await expect(tryConnect({ mode: 'pinned', keys: [], source: 'nowhere' })).rejects.toThrow(/no pinned host keys/);
  });

  it('tofu: records the first key, accepts it again, refuses a different one later', async () => {
    const record = join(sshd.dir, 'run', 'known_hosts');
    expect(await tryConnect({ mode: 'tofu', recordFile: record })).toBe('tofu');
    const recorded = readFileSync(record, 'utf8');
    expect(recorded).toMatch(new RegExp(`^\\[127\\.0\\.0\\.1\\]:${sshd.port} ssh-ed25519 ${sshd.hostKeyLine.split(' ')[1]!.replace(/[+/]/g, '\\$&')} netbench-tofu `));
    expect(await tryConnect({ mode: 'tofu', recordFile: record })).toBe('tofu');
    expect(readFileSync(record, 'utf8')).toBe(recorded);
    writeFileSync(record, `[127.0.0.1]:${sshd.port} ${otherKey}\n`);
    await expect(tryConnect({ mode: 'tofu', recordFile: record })).rejects.toThrow(/HOST KEY CHANGED: .*on first use it offered ssh-ed25519 SHA256:VBhG/);
  });
});
