// node:crypto is loaded on first use: importing it cost every run ~9 ms of start-up, and a local run needs none of it.
const crypto = () => process.getBuiltinModule('node:crypto');

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newEd25519Key, openSshFilePublicKey } from './openssh-ed25519.js';

export interface LoginKey {
  /** OpenSSH public key line, `ecdsa-sha2-nistp256 AAAA... comment` (or `ssh-ed25519 …`). */
  readonly publicKey: string;
  /** Path of the private key file. */
  readonly privateKeyPath: string;
}

const sshString = (value: Buffer | string) => {
  const data = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
};

/** The kind of key `loginKey` makes: ECDSA P-256 (default) or Ed25519 (for clouds that refuse ECDSA, e.g. Azure). */
export type LoginKeyType = 'ecdsa-p256' | 'ed25519';

/**
 * A login key for the run's hosts: the user's own (`sshKeyPath`, with its
 * `.pub` beside it), else a new key of `type` written to the run folder
 * (mode 0600; ECDSA as SEC1 PEM, Ed25519 in OpenSSH's format — both read by
 * ssh2 and OpenSSH).
 */
export async function loginKey(runDir: string, fileName: string, comment: string, ownKeyPath?: string, type: LoginKeyType = 'ecdsa-p256'): Promise<LoginKey> {
  if (ownKeyPath) {
    const publicKey = (await readFile(`${ownKeyPath}.pub`, 'utf8')).trim();
    return { publicKey, privateKeyPath: ownKeyPath };
  }
  const path = join(runDir, fileName);
  try {
    // Several provision calls of one run (or a retry) share the run's key.
    const pem = await readFile(path, 'utf8');
    return { publicKey: publicKeyOf(pem, comment), privateKeyPath: path };
  } catch {
    const pem =
      type === 'ed25519'
        ? newEd25519Key(comment).privateKey
        : crypto().generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    await writeFile(path, pem, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    const saved = await readFile(path, 'utf8');
    return { publicKey: publicKeyOf(saved, comment), privateKeyPath: path };
  }
}

const publicKeyOf = (text: string, comment: string) => (text.includes('BEGIN OPENSSH PRIVATE KEY') ? openSshFilePublicKey(text, comment) : openSshPublicKey(text, comment));

/** The OpenSSH public key line of a P-256 private key (PEM). */
export function openSshPublicKey(pem: string, comment: string): string {
  const jwk = crypto().createPublicKey(pem).export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  const blob = Buffer.concat([sshString('ecdsa-sha2-nistp256'), sshString('nistp256'), sshString(point)]);
  return `ecdsa-sha2-nistp256 ${blob.toString('base64')} ${comment}`;
}
