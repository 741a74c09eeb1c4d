import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { NetbenchError } from '@netbench/plugin-api';
import { assertHostAddress } from '@netbench/plugin-api/tool-kit';
import { blobKeyType, sha256Fingerprint } from './host-key-blob.js';
import { DEFAULT_KNOWN_HOSTS } from './host-key-check.js';
import { knownHostsLine, knownHostsName, lookupHost, parseKnownHosts } from './known-hosts.js';
import { loadSsh2 } from './load-ssh2.js';

/** The key a server offered, before anything trusts it. */
export interface OfferedHostKey {
  readonly address: string;
  readonly port: number;
  /** `ssh-ed25519`, `ecdsa-sha2-nistp256`, ... */
  readonly keyType: string;
  /** `SHA256:…`, as `ssh-keygen -lf` prints it. */
  readonly fingerprint: string;
  /** The known_hosts line that would record it. */
  readonly line: string;
}

export interface TrustHostOptions {
  readonly address: string;
  /** Default 22. */
  readonly port?: number;
  /** known_hosts file to record in; default `~/.ssh/known_hosts` (its folder is made, owner-only). */
  readonly knownHosts?: string;
  /** The fingerprint the user checked out of band; the offered key must match it. */
  readonly fingerprint?: string;
  /** Asks the user whether to trust the key; without it, `fingerprint` is the confirmation. */
  readonly confirm?: (key: OfferedHostKey, file: string) => Promise<boolean>;
  /** Milliseconds to wait for the server's key (default 10 s). */
  readonly timeoutMs?: number;
}

export interface TrustHostResult extends OfferedHostKey {
  /** `recorded` (appended), `already-trusted` (the file had it), `declined` (the user said no). */
  readonly status: 'recorded' | 'already-trusted' | 'declined';
  readonly file: string;
}

/**
 * `netbench hosts trust`: fetch the host key a server offers, show its
 * fingerprint, and append it to known_hosts only when the user confirms it
 * (or it matches the fingerprint they give). A different key already recorded
 * for the host is a mismatch and is never replaced.
 */
export async function trustHost(options: TrustHostOptions): Promise<TrustHostResult> {
  if (options.confirm === undefined && options.fingerprint === undefined) {
    throw new NetbenchError('trusting a host key needs a confirmation: answer the prompt, or give the fingerprint you checked (--yes --fingerprint SHA256:...)');
  }
  const port = options.port ?? 22;
  const file = options.knownHosts ?? DEFAULT_KNOWN_HOSTS()[0]!;
  const key = await fetchHostKey(assertHostAddress(options.address, 'host'), port, options.timeoutMs ?? 10_000);

  const recorded = lookupHost(await readKnownHosts(file), key.address, port).keys;
  const blob = Buffer.from(key.line.trim().split(/\s+/)[2]!, 'base64');
  if (recorded.some((entry) => entry.key.equals(blob))) return { ...key, status: 'already-trusted', file };
  if (recorded.length > 0) {
    throw new NetbenchError(
      [
        `HOST KEY MISMATCH: ${knownHostsName(key.address, port)} offers ${key.keyType} ${key.fingerprint}, but ${recorded.map((e) => `${e.origin} records ${e.keyType} ${sha256Fingerprint(e.key)}`).join('; ')}.`,
        `Nothing recorded. If the machine was reinstalled and you checked the new key out of band, remove the old entry first: ssh-keygen -R '${knownHostsName(key.address, port)}' -f ${file}`,
      ].join(' '),
    );
  }
  if (options.fingerprint !== undefined && normalise(options.fingerprint) !== normalise(key.fingerprint)) {
    throw new NetbenchError(
      `${knownHostsName(key.address, port)} offers ${key.keyType} ${key.fingerprint}, not the ${options.fingerprint} you gave: nothing recorded. Check the key on the machine: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub`,
    );
  }
  if (options.confirm !== undefined && !(await options.confirm(key, file))) return { ...key, status: 'declined', file };
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await appendFile(file, key.line, { mode: 0o600 });
  return { ...key, status: 'recorded', file };
}

// `SHA256:abc=` and `SHA256:abc` are the same fingerprint (ssh-keygen drops the padding).
const normalise = (fingerprint: string) => fingerprint.trim().replace(/=+$/, '');

async function readKnownHosts(file: string) {
  try {
    return parseKnownHosts(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new NetbenchError(`cannot read known_hosts file ${file}: ${(error as Error).message}`);
  }
}

/** The host key the server offers in the handshake; the connection is dropped before authenticating. */
export async function fetchHostKey(address: string, port: number, timeoutMs: number): Promise<OfferedHostKey> {
  const { Client } = await loadSsh2();
  const client = new Client();
  return new Promise<OfferedHostKey>((resolve, reject) => {
    let offered: OfferedHostKey | undefined;
    const done = (error?: Error) => {
      clearTimeout(timer);
      client.removeAllListeners();
      client.on('error', () => {});
      client.destroy();
      if (offered) resolve(offered);
      else reject(error ?? new NetbenchError(`${address}:${port} closed the connection before showing a host key`));
    };
    const timer = setTimeout(() => done(new NetbenchError(`no SSH host key from ${address}:${port} within ${timeoutMs} ms`)), timeoutMs);
    client.on('error', (error: Error) => done(offered ? undefined : new NetbenchError(`cannot fetch the SSH host key of ${address}:${port}: ${error.message}`)));
    client.on('close', () => done());
    client.connect({
      host: address,
      port,
      username: 'netbench-host-key',
      readyTimeout: timeoutMs,
      // Take the key and refuse it: nothing is sent beyond the key exchange.
      hostVerifier: (blob: Buffer, verify: (ok: boolean) => void) => {
        const keyType = blobKeyType(blob);
        offered = { address, port, keyType, fingerprint: sha256Fingerprint(blob), line: knownHostsLine(address, port, blob, keyType) };
        verify(false);
      },
    });
  });
}
