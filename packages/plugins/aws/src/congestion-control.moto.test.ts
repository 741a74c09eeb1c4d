import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectSshHost } from '@netbench/core';
import { LedgerFile, type Logger, newRunId, type SshHostOptions } from '@netbench/plugin-api';
import { type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiCallCounter } from './api-calls.js';
import { AwsClients } from './clients.js';
import { type FleetLaunch, launchFleet } from './fleet.js';
import { hostSchema } from './host-schema.js';
import { connectFleet } from './provision.js';
import { readSettings } from './settings.js';
import { type MotoPlus, startMotoPlus } from './test-support/moto-plus.js';
import { motoEnv } from './test-support/moto-server.js';

// `congestionControl` on AWS hosts: the fleet launched against moto + the
// stand-in, then connected as provision does to a real sshd on loopback
// (NETBENCH_AWS_SSH_ADDRESS) whose sessions run in a network namespace of
// this test's own — the "VM's" network stack — so setting the default there
// leaves this machine's alone. What runs is the plugin's own connect path:
// sysctl over SSH, the label read back. No AWS endpoint, no real VM: whether
// an Ubuntu AMI's login user gets passwordless sudo and a loadable tcp_bbr is
// not tested here (the cloud kit's unit test pins the sudo/modprobe commands).
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_EC2_METADATA_DISABLED: 'true' };
const saved = Object.fromEntries(Object.keys(CREDENTIALS).map((k) => [k, process.env[k]]));
const quiet: Logger = { debug() {}, info() {}, warn() {} };
const netns = `nbt-cc-${randomBytes(3).toString('hex')}`;
const inNetns = (file: string) => execFileSync('ip', ['netns', 'exec', netns, 'cat', `/proc/sys/net/ipv4/${file}`], { encoding: 'utf8' }).trim();

let plus: MotoPlus;
let sshd: LabSshd;
let runDir: string;
let fleet: FleetLaunch;
let ctx: Parameters<typeof launchFleet>[1];
let clients: AwsClients;

beforeAll(async () => {
  Object.assign(process.env, CREDENTIALS);
  execFileSync('ip', ['netns', 'add', netns]);
  execFileSync('ip', ['-n', netns, 'link', 'set', 'lo', 'up']);
  plus = await startMotoPlus();
  const runId = newRunId();
  runDir = mkdtempSync(join(tmpdir(), 'nb-aws-cc-'));
  const ledgerFile = await LedgerFile.open(join(runDir, 'ledger.jsonl'), runId);
  ctx = { runId, runDir, signal: new AbortController().signal, log: quiet, ledger: ledgerFile.forPlugin('aws'), connectSsh: (o: SshHostOptions) => connectSshHost(o) };
  const requests = ['client', 'server'].map((id) => ({
    id,
    name: id,
    cloud: 'aws',
    config: hostSchema.parse({ zone: 'us-east-1a', machineType: 'c5n.large', user: 'root', hostKeyWait: 0, connectTimeout: 5 }),
  }));
  clients = new AwsClients(new ApiCallCounter(), plus.endpoint);
  fleet = await launchFleet(requests, ctx, { clients, settings: readSettings(motoEnv(plus.endpoint)) });
  const publicKey = readFileSync(join(runDir, 'aws', 'id_ed25519.pub'), 'utf8').trim();
  sshd = await startSshd(runDir, publicKey, { netns });
}, 120_000);

afterAll(async () => {
  clients?.destroy();
  await sshd?.stop();
  await plus?.stop();
  execFileSync('ip', ['netns', 'del', netns]);
  if (runDir) rmSync(runDir, { recursive: true, force: true });
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** The launched fleet with `congestionControl` set on the client's host block. */
const withSetting = (algorithm: string): FleetLaunch => ({
  ...fleet,
  hosts: fleet.hosts.map((h) => (h.request.id === 'client' ? { ...h, request: { ...h.request, config: { ...h.request.config, congestionControl: algorithm } } } : h)),
});
const connect = (launch: FleetLaunch) =>
  connectFleet(launch, { clients, settings: readSettings({ ...motoEnv(plus.endpoint), NETBENCH_AWS_SSH_ADDRESS: `127.0.0.1:${sshd.port}` }) }, ctx);

describe('aws: congestion control set over SSH after boot', () => {
  it('schema: a congestion control name, refused with its position otherwise', () => {
    expect(hostSchema.parse({ zone: 'us-east-1a', congestionControl: 'bbr' }).congestionControl).toBe('bbr');
    expect(hostSchema.safeParse({ zone: 'us-east-1a', congestionControl: 'BBR; reboot' }).error?.issues[0]).toMatchObject({
      path: ['congestionControl'],
      message: 'expected a congestion control algorithm such as cubic, bbr or reno',
    });
  });

  it("sets the client's default and labels every host with what it reports", async () => {
    // reno: built into every kernel and allowed in any namespace.
    const before = inNetns('tcp_congestion_control');
    const hosts = await connect(withSetting('reno'));
    try {
      expect(inNetns('tcp_congestion_control')).toBe('reno');
      expect(hosts[0]!.labels.tcp_congestion_control).toBe('reno');
      // Both "VMs" are the one namespace here, connected at once: the server read it before or after the client's change.
      expect([before, 'reno']).toContain(hosts[1]!.labels.tcp_congestion_control);
    } finally {
      await Promise.all(hosts.map((h) => h.close()));
    }
  });

  it('refuses an algorithm the VM cannot load, naming the host, and closes the connections', async () => {
    await expect(connect(withSetting('nosuchcc'))).rejects.toThrow(
      /aws: host client: congestionControl nosuchcc is not available \(the kernel has: .*reno.*; modprobe tcp_nosuchcc: .+\)\. To fix:/,
    );
    expect(inNetns('tcp_congestion_control')).toBe('reno');
  });
});
