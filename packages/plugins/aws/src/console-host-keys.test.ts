import { readFileSync } from 'node:fs';
import { parseConsoleHostKeys } from '@netbench/plugin-api/cloud-kit';
import { describe, expect, it } from 'vitest';
import { CLOUD_INIT_FINISHED_RE } from './console-host-keys.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

// The parser's own cases (wrapped lines, last block, malformed keys) are core's tests; these are EC2's consoles.
describe('EC2 console host keys', () => {
  it('reads every host key of an EC2 cloud-init console (ec2:-prefixed fingerprints, a garbled line dropped) and sees cloud-init finish', () => {
    const keys = parseConsoleHostKeys(fixture('console-cloud-init.txt'));
    expect(keys).toEqual(fixture('console-cloud-init.keys').trim().split('\n'));
    expect(keys.map((k) => k.split(' ')[0])).toEqual(['ecdsa-sha2-nistp256', 'ssh-ed25519', 'ssh-rsa']);
    expect(CLOUD_INIT_FINISHED_RE.test(fixture('console-cloud-init.txt'))).toBe(true);
  });

  it("finds nothing in moto's console (no cloud-init), which never says cloud-init finished: the caller trusts on first use", () => {
    const console = fixture('console-moto.txt');
    expect(parseConsoleHostKeys(console)).toEqual([]);
    expect(CLOUD_INIT_FINISHED_RE.test(console)).toBe(false);
  });

  it('does not take the still-running stage for the finished one', () => {
    expect(CLOUD_INIT_FINISHED_RE.test("[   41.11] cloud-init[1187]: Cloud-init v. 24.4-0ubuntu1 running 'modules:final'")).toBe(false);
  });
});
