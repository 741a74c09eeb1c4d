import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { utils } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keygen } from '../testing/lab-sshd.js';
import { loginKey } from './login-key.js';

describe('loginKey', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nbt-cloud-login-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a new P-256 key (0600) whose public line OpenSSH derives the same', async () => {
    const key = await loginKey(dir, 'run-key.pem', 'netbench-run1');
    expect(key.privateKeyPath).toBe(join(dir, 'run-key.pem'));
    expect((await stat(key.privateKeyPath)).mode & 0o777).toBe(0o600);
    const derived = execFileSync('ssh-keygen', ['-y', '-f', key.privateKeyPath], { encoding: 'utf8' }).trim();
    expect(key.publicKey).toBe(`${derived.split(' ').slice(0, 2).join(' ')} netbench-run1`);
    expect(key.publicKey).toMatch(/^ecdsa-sha2-nistp256 AAAA/);
  });

  it("reuses the run's key on later calls", async () => {
    const first = await loginKey(dir, 'shared.pem', 'c');
    const [second, third] = await Promise.all([loginKey(dir, 'shared.pem', 'c'), loginKey(dir, 'shared.pem', 'c')]);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
  });

  it("takes the user's own key and its .pub as they are", async () => {
    const own = join(dir, 'id_ed25519');
    const line = await keygen(own);
    expect(await loginKey(dir, 'unused.pem', 'c', own)).toEqual({ publicKey: line, privateKeyPath: own });
    await writeFile(join(dir, 'lonely'), 'no pub beside me');
    await expect(loginKey(dir, 'unused.pem', 'c', join(dir, 'lonely'))).rejects.toThrow(/lonely\.pub/);
  });
});

describe('loginKey ed25519', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nbt-cloud-login-ed-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a new Ed25519 key (0600, OpenSSH format) whose public line OpenSSH derives the same', async () => {
    const key = await loginKey(dir, 'run-key', 'netbench-run2', undefined, 'ed25519');
    expect((await stat(key.privateKeyPath)).mode & 0o777).toBe(0o600);
    expect(key.publicKey).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]{43} netbench-run2$/);
    const derived = execFileSync('ssh-keygen', ['-y', '-f', key.privateKeyPath], { encoding: 'utf8' }).trim();
    expect(key.publicKey).toBe(`${derived.split(' ').slice(0, 2).join(' ')} netbench-run2`);
    // A later call of the run reads the same key back.
    expect(await loginKey(dir, 'run-key', 'netbench-run2', undefined, 'ed25519')).toEqual(key);
  });

  it('ssh2 (the transport) reads the key and signs with it; the signature verifies against the public line', async () => {
    const key = await loginKey(dir, 'ssh2-key', 'c', undefined, 'ed25519');
    const parsed = utils.parseKey(await readFile(key.privateKeyPath));
    if (parsed instanceof Error || Array.isArray(parsed)) throw parsed instanceof Error ? parsed : new Error('several keys');
    expect(parsed.type).toBe('ssh-ed25519');
    const pub = utils.parseKey(key.publicKey);
    if (pub instanceof Error || Array.isArray(pub)) throw new Error('public key not parsed');
    const data = Buffer.from('netbench');
    expect(pub.verify(data, parsed.sign(data) as Buffer)).toBe(true);
    expect(pub.verify(Buffer.from('other'), parsed.sign(data) as Buffer)).toBe(false);
  });

  it('signs with the key (ssh-keygen -Y sign, verified against the public line)', async () => {
    const key = await loginKey(dir, 'sign-key', 'c', undefined, 'ed25519');
    await writeFile(join(dir, 'msg'), 'hello');
    execFileSync('ssh-keygen', ['-Y', 'sign', '-q', '-f', key.privateKeyPath, '-n', 'file', join(dir, 'msg')]);
    await writeFile(join(dir, 'allowed'), `me ${key.publicKey}\n`);
    const out = execFileSync('ssh-keygen', ['-Y', 'verify', '-f', join(dir, 'allowed'), '-I', 'me', '-n', 'file', '-s', join(dir, 'msg.sig')], {
      input: 'hello',
      encoding: 'utf8',
    });
    expect(out).toMatch(/Good "file" signature for me/);
  });
});
