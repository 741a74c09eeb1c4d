import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSshKeyPair, writeKeyPair } from './ssh-key.js';

describe('generateSshKeyPair', () => {
  it('writes an OpenSSH private key that ssh-keygen reads back to the same public key, mode 600', async () => {
    const key = generateSshKeyPair('netbench-test');
    expect(key.publicKey).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]{43} netbench-test$/);
    const { privateKeyPath } = await writeKeyPair(join(mkdtempSync(join(tmpdir(), 'nb-aws-key-')), 'aws'), key);
    expect(statSync(privateKeyPath).mode & 0o777).toBe(0o600);
    // ssh-keygen -y derives the public key from the private key file: proof the container is valid.
    const derived = execFileSync('ssh-keygen', ['-y', '-f', privateKeyPath], { encoding: 'utf8' }).trim();
    expect(derived.split(' ').slice(0, 2)).toEqual(key.publicKey.split(' ').slice(0, 2));
    expect(generateSshKeyPair('x').publicKey).not.toBe(key.publicKey);
  });
});
