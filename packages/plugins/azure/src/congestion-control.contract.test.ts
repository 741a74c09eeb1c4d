// `congestionControl` on Azure hosts: provision against the Resource Manager
// stand-in (test-support/fake-arm.ts), connected to a real sshd on loopback as
// a non-root login user (Azure refuses root as adminUsername), as on a real
// VM. Without a setting the host is labelled with the default it reports;
// with one, the change goes through `sudo -n`, which this machine's test user
// is not allowed, so the refusal is what is checked — nothing is changed. The
// change itself over SSH is tested on the GCP and AWS plugins (same cloud-kit
// code, sessions in a throw-away namespace); whether Azure's image gives its
// admin user passwordless sudo is not tested here (no Azure access).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleWithKeys, keygen, type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectedHost } from './ssh-connect.js';
import { type Harness, harness, requests } from './test-support/harness.js';
import { labLoginUser, letLabUserReadKeys } from './test-support/login-user.js';

const USER = labLoginUser();
const machineDefault = () => readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim();

describe('azure: congestion control over SSH after boot', () => {
  let sshd: LabSshd;
  let keyPath: string;
  let keyDir: Harness;

  beforeAll(async () => {
    keyDir = await harness();
    keyPath = join(keyDir.runDir, 'login_key');
    sshd = await startSshd(keyDir.runDir, await keygen(keyPath));
    letLabUserReadKeys(keyDir.runDir);
  }, 60_000);

  afterAll(async () => {
    await sshd?.stop();
    await keyDir?.close();
  });

  /** Provision one host on a fresh stand-in (each call is a run of its own). */
  async function provision(extra: Record<string, unknown>): Promise<ConnectedHost[]> {
    const h = await harness();
    try {
      h.fake.serialLog = () => consoleWithKeys([sshd.hostKeyLine]);
      return (await h
        .plugin({ sshPort: sshd.port })
        .provision(requests({ client: { zone: 'eastus-1', sshUser: USER, sshKeyPath: keyPath, ...extra } }), h.ctx())) as ConnectedHost[];
    } finally {
      await h.close();
    }
  }

  it('labels the host with the default it reports, read as the login user', async () => {
    const [host] = await provision({});
    await host!.close();
    expect(host!.labels.tcp_congestion_control).toBe(machineDefault());
  });

  it('changes it only through sudo -n: a user without passwordless sudo is refused, naming the host', async () => {
    const before = machineDefault();
    const wanted = before === 'reno' ? 'cubic' : 'reno';
    await expect(provision({ congestionControl: wanted })).rejects.toThrow(
      new RegExp(`azure: host client: sysctl -w net.ipv4.tcp_congestion_control=${wanted} failed \\(.*sudo.*\\)`),
    );
    expect(machineDefault()).toBe(before);
  });
});
