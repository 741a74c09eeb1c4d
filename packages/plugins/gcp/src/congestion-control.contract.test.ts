// `congestionControl` on GCP hosts: provision against the Compute REST
// stand-in (test-support/fake-gce.ts), connected to a real sshd on loopback
// whose sessions run in a network namespace of this test's own — the "VM's"
// network stack — so the plugin's own connect path sets its default with
// sysctl over SSH and labels the host with what it reports, leaving this
// machine's default alone. No Google endpoint, no real VM: the image's
// passwordless sudo and loadable tcp_bbr are not tested here (the cloud kit's
// unit test pins the sudo/modprobe commands).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { consoleWithKeys, keygen, type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectedHost } from './ssh-connect.js';
import { type Harness, harness, requests } from './test-support/harness.js';

const netns = `nbt-cc-${randomBytes(3).toString('hex')}`;
const inNetns = () => execFileSync('ip', ['netns', 'exec', netns, 'cat', '/proc/sys/net/ipv4/tcp_congestion_control'], { encoding: 'utf8' }).trim();

describe('gcp: congestion control set over SSH after boot', () => {
  let h: Harness;
  let sshd: LabSshd;
  let keyPath: string;
  let before: string;

  beforeAll(async () => {
    execFileSync('ip', ['netns', 'add', netns]);
    before = inNetns();
    h = await harness();
    keyPath = join(h.runDir, 'login_key');
    sshd = await startSshd(h.runDir, await keygen(keyPath), { netns });
    h.fake.serialOutput = () => consoleWithKeys([sshd.hostKeyLine]);
  }, 60_000);

  afterAll(async () => {
    await sshd?.stop();
    await h?.close();
    execFileSync('ip', ['netns', 'del', netns]);
  });

  const block = (extra: Record<string, unknown> = {}) => ({ zone: 'us-central1-a', sshUser: 'root', sshKeyPath: keyPath, ...extra });

  it("sets the client's default (reno: in every kernel, allowed in any namespace) and labels both hosts with what they report", async () => {
    const hosts = (await h.plugin({ sshPort: sshd.port }).provision(requests({ client: block({ congestionControl: 'reno' }), server: block() }), h.ctx())) as ConnectedHost[];
    try {
      expect(inNetns()).toBe('reno');
      expect(hosts[0]!.labels.tcp_congestion_control).toBe('reno');
      // Both "VMs" are the one namespace here, connected at once: the server read it before or after the client's change.
      expect([before, 'reno']).toContain(hosts[1]!.labels.tcp_congestion_control);
    } finally {
      await Promise.allSettled(hosts.map((host) => host.close()));
    }
  });

  it('refuses an algorithm the VM cannot load, naming the host', async () => {
    // A fresh stand-in: the first test's resources are still in the old one under the same run id.
    const fresh = await harness();
    fresh.fake.serialOutput = () => consoleWithKeys([sshd.hostKeyLine]);
    await expect(
      fresh
        .plugin({ sshPort: sshd.port })
        .provision(requests({ client: block({ congestionControl: 'nosuchcc' }) }), fresh.ctx())
        .finally(() => fresh.close()),
    ).rejects.toThrow(/gcp: host client: congestionControl nosuchcc is not available \(the kernel has: .*reno.*; modprobe tcp_nosuchcc: .+\)/);
  });
});
