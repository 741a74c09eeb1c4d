import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLOUD_INIT_FINISHED_RE, parseConsoleHostKeys } from './console-host-keys.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('parseConsoleHostKeys', () => {
  it('reads every host key of the cloud-init block and drops a line two console writers garbled', () => {
    const keys = parseConsoleHostKeys(fixture('console-cloud-init.txt'));
    expect(keys).toEqual(fixture('console-cloud-init.keys').trim().split('\n'));
    expect(keys.map((k) => k.split(' ')[0])).toEqual(['ecdsa-sha2-nistp256', 'ssh-ed25519', 'ssh-rsa']);
    expect(CLOUD_INIT_FINISHED_RE.test(fixture('console-cloud-init.txt'))).toBe(true);
  });

  it('finds nothing in moto\'s console (no cloud-init): the caller trusts on first use', () => {
    const console = fixture('console-moto.txt');
    expect(parseConsoleHostKeys(console)).toEqual([]);
    expect(CLOUD_INIT_FINISHED_RE.test(console)).toBe(false);
  });

  it('ignores keys outside the block, an unfinished block, and takes the last block after a reboot', () => {
    const [ecdsa, ed25519] = fixture('console-cloud-init.keys').trim().split('\n') as [string, string];
    expect(parseConsoleHostKeys(`ci-info: ${ed25519} user-key\n-----BEGIN SSH HOST KEY KEYS-----\n${ecdsa}\n`)).toEqual([]);
    const twice = `-----BEGIN SSH HOST KEY KEYS-----\n${ecdsa}\n-----END SSH HOST KEY KEYS-----\nreboot\n-----BEGIN SSH HOST KEY KEYS-----\n${ed25519} root@x\n-----END SSH HOST KEY KEYS-----\n`;
    expect(parseConsoleHostKeys(twice)).toEqual([ed25519]);
  });
});
