// node:crypto is loaded on first use: importing it cost every run ~9 ms of start-up, and a local run needs none of it.
const crypto = () => process.getBuiltinModule('node:crypto');

/** `SHA256:<base64 without padding>` of a public key blob, as `ssh-keygen -l` and OpenSSH's messages print it. */
export function sha256Fingerprint(blob: Uint8Array): string {
  return `SHA256:${crypto().createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The key type written inside an SSH public key blob (`ssh-ed25519`, `ssh-rsa`, ...). */
export function blobKeyType(blob: Uint8Array): string {
  const buffer = Buffer.from(blob);
  if (buffer.length < 4) return 'unknown';
  const length = buffer.readUInt32BE(0);
  if (length > 64 || buffer.length < 4 + length) return 'unknown';
  return buffer.subarray(4, 4 + length).toString('latin1');
}

/** `ssh-ed25519 SHA256:...` for messages. */
export function describeKey(blob: Uint8Array): string {
  return `${blobKeyType(blob)} ${sha256Fingerprint(blob)}`;
}

/**
 * Host key algorithms to offer for keys of these types, in order. Offering
 * only what we can verify makes the server present the key we know (OpenSSH's
 * client does the same), instead of, say, ed25519 when only RSA is recorded.
 */
export function algorithmsForKeyTypes(types: Iterable<string>): string[] {
  const algorithms: string[] = [];
  for (const type of types) {
    const names = type === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [type];
    for (const name of names) if (!algorithms.includes(name)) algorithms.push(name);
  }
  return algorithms;
}
