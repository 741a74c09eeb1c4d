// Contract tests of `reattach` (a staged run's later invocation) against the
// Resource Manager stand-in (test-support/fake-arm.ts) and a real sshd on
// loopback standing in for the VMs: each VM is read back with its instance
// view and verified (PowerState/running, the run's tags), and SSH accepts only
// the host key recorded at provision. No Azure endpoint and no real VM.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleWithKeys, keygen, type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectedHost } from './ssh-connect.js';
import { type Harness, harness, RUN_ID, requests, SUBSCRIPTION } from './test-support/harness.js';
import { labLoginUser, letLabUserReadKeys } from './test-support/login-user.js';

const G = `/subscriptions/${SUBSCRIPTION}/resourceGroups/nb-${RUN_ID}`;
const VM = (host: string) => `nb-${RUN_ID}-${host}`;
const vmId = (host: string) => `${G}/providers/Microsoft.Compute/virtualMachines/${VM(host)}`;
const USER = labLoginUser();

describe('azure reattach against the Resource Manager REST contract', () => {
  let h: Harness;
  let sshd: LabSshd;
  let other: LabSshd;
  let otherDir: string;
  let blocks: ReturnType<typeof requests>;

  beforeAll(async () => {
    h = await harness();
    const keyPath = join(h.runDir, 'login_key');
    const publicKey = await keygen(keyPath);
    sshd = await startSshd(h.runDir, publicKey);
    letLabUserReadKeys(h.runDir);
    // Another machine (its own host key) that accepts the same login key.
    otherDir = await mkdtemp(join(tmpdir(), 'nbt-azure-other-'));
    other = await startSshd(otherDir, publicKey);
    letLabUserReadKeys(otherDir);
    h.fake.serialLog = () => consoleWithKeys([sshd.hostKeyLine]);
    blocks = requests({
      client: { zone: 'eastus-1', sshUser: USER, sshKeyPath: keyPath },
      server: { zone: 'eastus-1', sshUser: USER, sshKeyPath: keyPath },
    });
    const hosts = (await h.plugin({ sshPort: sshd.port }).provision(blocks, h.ctx())) as ConnectedHost[];
    await Promise.all(hosts.map((host) => host.close()));
  }, 60_000);

  afterAll(async () => {
    await sshd?.stop();
    await other?.stop();
    await h?.close();
    if (otherDir) await rm(otherDir, { recursive: true, force: true });
  });

  const reattach = (port = sshd.port) => h.plugin({ sshPort: port }).reattach!(blocks, h.ctx()) as Promise<ConnectedHost[]>;

  it('gives back every host from the ledger with reads only (VM instance view, NIC, public IP), on the key recorded at provision', async () => {
    const before = h.fake.requests.length;
    const hosts = await reattach();
    try {
      expect(hosts.map((x) => x.id)).toEqual(['client', 'server']);
      const seen = h.fake.requests.slice(before);
      expect(seen.filter((r) => r.method !== 'GET')).toEqual([]);
      expect(seen.some((r) => r.path === vmId('client') && r.query['$expand'] === 'instanceView')).toBe(true);
      expect(seen.some((r) => r.path.startsWith('/blobs/'))).toBe(false); // not the boot log again: the key comes from the run folder
      expect(hosts[0]!.hostKeyVerification).toBe('pinned');
      expect(hosts[0]!.labels?.host_key).toBe('pinned:azure-boot-diagnostics');
      expect(hosts[0]!.internalIp).toMatch(/^10\./);
      expect((await hosts[1]!.exec(['echo', 'still here'])).stdout.trim()).toBe('still here');
    } finally {
      await Promise.all(hosts.map((x) => x.close()));
    }
  });

  it('refuses a machine at the address whose host key is not the one recorded at provision', async () => {
    await expect(reattach(other.port)).rejects.toThrow(/HOST KEY MISMATCH/);
  });

  it('refuses a VM that is not running (deallocated)', async () => {
    h.fake.powerStates.set(VM('server'), 'deallocated');
    try {
      await expect(reattach()).rejects.toThrow(/host server: VM nb-.*-server is deallocated, not running/);
    } finally {
      h.fake.powerStates.delete(VM('server'));
    }
  });

  it("refuses a VM whose tags are not this run's", async () => {
    const key = [...h.fake.resources.keys()].find((k) => k.toLowerCase() === vmId('client').toLowerCase())!;
    const vm = h.fake.resources.get(key)!;
    const tags = vm['tags'];
    vm['tags'] = { ...tags, 'netbench-run': '20260101-000000-other0' };
    try {
      await expect(reattach()).rejects.toThrow(/host client: VM .* does not carry the tags netbench-run=.*it is not this run's/);
    } finally {
      vm['tags'] = tags;
    }
  });

  it('refuses a VM that is gone', async () => {
    const key = [...h.fake.resources.keys()].find((k) => k.toLowerCase() === vmId('server').toLowerCase())!;
    const saved = h.fake.resources.get(key)!;
    h.fake.resources.delete(key);
    try {
      await expect(reattach()).rejects.toThrow(/host server: VM nb-.*-server .* is gone/);
    } finally {
      h.fake.resources.set(key, saved);
    }
  });
});
