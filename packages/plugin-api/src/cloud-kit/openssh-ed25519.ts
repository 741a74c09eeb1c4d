// node:crypto is loaded on first use: importing it cost every run ~9 ms of start-up, and a local run needs none of it.
const crypto = () => process.getBuiltinModule('node:crypto');

/**
 * Ed25519 login keys in OpenSSH's own private key format
 * (`-----BEGIN OPENSSH PRIVATE KEY-----`, unencrypted; PROTOCOL.key in
 * OpenSSH's source), which both OpenSSH and ssh2 read. Azure accepts only
 * RSA (>= 2048 bit) and Ed25519 public keys, so it cannot use the kit's
 * default ECDSA P-256 key.
 */
const MAGIC = Buffer.from('openssh-key-v1\0');
const KEY_TYPE = 'ssh-ed25519';

const sshString = (value: Buffer | string) => {
  const data = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
};

const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** The public key blob (`string "ssh-ed25519", string key`). */
const publicBlob = (pub: Buffer) => Buffer.concat([sshString(KEY_TYPE), sshString(pub)]);

/** A new Ed25519 key pair: the private key file's text and the public key line. */
export function newEd25519Key(comment: string): { privateKey: string; publicKey: string } {
  const { generateKeyPairSync, randomBytes } = crypto();
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  const check = randomBytes(4);
  let section = Buffer.concat([check, check, sshString(KEY_TYPE), sshString(pub), sshString(Buffer.concat([seed, pub])), sshString(comment)]);
  // Padded to the cipher block size (8 for "none") with 1, 2, 3, …
  const pad = (8 - (section.length % 8)) % 8;
  section = Buffer.concat([section, Buffer.from(Array.from({ length: pad }, (_, i) => i + 1))]);
  const body = Buffer.concat([MAGIC, sshString('none'), sshString('none'), sshString(''), uint32(1), sshString(publicBlob(pub)), sshString(section)]);
  const lines = body.toString('base64').match(/.{1,70}/g)!;
  return {
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
    publicKey: `${KEY_TYPE} ${publicBlob(pub).toString('base64')} ${comment}`,
  };
}

/** The public key line of an unencrypted OpenSSH-format private key file (its first key). */
export function openSshFilePublicKey(text: string, comment: string): string {
  const base64 = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]+?)-----END OPENSSH PRIVATE KEY-----/.exec(text)?.[1];
  if (!base64) throw new Error('not an OpenSSH private key file');
  const body = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  if (!body.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not an openssh-key-v1 file');
  let at = MAGIC.length;
  const next = () => {
    const length = body.readUInt32BE(at);
    const value = body.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return value;
  };
  next(); // cipher
  next(); // kdf
  next(); // kdf options
  at += 4; // number of keys
  const blob = next();
  const type = blob.subarray(4, 4 + blob.readUInt32BE(0)).toString();
  return `${type} ${blob.toString('base64')} ${comment}`;
}
