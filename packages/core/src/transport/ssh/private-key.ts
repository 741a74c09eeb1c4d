import { readFile } from 'node:fs/promises';
import { NetbenchError } from '@netbench/plugin-api';
import type { ParsedKey } from 'ssh2';
import { loadSsh2 } from './load-ssh2.js';

const NO_PASSPHRASE_RE = /no passphrase given/i;
const BAD_PASSPHRASE_RE = /bad passphrase|integrity check failed|bad decrypt|decrypt/i;

/**
 * Read and decrypt a private key once, before connecting, so a missing file,
 * a missing or wrong passphrase is reported as such (ssh2 would only say
 * that authentication failed), and the slow key derivation of a protected
 * key is not repeated for every attempt. The passphrase never appears in a message.
 */
export async function loadPrivateKey(source: { path?: string; text?: string; passphrase?: string }, forWhom: string): Promise<ParsedKey> {
  let data: Buffer;
  const name = source.path ?? 'the inline private key';
  if (source.text !== undefined) {
    data = Buffer.from(source.text);
  } else if (source.path !== undefined) {
    try {
      data = await readFile(source.path);
    } catch (error) {
      throw new NetbenchError(`cannot read private key ${source.path} for ${forWhom}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else {
    throw new Error('loadPrivateKey needs a path or a key');
  }
  const { utils } = await loadSsh2();
  const parsed = utils.parseKey(data, source.passphrase);
  if (parsed instanceof Error) {
    if (NO_PASSPHRASE_RE.test(parsed.message)) {
      throw new NetbenchError(`private key ${name} for ${forWhom} is protected by a passphrase; give it (static hosts: passphraseEnv names an environment variable holding it)`);
    }
    if (source.passphrase !== undefined && BAD_PASSPHRASE_RE.test(parsed.message)) {
      throw new NetbenchError(`wrong passphrase for private key ${name} (${forWhom})`);
    }
    throw new NetbenchError(`cannot use private key ${name} for ${forWhom}: ${parsed.message}`);
  }
  // A file may hold several keys; like ssh2, use the first.
  const key = Array.isArray(parsed) ? (parsed as ParsedKey[])[0] : parsed;
  if (!key?.isPrivateKey()) throw new NetbenchError(`${name} (for ${forWhom}) holds no private key`);
  return key;
}
