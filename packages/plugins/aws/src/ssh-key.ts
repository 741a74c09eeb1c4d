import { generateKeyPairSync } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface SshKeyPair {
  /** `ssh-ed25519 AAAA… comment`, what ImportKeyPair takes. */
  readonly publicKey: string;
  /** OpenSSH private key (`-----BEGIN OPENSSH PRIVATE KEY-----`), unencrypted. */
  readonly privateKey: string;
}

const string = (data: Buffer | string) => {
  const body = typeof data === 'string' ? Buffer.from(data) : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  return Buffer.concat([length, body]);
};
const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/**
 * A fresh ed25519 key pair in OpenSSH formats, made locally (the private key
 * never leaves this machine). Node exports only PEM/JWK, so the
 * `openssh-key-v1` container (PROTOCOL.key) is written by hand.
 */
export function generateSshKeyPair(comment: string): SshKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d!, 'base64url');
  const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const publicBlob = Buffer.concat([string('ssh-ed25519'), string(pub)]);

  const check = uint32(Math.floor(Math.random() * 0xffffffff));
  let secret = Buffer.concat([check, check, string('ssh-ed25519'), string(pub), string(Buffer.concat([seed, pub])), string(comment)]);
  // Padding 1, 2, 3, … to the cipher block size (8 for "none").
  const pad = (8 - (secret.length % 8)) % 8;
  secret = Buffer.concat([secret, Buffer.from(Array.from({ length: pad }, (_, i) => i + 1))]);

  const container = Buffer.concat([Buffer.from('openssh-key-v1\0'), string('none'), string('none'), string(''), uint32(1), string(publicBlob), string(secret)]);
  const lines = container.toString('base64').match(/.{1,70}/g) ?? [];
  return {
    publicKey: `ssh-ed25519 ${publicBlob.toString('base64')} ${comment}`,
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
  };
}

/** Write the run's key into the run folder: private key mode 600, public key beside it. */
export async function writeKeyPair(dir: string, key: SshKeyPair): Promise<{ privateKeyPath: string }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const privateKeyPath = join(dir, 'id_ed25519');
  await writeFile(privateKeyPath, key.privateKey, { mode: 0o600 });
  await writeFile(`${privateKeyPath}.pub`, `${key.publicKey}\n`, { mode: 0o644 });
  return { privateKeyPath };
}
