import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTagsCommand, EC2Client, StartInstancesCommand, StopInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { connectSshHost } from '@netbench/core';
import { LedgerFile, type Logger, newRunId, type SshHost, type SshHostOptions } from '@netbench/plugin-api';
import { type LabSshd, startSshd } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiCallCounter } from './api-calls.js';
import { awsPlugin } from './aws-plugin.js';
import { AwsClients } from './clients.js';
import { type FleetLaunch, launchFleet } from './fleet.js';
import { hostSchema } from './host-schema.js';
import { connectFleet } from './provision.js';
import { readSettings } from './settings.js';
import { type MotoPlus, startMotoPlus } from './test-support/moto-plus.js';
import { motoEnv } from './test-support/moto-server.js';

// `reattach` (a staged run's later invocation) against moto + the stand-in
// (test-support/moto-plus.ts) for the EC2 API and a real sshd on loopback
// standing in for the instances (NETBENCH_AWS_SSH_ADDRESS): the fleet is
// launched as provision does, connected (its host key recorded, trusted on
// first use: moto has no console), then found again from the ledger. No AWS
// endpoint and no real VM are involved.
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_EC2_METADATA_DISABLED: 'true' };
const saved = Object.fromEntries(Object.keys(CREDENTIALS).map((k) => [k, process.env[k]]));
const quiet: Logger = { debug() {}, info() {}, warn() {} };

let plus: MotoPlus;
let ec2: EC2Client;
let sshd: LabSshd;
let other: LabSshd;
let runDir: string;
let otherDir: string;
let fleet: FleetLaunch;
let ctx: Parameters<NonNullable<ReturnType<typeof awsPlugin>['reattach']>>[1];
let requests: Parameters<NonNullable<ReturnType<typeof awsPlugin>['reattach']>>[0];
let envFor: (port: number) => Record<string, string>;

beforeAll(async () => {
  Object.assign(process.env, CREDENTIALS);
  plus = await startMotoPlus();
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: plus.endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' }, maxAttempts: 1 });
  envFor = (port) => ({ ...motoEnv(plus.endpoint), NETBENCH_AWS_SSH_ADDRESS: `127.0.0.1:${port}` });
  const runId = newRunId();
  runDir = mkdtempSync(join(tmpdir(), 'nb-aws-reattach-'));
  otherDir = mkdtempSync(join(tmpdir(), 'nb-aws-other-'));
  const ledgerFile = await LedgerFile.open(join(runDir, 'ledger.jsonl'), runId);
  ctx = { runId, runDir, signal: new AbortController().signal, log: quiet, ledger: ledgerFile.forPlugin('aws'), connectSsh: (o: SshHostOptions) => connectSshHost(o) };
  requests = ['client', 'server'].map((id) => ({
    id,
    name: id,
    cloud: 'aws',
    config: hostSchema.parse({ zone: 'us-east-1a', machineType: 'c5n.large', user: 'root', hostKeyWait: 0, connectTimeout: 5 }),
  }));
  const clients = new AwsClients(new ApiCallCounter(), plus.endpoint);
  fleet = await launchFleet(requests, ctx, { clients, settings: readSettings(motoEnv(plus.endpoint)) });
  // The sshd accepts the run's login key, made by launchFleet.
  const publicKey = readFileSync(join(runDir, 'aws', 'id_ed25519.pub'), 'utf8').trim();
  sshd = await startSshd(runDir, publicKey);
  other = await startSshd(otherDir, publicKey);
  const hosts = await connectFleet(fleet, { clients, settings: readSettings(envFor(sshd.port)) }, ctx);
  await Promise.all(hosts.map((h) => h.close()));
  clients.destroy();
}, 120_000);

afterAll(async () => {
  ec2?.destroy();
  await sshd?.stop();
  await other?.stop();
  await plus?.stop();
  for (const dir of [runDir, otherDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

const reattach = (port = sshd.port) => awsPlugin({ env: envFor(port) }).reattach!(requests, ctx) as Promise<SshHost[]>;
const instanceOf = (host: string) => fleet.hosts.find((h) => h.request.id === host)!.instanceId;

describe('aws reattach against moto', () => {
  it('gives back every host from the ledger with DescribeInstances only, on the key recorded at provision', async () => {
    const before = plus.actions.length;
    const hosts = await reattach();
    try {
      expect(hosts.map((h) => h.id)).toEqual(['client', 'server']);
      expect([...new Set(plus.actions.slice(before).map((a) => a.action))]).toEqual(['DescribeInstances']);
      expect(hosts[0]!.hostKeyVerification).toBe('pinned');
      expect(hosts[0]!.labels?.hostKey).toBe('tofu');
      expect(hosts[1]!.internalIp).toBe(fleet.hosts[1]!.privateIp);
      expect((await hosts[0]!.exec(['echo', 'still here'])).stdout.trim()).toBe('still here');
    } finally {
      await Promise.all(hosts.map((h) => h.close()));
    }
  });

  it('refuses a machine at the address whose host key is not the one recorded at provision', async () => {
    await expect(reattach(other.port)).rejects.toThrow(/HOST KEY MISMATCH/);
  });

  it("refuses an instance whose tags are not this run's", async () => {
    const id = instanceOf('client');
    await ec2.send(new CreateTagsCommand({ Resources: [id], Tags: [{ Key: 'netbench:run-id', Value: '20260101-000000-other0' }] }));
    try {
      await expect(reattach()).rejects.toThrow(/host client: instance i-\w+ .* does not carry the tags netbench:run-id=.*it is not this run's/);
    } finally {
      await ec2.send(new CreateTagsCommand({ Resources: [id], Tags: [{ Key: 'netbench:run-id', Value: ctx.runId }] }));
    }
  });

  it('refuses a stopped instance', async () => {
    const id = instanceOf('server');
    await ec2.send(new StopInstancesCommand({ InstanceIds: [id] }));
    try {
      await expect(reattach()).rejects.toThrow(/host server: instance i-\w+ .* is (stopping|stopped), not running/);
    } finally {
      await ec2.send(new StartInstancesCommand({ InstanceIds: [id] }));
    }
  });

  it('refuses a host the ledger does not list', async () => {
    const extra = [...requests, { ...requests[0]!, id: 'third', name: 'third' }];
    await expect(awsPlugin({ env: envFor(sshd.port) }).reattach!(extra, ctx)).rejects.toThrow(/has no instance for host third/);
  });

  it('refuses a terminated instance', async () => {
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [instanceOf('server')] }));
    await expect(reattach()).rejects.toThrow(/host server: instance i-\w+ .* is (shutting-down|terminated), not running|host server: .* is gone/);
  });
});
