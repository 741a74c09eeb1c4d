import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loginKey } from '@netbench/plugin-api/cloud-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { hostSchema, RESERVED_ADMIN_NAMES } from './host-schema.js';
import { azureKeyProblem, checkAzureKey, rsaBits } from './login-key-type.js';

const dir = mkdtempSync(join(tmpdir(), 'nbt-azure-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const keygen = (name: string, ...args: string[]) => {
  execFileSync('ssh-keygen', ['-q', '-N', '', '-C', 'c', '-f', join(dir, name), ...args]);
  return readFileSync(join(dir, `${name}.pub`), 'utf8').trim();
};

describe('Azure login keys: RSA >= 2048 bits or Ed25519', () => {
  it('takes Ed25519 and RSA of 2048 bits and more', () => {
    expect(azureKeyProblem(keygen('ed', '-t', 'ed25519'))).toBeUndefined();
    const rsa = keygen('rsa2048', '-t', 'rsa', '-b', '2048');
    expect(rsaBits(rsa.split(' ')[1]!)).toBe(2048);
    expect(azureKeyProblem(rsa)).toBeUndefined();
  });

  it('refuses ECDSA (the cloud kit default), DSA-like types and short RSA, saying what Azure takes', () => {
    expect(azureKeyProblem(keygen('ec', '-t', 'ecdsa', '-b', '256'))).toMatch(/ecdsa-sha2-nistp256 key; Azure accepts only ssh-rsa \(at least 2048 bits\) or ssh-ed25519/);
    const short = keygen('rsa1024', '-t', 'rsa', '-b', '1024');
    expect(rsaBits(short.split(' ')[1]!)).toBe(1024);
    expect(azureKeyProblem(short)).toMatch(/1024-bit RSA key/);
    expect(() => checkAzureKey(short, join(dir, 'rsa1024'))).toThrow(/rsa1024\.pub is an 1024-bit RSA key/);
  });

  it('the key loginKey makes for Azure is one Azure takes (the ECDSA default is not)', async () => {
    expect(azureKeyProblem((await loginKey(dir, 'azure-key', 'c', undefined, 'ed25519')).publicKey)).toBeUndefined();
    expect(azureKeyProblem((await loginKey(dir, 'default-key', 'c')).publicKey)).toMatch(/ecdsa/);
  });
});

describe('sshUser: Azure reserved admin names', () => {
  const parse = (sshUser: string) => hostSchema.safeParse({ zone: 'eastus', sshUser });

  it.each(['root', 'admin', 'user', 'test', 'guest', 'administrator', 'support_388945a0'])('refuses %s with a clear message at sshUser', (name) => {
    const result = parse(name);
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([expect.objectContaining({ path: ['sshUser'], message: expect.stringMatching(/Azure reserves this admin user name/) })]);
  });

  it('takes the default and ordinary names', () => {
    expect(hostSchema.parse({ zone: 'eastus' }).sshUser).toBe('netbench');
    for (const name of ['azureuser', 'ubuntu', 'roots', 'bench_1']) expect(parse(name).success).toBe(true);
    expect(RESERVED_ADMIN_NAMES.size).toBe(32);
  });
});
