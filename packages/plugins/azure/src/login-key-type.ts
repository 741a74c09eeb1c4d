import { UnsupportedError } from '@netbench/plugin-api';

/** The public key types Azure's `linuxConfiguration.ssh.publicKeys[].keyData` accepts. */
const ACCEPTED = 'ssh-rsa (at least 2048 bits) or ssh-ed25519';

/** Bits of an `ssh-rsa` public key's modulus (the blob is `string type, mpint e, mpint n`). */
export function rsaBits(base64: string): number {
  const blob = Buffer.from(base64, 'base64');
  let at = 0;
  const next = () => {
    const length = blob.readUInt32BE(at);
    const value = blob.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return value;
  };
  next();
  next();
  const n = next();
  const lead = n.findIndex((b) => b !== 0);
  return lead < 0 ? 0 : (n.length - lead) * 8 - Math.clz32(n[lead]!) + 24;
}

/**
 * Why Azure would refuse this public key line, or undefined when it takes it:
 * RSA of at least 2048 bits and Ed25519 only (ECDSA and DSA are refused).
 */
export function azureKeyProblem(publicKey: string): string | undefined {
  const [type, data] = publicKey.trim().split(/\s+/);
  if (type === 'ssh-ed25519') return undefined;
  if (type === 'ssh-rsa' && data) {
    const bits = rsaBits(data);
    return bits >= 2048 ? undefined : `an ${bits}-bit RSA key; Azure needs ${ACCEPTED}`;
  }
  return `a ${type ?? 'malformed'} key; Azure accepts only ${ACCEPTED}`;
}

/** Refuse before anything is created when the login key is one Azure refuses. */
export function checkAzureKey(publicKey: string, keyPath: string | undefined): void {
  const problem = azureKeyProblem(publicKey);
  if (problem) throw new UnsupportedError(`azure login key ${keyPath ? `${keyPath}.pub` : '(generated)'} is ${problem}`);
}
