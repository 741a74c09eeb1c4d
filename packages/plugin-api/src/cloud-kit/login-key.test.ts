import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keygen } from '../testing/lab-sshd.js';
import { loginKey } from './login-key.js';

describe('loginKey', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'nbt-cloud-login-')); });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a new P-256 key (0600) whose public line OpenSSH derives the same', async () => {
    const key = await loginKey(dir, 'run-key.pem', 'netbench-run1');
    expect(key.privateKeyPath).toBe(join(dir, 'run-key.pem'));
    expect((await stat(key.privateKeyPath)).mode & 0o777).toBe(0o600);
    const derived = execFileSync('ssh-keygen', ['-y', '-f', key.privateKeyPath], { encoding: 'utf8' }).trim();
    expect(key.publicKey).toBe(`${derived.split(' ').slice(0, 2).join(' ')} netbench-run1`);
    expect(key.publicKey).toMatch(/^ecdsa-sha2-nistp256 AAAA/);
  });

  it('reuses the run\'s key on later calls', async () => {
    const first = await loginKey(dir, 'shared.pem', 'c');
    const [second, third] = await Promise.all([loginKey(dir, 'shared.pem', 'c'), loginKey(dir, 'shared.pem', 'c')]);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
  });

  it('takes the user\'s own key and its .pub as they are', async () => {
    const own = join(dir, 'id_ed25519');
    const line = await keygen(own);
    expect(await loginKey(dir, 'unused.pem', 'c', own)).toEqual({ publicKey: line, privateKeyPath: own });
    await writeFile(join(dir, 'lonely'), 'no pub beside me');
    await expect(loginKey(dir, 'unused.pem', 'c', join(dir, 'lonely'))).rejects.toThrow(/lonely\.pub/);
  });
});
