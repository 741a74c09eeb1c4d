import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NetbenchError } from '../errors/index.js';
import type { SshHostKeyPolicy } from '../plugin/ssh.js';

/**
 * The SSH host key(s) a cloud host was connected with at provision, kept in
 * the run folder so a later invocation of the same run (`--stage`, `--resume`)
 * verifies the host against the SAME key (`reattach`), never trusting a new
 * one. Pinned keys (from the console) are kept as they were; a key trusted on
 * first use is copied from the run's known_hosts file it was recorded in.
 */
export interface HostKeyRecord {
  readonly address: string;
  readonly port: number;
  /** OpenSSH public key lines (`TYPE BASE64`). */
  readonly keys: readonly string[];
  /** Where the keys came from at provision (a console, trust on first use). */
  readonly source: string;
}

const recordFile = (runDir: string, cloud: string, hostId: string) => join(runDir, 'host-keys', cloud, `${encodeURIComponent(hostId)}.json`);

/** `host` or `[host]:port`, as OpenSSH names a host in known_hosts. */
const knownHostsName = (address: string, port: number) => (port === 22 ? address : `[${address}]:${port}`);

/** The keys a `known_hosts` file holds for this address and port (TOFU's record file). */
async function knownHostsKeys(file: string, address: string, port: number): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const name = knownHostsName(address, port);
  return text.split('\n').flatMap((line) => {
    const [names, type, blob] = line.trim().split(/\s+/);
    return names && type && blob && names.split(',').includes(name) ? [`${type} ${blob}`] : [];
  });
}

/** After a successful connection: record the key(s) it was verified with. */
export async function recordHostKey(runDir: string, cloud: string, hostId: string, address: string, port: number, policy: SshHostKeyPolicy): Promise<void> {
  let keys: string[];
  let source: string;
  if (policy.mode === 'pinned') {
    keys = policy.keys;
    source = policy.source;
  } else if (policy.mode === 'tofu') {
    keys = await knownHostsKeys(policy.recordFile, address, port);
    source = `trust on first use (${policy.recordFile})`;
  } else {
    keys = await knownHostsKeys(policy.file ?? '', address, port);
    source = `known_hosts ${policy.file ?? ''}`;
  }
  if (keys.length === 0) throw new NetbenchError(`${cloud}: host ${hostId}: no host key to record for ${knownHostsName(address, port)} after connecting`);
  const file = recordFile(runDir, cloud, hostId);
  await mkdir(join(file, '..'), { recursive: true });
  const record: HostKeyRecord = { address, port, keys, source };
  await writeFile(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

/**
 * The policy that accepts only the key(s) recorded at provision for this
 * host. Throws when nothing was recorded: a host whose key is unknown is not
 * trusted again.
 */
export async function recordedHostKey(runDir: string, cloud: string, hostId: string): Promise<{ record: HostKeyRecord; policy: SshHostKeyPolicy }> {
  const file = recordFile(runDir, cloud, hostId);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) throw new NetbenchError(`${cloud}: host ${hostId}: no SSH host key was recorded at provision (${file}); refusing to trust a new one`);
  const record = JSON.parse(text) as HostKeyRecord;
  if (!Array.isArray(record.keys) || record.keys.length === 0) throw new NetbenchError(`${cloud}: host ${hostId}: ${file} holds no host key; refusing to trust a new one`);
  return { record, policy: { mode: 'pinned', keys: [...record.keys], source: `the key recorded at provision (${record.source})` } };
}
