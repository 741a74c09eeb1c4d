import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleWithKeys } from '../testing/console-with-keys.js';
import { keygen } from '../testing/lab-sshd.js';
import { parseConsoleHostKeys } from './console-host-keys.js';

describe('parseConsoleHostKeys', () => {
  let dir: string;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nbt-cloud-keys-'));
    // Real keys from ssh-keygen, as /etc/ssh/ssh_host_*_key.pub on a new VM.
    for (const type of ['ed25519', 'ecdsa', 'rsa']) keys[type] = await keygen(join(dir, type), type);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const bare = (line: string) => line.split(' ').slice(0, 2).join(' ');

  it('reads every key of the block cloud-init prints, without comments', () => {
    const found = parseConsoleHostKeys(consoleWithKeys([keys['ecdsa']!, keys['ed25519']!, keys['rsa']!]));
    expect(found).toEqual([bare(keys['ecdsa']!), bare(keys['ed25519']!), bare(keys['rsa']!)]);
  });

  it('rejoins keys a console wrapped at 80 columns and cuts each at its own length', () => {
    const wrapped = [keys['ecdsa']!, keys['ed25519']!].map((line) => line.match(/.{1,80}/g)!.join('\r\n'));
    expect(parseConsoleHostKeys(consoleWithKeys(wrapped))).toEqual([bare(keys['ecdsa']!), bare(keys['ed25519']!)]);
  });

  it('takes the last block (the latest boot)', () => {
    const text = consoleWithKeys([keys['rsa']!]) + consoleWithKeys([keys['ed25519']!]);
    expect(parseConsoleHostKeys(text)).toEqual([bare(keys['ed25519']!)]);
  });

  it('finds nothing before the block is complete, and skips malformed keys', () => {
    const partial = consoleWithKeys([keys['ed25519']!]).split('-----END')[0]!;
    expect(parseConsoleHostKeys(partial)).toEqual([]);
    const blob = Buffer.from(bare(keys['ed25519']!).split(' ')[1]!, 'base64');
    blob.write('ssh-rsa', 4, 'latin1'); // type inside the blob no longer matches the line
    const forged = `ssh-ed25519 ${blob.toString('base64')} root@x`;
    expect(parseConsoleHostKeys(consoleWithKeys([forged, 'ssh-ed25519 AAAA', keys['rsa']!]))).toEqual([bare(keys['rsa']!)]);
  });
});
