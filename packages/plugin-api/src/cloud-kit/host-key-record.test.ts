import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordedHostKey, recordHostKey } from './host-key-record.js';

const KEY_A = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const KEY_B = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nb-hostkey-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('host keys recorded for reattach', () => {
  it('keeps pinned keys as they were and gives them back pinned', async () => {
    await recordHostKey(dir, 'gcp', 'a@zone=x/y', '203.0.113.5', 22, { mode: 'pinned', keys: [KEY_A], source: 'console' });
    const { policy, record } = await recordedHostKey(dir, 'gcp', 'a@zone=x/y');
    expect(policy).toEqual({ mode: 'pinned', keys: [KEY_A], source: 'the key recorded at provision (console)' });
    expect(record).toMatchObject({ address: '203.0.113.5', port: 22 });
  });

  it("copies the key trusted on first use from the run's known_hosts, for that address and port only", async () => {
    const knownHosts = join(dir, 'known_hosts');
    await writeFile(knownHosts, `[127.0.0.1]:2222 ${KEY_A} netbench-tofu\n127.0.0.1 ${KEY_B}\n`);
    await recordHostKey(dir, 'aws', 'client', '127.0.0.1', 2222, { mode: 'tofu', recordFile: knownHosts });
    const { policy } = await recordedHostKey(dir, 'aws', 'client');
    expect(policy).toMatchObject({ mode: 'pinned', keys: [KEY_A] });
  });

  it('refuses to record nothing, and refuses a host with no record rather than trusting a new key', async () => {
    await expect(recordHostKey(dir, 'aws', 'x', '127.0.0.1', 22, { mode: 'tofu', recordFile: join(dir, 'absent') })).rejects.toThrow(/no host key to record/);
    await expect(recordedHostKey(dir, 'aws', 'x')).rejects.toThrow(/aws: host x: no SSH host key was recorded at provision .*refusing to trust a new one/);
  });
});
