// Contract tests of `reattach` (a staged run's later invocation) against the
// Compute REST stand-in (test-support/fake-gce.ts) and a real sshd on loopback
// standing in for the instances: the instance is read back with instances.get
// and verified (RUNNING, the run's labels), and SSH accepts only the host key
// recorded at provision. No Google API and no real VM are involved.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleWithKeys, keygen, type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectedHost } from './ssh-connect.js';
import { type Harness, harness, PROJECT, RUN_ID, requests } from './test-support/harness.js';

const P = `/compute/v1/projects/${PROJECT}`;
const instanceId = (host: string) => `projects/${PROJECT}/zones/us-central1-a/instances/nb-${RUN_ID}-${host}`;

describe('gcp reattach against the Compute REST API contract', () => {
  let h: Harness;
  let sshd: LabSshd;
  let other: LabSshd;
  let otherDir: string;
  let keyPath: string;
  let blocks: ReturnType<typeof requests>;

  beforeAll(async () => {
    h = await harness();
    keyPath = join(h.runDir, 'login_key');
    const publicKey = await keygen(keyPath);
    sshd = await startSshd(h.runDir, publicKey);
    // Another machine (its own host key) that accepts the same login key.
    otherDir = await mkdtemp(join(tmpdir(), 'nbt-gcp-other-'));
    other = await startSshd(otherDir, publicKey);
    h.fake.serialOutput = () => consoleWithKeys([sshd.hostKeyLine]);
    blocks = requests({
      client: { zone: 'us-central1-a', machineType: 'n2-standard-4', sshUser: 'root', sshKeyPath: keyPath },
      server: { zone: 'us-central1-a', machineType: 'n2-standard-4', sshUser: 'root', sshKeyPath: keyPath },
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

  it('gives back every host from the ledger, read with instances.get, creating nothing, on the key recorded at provision', async () => {
    const before = h.fake.calls().length;
    const hosts = (await h.plugin({ sshPort: sshd.port }).reattach!(blocks, h.ctx())) as ConnectedHost[];
    try {
      expect(hosts.map((x) => x.id)).toEqual(['client', 'server']);
      const calls = h.fake.calls().slice(before);
      expect(calls.filter((c) => !c.startsWith('GET'))).toEqual([]);
      expect(calls).toContain(`GET ${P}/zones/us-central1-a/instances/nb-${RUN_ID}-client`);
      // Not one serial console read: the key comes from the run folder, not from the cloud again.
      expect(calls.some((c) => c.includes('serialPort'))).toBe(false);
      expect(hosts[0]!.hostKeyVerification).toBe('pinned');
      expect(hosts[0]!.labels?.host_key).toBe('pinned:gce-serial-console');
      expect(hosts[0]!.internalIp).toBe(h.fake.resources.get(instanceId('client'))!['networkInterfaces'][0].networkIP);
      const result = await hosts[1]!.exec(['echo', 'still here']);
      expect(result.stdout.trim()).toBe('still here');
    } finally {
      await Promise.all(hosts.map((x) => x.close()));
    }
  });

  it('refuses a machine at the address whose host key is not the one recorded at provision', async () => {
    await expect(h.plugin({ sshPort: other.port }).reattach!(blocks, h.ctx())).rejects.toThrow(/HOST KEY MISMATCH/);
  });

  it('refuses an instance that is not RUNNING (stopped or terminated)', async () => {
    const server = h.fake.resources.get(instanceId('server'))!;
    server['status'] = 'TERMINATED';
    try {
      await expect(h.plugin({ sshPort: sshd.port }).reattach!(blocks, h.ctx())).rejects.toThrow(/host server: instance .*nb-.*-server is TERMINATED, not RUNNING/);
    } finally {
      server['status'] = 'RUNNING';
    }
  });

  it("refuses an instance whose labels are not this run's", async () => {
    const client = h.fake.resources.get(instanceId('client'))!;
    const labels = client['labels'];
    client['labels'] = { ...labels, 'netbench-run': '20260101-000000-other0' };
    try {
      await expect(h.plugin({ sshPort: sshd.port }).reattach!(blocks, h.ctx())).rejects.toThrow(
        /host client: instance .* does not carry the labels netbench-run=.*it is not this run's/,
      );
    } finally {
      client['labels'] = labels;
    }
  });

  it('refuses an instance that is gone', async () => {
    const id = instanceId('server');
    const saved = h.fake.resources.get(id)!;
    h.fake.resources.delete(id);
    try {
      await expect(h.plugin({ sshPort: sshd.port }).reattach!(blocks, h.ctx())).rejects.toThrow(/host server: instance .* is gone/);
    } finally {
      h.fake.resources.set(id, saved);
    }
  });

  it('refuses a host whose recorded key is missing rather than trusting a new one', async () => {
    await rm(join(h.runDir, 'host-keys', 'gcp', 'client.json'));
    await expect(h.plugin({ sshPort: sshd.port }).reattach!(blocks, h.ctx())).rejects.toThrow(/host client: no SSH host key was recorded at provision/);
  });
});
