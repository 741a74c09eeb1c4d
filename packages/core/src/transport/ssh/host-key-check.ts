import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { algorithmsForKeyTypes, blobKeyType, describeKey, sha256Fingerprint } from './host-key-blob.js';
import { type KnownHostEntry, knownHostsLine, knownHostsName, lookupHost, parseKnownHosts } from './known-hosts.js';
import type { SshHostKeyPolicy } from './ssh-host-options.js';

/** What the handshake needs to verify one host's key. */
export interface HostKeyCheck {
  readonly mode: SshHostKeyPolicy['mode'];
  /** Host key algorithms to offer, so the server shows a key we can check; undefined = ssh2's defaults. */
  readonly algorithms?: string[];
  /** Resolves to `undefined` when the offered key is accepted, else why it is refused (shown to the user). */
  verify(blob: Buffer): Promise<string | undefined>;
}

export interface KeyTarget {
  /** `host web1 (203.0.113.5:22)` — how messages name the machine. */
  readonly label: string;
  readonly address: string;
  readonly port: number;
}

export const DEFAULT_KNOWN_HOSTS = (): string[] => [join(homedir(), '.ssh', 'known_hosts'), '/etc/ssh/ssh_known_hosts'];

/** Read the policy's files once and return the check the handshake calls. */
export async function hostKeyCheck(policy: SshHostKeyPolicy, target: KeyTarget): Promise<HostKeyCheck> {
  switch (policy.mode) {
    case 'known-hosts':
      return knownHostsCheck(policy.file, target);
    case 'pinned':
      return pinnedCheck(policy.keys, policy.source, target);
    case 'tofu':
      return tofuCheck(policy.recordFile, target);
  }
}

async function readEntries(file: string, required: boolean): Promise<KnownHostEntry[] | undefined> {
  try {
    return parseKnownHosts(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !required) return undefined;
    throw new Error(`cannot read known_hosts file ${file}: ${(error as Error).message}`);
  }
}

async function knownHostsCheck(file: string | undefined, target: KeyTarget): Promise<HostKeyCheck> {
  const files = file ? [file] : DEFAULT_KNOWN_HOSTS();
  const entries: KnownHostEntry[] = [];
  const read: string[] = [];
  for (const path of files) {
    const found = await readEntries(path, file !== undefined);
    if (found) {
      entries.push(...found);
      read.push(path);
    }
  }
  const { keys, revoked } = lookupHost(entries, target.address, target.port);
  const name = knownHostsName(target.address, target.port);
  const where = read.length ? read.join(' and ') : `${files.join(' and ')} (none exists)`;
  return {
    mode: 'known-hosts',
    algorithms: keys.length ? algorithmsForKeyTypes(keys.map((k) => k.keyType)) : undefined,
    async verify(blob) {
      const bad = revoked.find((entry) => entry.key.equals(blob));
      if (bad) return `${target.label} offered host key ${describeKey(blob)}, which ${bad.origin} marks @revoked; refusing to connect`;
      if (keys.some((entry) => entry.key.equals(blob))) return undefined;
      if (keys.length) {
        return [
          `HOST KEY MISMATCH: ${target.label} offered ${describeKey(blob)}, but ${keys.map((k) => `${k.origin} records ${k.keyType} ${sha256Fingerprint(k.key)}`).join('; ')}.`,
          'Someone may be intercepting the connection, or the machine was reinstalled. Check the new fingerprint out of band (on the machine: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub);',
          `if it is right, remove the old entry (ssh-keygen -R '${name}' -f ${keys[0]!.origin.replace(/:\d+$/, '')}) and add the new one.`,
        ].join(' ');
      }
      const record = file ?? files[0]!;
      return [
        `${target.label} is not in ${where}: it offered ${describeKey(blob)}.`,
        `Check that fingerprint out of band (on the machine: ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub), then add the key:`,
        `netbench hosts trust ${target.address}${target.port === 22 ? '' : ` --port ${target.port}`}${file === undefined ? '' : ` --known-hosts ${file}`} (shows the fingerprint and records it once you confirm),`,
        // The folder may not exist yet (a fresh account has no ~/.ssh).
        `or: mkdir -p -m 700 ${dirname(record)} && ssh-keyscan -p ${target.port} -t ${keyscanType(blobKeyType(blob))} ${target.address} >> ${record}`,
        `(or connect once with ssh and accept it), or name a known_hosts file with knownHosts.`,
      ].join(' ');
    },
  };
}

/** `ssh-keyscan -t` names key types without their `ssh-`/`-sha2-nistp*` decoration. */
function keyscanType(type: string): string {
  if (type.startsWith('ecdsa-')) return 'ecdsa';
  return type.replace(/^ssh-/, '').replace(/@openssh\.com$/, '');
}

/** A pinned key: an OpenSSH public key line, or a `SHA256:` fingerprint. */
function parsePin(pin: string): { type?: string; blob?: Buffer; fingerprint: string } {
  const text = pin.trim();
  if (/^SHA256:[A-Za-z0-9+/]+=*$/.test(text)) return { fingerprint: text.replace(/=+$/, '') };
  const [type, base64] = text.split(/\s+/);
  if (!type || !base64 || !/^[A-Za-z0-9+/]+=*$/.test(base64)) {
    throw new Error(`pinned host key ${JSON.stringify(text.slice(0, 40))} is neither "TYPE BASE64 [comment]" nor "SHA256:..."`);
  }
  const blob = Buffer.from(base64, 'base64');
  return { type, blob, fingerprint: sha256Fingerprint(blob) };
}

function pinnedCheck(keys: readonly string[], source: string, target: KeyTarget): HostKeyCheck {
  const pins = keys.map(parsePin);
  if (pins.length === 0) throw new Error(`no pinned host keys for ${target.label} (from ${source}); refusing to connect without a key to check`);
  const types = pins.flatMap((pin) => (pin.type ? [pin.type] : []));
  return {
    mode: 'pinned',
    // Only when every pin names its type: a bare fingerprint could be of any type.
    algorithms: types.length === pins.length ? algorithmsForKeyTypes(types) : undefined,
    async verify(blob) {
      const fingerprint = sha256Fingerprint(blob);
      if (pins.some((pin) => pin.fingerprint === fingerprint)) return undefined;
      return `HOST KEY MISMATCH: ${target.label} offered ${describeKey(blob)}, but the keys from ${source} are ${pins.map((p) => `${p.type ?? ''} ${p.fingerprint}`.trim()).join(', ')}; refusing to connect (someone may be intercepting the connection, or the address now belongs to another machine).`;
    },
  };
}

async function tofuCheck(recordFile: string, target: KeyTarget): Promise<HostKeyCheck> {
  const entries = (await readEntries(recordFile, false)) ?? [];
  const { keys } = lookupHost(entries, target.address, target.port);
  return {
    mode: 'tofu',
    algorithms: keys.length ? algorithmsForKeyTypes(keys.map((k) => k.keyType)) : undefined,
    async verify(blob) {
      if (keys.length === 0) {
        // First use: record what we trusted, so later connections (and the run's metadata) can be checked against it.
        const line = knownHostsLine(target.address, target.port, blob, blobKeyType(blob), `netbench-tofu ${new Date().toISOString()}`);
        await mkdir(dirname(recordFile), { recursive: true });
        await appendFile(recordFile, line);
        keys.push(...parseKnownHosts(line, recordFile));
        return undefined;
      }
      if (keys.some((entry) => entry.key.equals(blob))) return undefined;
      return `HOST KEY CHANGED: ${target.label} offered ${describeKey(blob)}, but on first use it offered ${keys.map((k) => `${k.keyType} ${sha256Fingerprint(k.key)}`).join(', ')} (recorded in ${keys[0]!.origin}); refusing to connect.`;
    },
  };
}
