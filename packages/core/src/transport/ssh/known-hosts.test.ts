import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { algorithmsForKeyTypes, blobKeyType, sha256Fingerprint } from './host-key-blob.js';
import { knownHostsLine, knownHostsName, lookupHost, parseKnownHosts } from './known-hosts.js';

const fixtures = join(import.meta.dirname, '__fixtures__');
const fixture = (name: string) => join(fixtures, name);
const read = (name: string) => readFileSync(fixture(name), 'utf8');
const blobOf = (pub: string) => Buffer.from(read(pub).split(' ')[1]!, 'base64');

/** The lines OpenSSH itself finds for a name (`ssh-keygen -F`), CA lines left out as netbench skips them. */
function opensshLines(file: string, name: string): number[] {
  let out = '';
  try {
    out = execFileSync('ssh-keygen', ['-F', name, '-f', fixture(file)], { encoding: 'utf8' });
  } catch {
    return []; // exit 1: not found
  }
  return [...out.matchAll(/found: line (\d+) ?(\S*)/g)].filter((m) => m[2] !== 'CA').map((m) => Number(m[1]));
}

const lines = (entries: { origin: string }[]) => entries.map((e) => Number(e.origin.split(':').at(-1))).sort((a, b) => a - b);

describe('known_hosts', () => {
  const cases: [string, number][] = [
    ['10.0.0.5', 22],
    ['10.0.0.5', 2222],
    ['10.0.0.6', 22],
    ['web1', 22],
    ['WEB1', 22],
    ['10.0.0.6', 2200],
    ['x.lab.example', 22],
    ['bad.lab.example', 22],
    ['revoked.example', 22],
    ['old.example', 22],
    ['foo.example.com', 22],
    ['nothing', 22],
  ];

  it('finds the same lines as ssh-keygen -F, plain and hashed', () => {
    for (const file of ['plain_known_hosts', 'hashed_known_hosts']) {
      const entries = parseKnownHosts(read(file), fixture(file));
      for (const [host, port] of cases) {
        const { keys, revoked } = lookupHost(entries, host, port);
        expect(lines([...keys, ...revoked]), `${file} ${host}:${port}`).toEqual(opensshLines(file, knownHostsName(host, port)));
      }
    }
  });

  it('keeps @revoked keys apart, skips @cert-authority, comments and broken lines', () => {
    const entries = parseKnownHosts(read('plain_known_hosts'), 'kh');
    expect(entries).toHaveLength(8);
    const { keys, revoked } = lookupHost(entries, 'revoked.example', 22);
    expect(revoked.map((e) => e.origin)).toEqual(['kh:8']);
    expect(keys.map((e) => e.origin)).toEqual(['kh:9']);
    expect(lookupHost(entries, 'foo.example.com', 22).keys).toEqual([]);
  });

  it('names hosts as OpenSSH does and writes lines ssh-keygen can find', () => {
    expect(knownHostsName('10.0.0.5', 22)).toBe('10.0.0.5');
    expect(knownHostsName('10.0.0.5', 2222)).toBe('[10.0.0.5]:2222');
    const line = knownHostsLine('10.9.9.9', 2022, blobOf('key_a.pub'), 'ssh-ed25519', 'tofu');
    const entries = parseKnownHosts(line, 'x');
    expect(lookupHost(entries, '10.9.9.9', 2022).keys[0]?.key.equals(blobOf('key_a.pub'))).toBe(true);
    expect(lookupHost(entries, '10.9.9.9', 22).keys).toEqual([]);
  });

  it('computes the SHA256 fingerprints ssh-keygen -l prints', () => {
    for (const [pub, line] of [
      ['key_a.pub', 0],
      ['key_r.pub', 3],
    ] as const) {
      const expected = read('fingerprints.txt').split('\n')[line]!.split(' ')[1];
      expect(sha256Fingerprint(blobOf(pub))).toBe(expected);
    }
    expect(blobKeyType(blobOf('key_r.pub'))).toBe('ssh-rsa');
    expect(blobKeyType(Buffer.from([0, 0]))).toBe('unknown');
    expect(algorithmsForKeyTypes(['ssh-rsa', 'ssh-ed25519', 'ssh-rsa'])).toEqual(['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa', 'ssh-ed25519']);
  });
});
