import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeInstancesCommand, DescribeSecurityGroupsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { connectSshHost } from '@netbench/core';
import type { SshHostOptions } from '@netbench/plugin-api';
import { type LedgerEntry, LedgerFile, newRunId, pendingResources } from '@netbench/plugin-api';
import { ApiCallCounter, awsPlugin, hostSchema, readSettings } from '@netbench/plugin-aws';
import { AwsClients, launchFleet } from '@netbench/plugin-aws/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, motoEnv, motoLeftovers, nothingLeft, startMotoPlus } from './helpers/aws-moto.js';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readResults, waitFor } from './helpers/results.js';

// The AWS plugin end to end through the built CLI, against moto's EC2 on
// 127.0.0.1. Nothing here reaches AWS or any non-loopback address: SSH goes to
// a closed loopback port (NETBENCH_AWS_SSH_ADDRESS), the SSH source is given.
const SPEC = 'tests/scenarios/aws-moto/spec.yaml';
const NETWORK_TYPES = ['ec2-key-pair', 'ec2-vpc', 'ec2-internet-gateway', 'ec2-subnet', 'ec2-route-table', 'ec2-route-table-association', 'ec2-security-group'];

let moto: Awaited<ReturnType<typeof startMotoPlus>>;
let env: Record<string, string>;

// In-process SDK clients (the two-region test) read credentials from this process's environment.
const IN_PROCESS = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_EC2_METADATA_DISABLED: 'true' };
const saved = Object.fromEntries(Object.keys(IN_PROCESS).map((k) => [k, process.env[k]]));

beforeAll(async () => {
  moto = await startMotoPlus();
  env = { ...motoEnv(moto.endpoint), NETBENCH_AWS_SSH_ADDRESS: `127.0.0.1:${await closedPort()}` };
  Object.assign(process.env, IN_PROCESS);
});
afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await moto?.stop();
});

function ledgerOf(runDir: string): LedgerEntry[] {
  return readFileSync(join(runDir, 'ledger.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LedgerEntry);
}

describe('aws on moto', () => {
  it('provisions the network and both instances, cannot reach them, and tears everything down (exit 5)', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const started = Date.now();
    const result = await runCli(['run', SPEC, '--runs-dir', runsDir, '--progress', 'none'], { env: { ...env, NETBENCH_HOME: home } });
    const seconds = (Date.now() - started) / 1000;
    expect(result.code, result.stderr).toBe(5);

    const runDir = onlyRunDir(runsDir);
    const { run } = readResults(runDir);
    expect(JSON.stringify(run.errors)).toMatch(/running but not reachable over SSH at 127\.0\.0\.1/);
    const runId = runDir.split('/').at(-1)!;
    const ledger = ledgerOf(runDir);
    const types = new Set(ledger.map((e) => e.resource.type));
    for (const type of [...NETWORK_TYPES, 'ec2-instance']) expect(types, type).toContain(type);
    expect(
      ledger
        .filter((e) => e.resource.type === 'ec2-instance' && e.phase === 'intent')
        .map((e) => e.resource.host)
        .sort(),
    ).toEqual(['client', 'server']);
    expect(ledger.filter((e) => e.resource.type === 'ec2-subnet' && e.phase === 'intent')).toHaveLength(2);
    // Write-ahead: every resource's intent comes before its AWS id; every one was deleted.
    const ids = new Set(ledger.map((e) => `${e.resource.type} ${e.resource.id}`));
    for (const id of ids) {
      const lines = ledger.filter((e) => `${e.resource.type} ${e.resource.id}` === id);
      expect(lines[0]!.phase, id).toBe('intent');
      expect(
        lines.some((e) => e.phase === 'created' && typeof e.resource.data?.awsId === 'string'),
        id,
      ).toBe(true);
      expect(lines.at(-1)!.phase, id).toBe('deleted');
    }
    expect(nothingLeft(await motoLeftovers(moto.endpoint, runId))).toBe(true);

    // The private key stays in the run folder, readable by its owner only.
    expect(statSync(join(runDir, 'aws', 'id_ed25519')).mode & 0o777).toBe(0o600);
    console.log(`aws on moto: provision + unreachable + teardown of 2 hosts in ${seconds.toFixed(1)} s`);
  });

  it('a run killed (SIGKILL) mid-provision is cleaned by `netbench cleanup <run>`', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    // A long SSH budget keeps the run in provision (instances made, SSH retrying) until it is killed.
    const { child, done } = startCli(
      ['run', SPEC, '--runs-dir', runsDir, '--progress', 'none', '--set', 'hosts.client.connectTimeout=120', '--set', 'hosts.server.connectTimeout=120'],
      { env: { ...env, NETBENCH_HOME: home } },
    );
    const runDir = await waitFor(
      () => {
        const dir = existsSync(runsDir)
          ? (() => {
              try {
                return onlyRunDir(runsDir);
              } catch {
                return undefined;
              }
            })()
          : undefined;
        if (!dir || !existsSync(join(dir, 'ledger.jsonl'))) return undefined;
        const created = ledgerOf(dir).filter((e) => e.resource.type === 'ec2-instance' && e.phase === 'created' && e.resource.data?.awsId);
        return created.length === 2 ? dir : undefined;
      },
      60_000,
      'both instances in the ledger',
    );
    child.kill('SIGKILL');
    await done;
    const runId = runDir.split('/').at(-1)!;
    const before = await motoLeftovers(moto.endpoint, runId);
    expect(before.instances).toHaveLength(2);
    expect(before.vpcs).toHaveLength(1);

    const cleanup = await runCli(['cleanup', runId, '--runs-dir', runsDir], { env: { ...env, NETBENCH_HOME: home } });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    expect(cleanup.stdout).toMatch(/deleted ec2-vpc/);
    expect(nothingLeft(await motoLeftovers(moto.endpoint, runId))).toBe(true);
  });

  it('leftovers of a killed run whose folder is gone are found by tag: `cleanup --all --cloud aws`', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const { child, done } = startCli(
      ['run', SPEC, '--runs-dir', runsDir, '--progress', 'none', '--set', 'hosts.client.connectTimeout=120', '--set', 'hosts.server.connectTimeout=120'],
      { env: { ...env, NETBENCH_HOME: home } },
    );
    const runDir = await waitFor(
      () => {
        let dir: string | undefined;
        try {
          dir = onlyRunDir(runsDir);
        } catch {
          return undefined;
        }
        if (!existsSync(join(dir, 'ledger.jsonl'))) return undefined;
        // Killed between an instance's intent and its answer: the ledger alone would not know its id.
        return ledgerOf(dir).some((e) => e.resource.type === 'ec2-instance' && e.phase === 'intent') ? dir : undefined;
      },
      60_000,
      'an instance intent',
    );
    child.kill('SIGKILL');
    await done;
    const runId = runDir.split('/').at(-1)!;
    rmSync(runDir, { recursive: true, force: true });
    const before = await motoLeftovers(moto.endpoint, runId);
    expect((before['vpcs']?.length ?? 0) + (before['keyPairs']?.length ?? 0)).toBeGreaterThan(0);

    const dry = await runCli(['cleanup', '--all', '--cloud', 'aws', '--dry-run', '--json', '--runs-dir', runsDir], { env: { ...env, NETBENCH_HOME: home } });
    expect(dry.code, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as { deleted: { id: string }[] }).deleted.some((r) => r.id.includes(runId))).toBe(true);
    expect(nothingLeft(await motoLeftovers(moto.endpoint, runId))).toBe(false);

    const cleanup = await runCli(['cleanup', '--all', '--cloud', 'aws', '--runs-dir', runsDir], { env: { ...env, NETBENCH_HOME: home } });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    expect(nothingLeft(await motoLeftovers(moto.endpoint, runId))).toBe(true);
  });

  it("two regions: the newest Ubuntu LTS image, SSH only from the controller, the other region's host let in by its address", async () => {
    const runId = newRunId();
    const runDir = tempHome('nb-aws-regions-');
    const ledgerFile = await LedgerFile.open(join(runDir, 'ledger.jsonl'), runId);
    const ctx = {
      runId,
      runDir,
      signal: new AbortController().signal,
      log: { debug() {}, info() {}, warn() {} },
      ledger: ledgerFile.forPlugin('aws'),
      connectSsh: (o: SshHostOptions) => connectSshHost(o),
    };
    const requests = [
      ['east', 'us-east-1a'],
      ['west', 'eu-west-1b'],
    ].map(([id, zone]) => ({ id: id!, name: id!, cloud: 'aws', config: hostSchema.parse({ zone, hostKeyWait: 0 }) }));
    const counter = new ApiCallCounter();
    const settings = readSettings(env);
    const clients = new AwsClients(counter, moto.endpoint);
    const fleet = await launchFleet(requests, ctx, { clients, settings: { ...settings, sshFrom: '198.51.100.7/32' } });
    try {
      expect(fleet.hosts.map((h) => [h.request.id, h.region, h.zone, h.imageId, h.hostKeys.length])).toEqual([
        ['east', 'us-east-1', 'us-east-1a', 'ami-0a1b2c3d4e5f60002', 0],
        ['west', 'eu-west-1', 'eu-west-1b', 'ami-0a1b2c3d4e5f60002', 0],
      ]);
      const [east, west] = fleet.hosts as [(typeof fleet.hosts)[0], (typeof fleet.hosts)[0]];
      for (const [host, peer] of [
        [east, west],
        [west, east],
      ] as const) {
        const ec2 = new EC2Client({ region: host.region, endpoint: moto.endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
        const instance = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [host.instanceId] }))).Reservations?.[0]?.Instances?.[0];
        expect(instance?.Tags).toEqual(
          expect.arrayContaining([
            { Key: 'netbench:run-id', Value: runId },
            { Key: 'netbench:host', Value: host.request.id },
          ]),
        );
        const groups = (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'tag:netbench:run-id', Values: [runId] }] }))).SecurityGroups ?? [];
        expect(groups).toHaveLength(1);
        const group = groups[0];
        const groupId = group?.GroupId;
        const rules = (group?.IpPermissions ?? []).map((p) => [
          p.IpProtocol,
          p.FromPort ?? null,
          (p.IpRanges ?? []).map((r) => r.CidrIp).sort(),
          (p.UserIdGroupPairs ?? []).map((g) => g.GroupId),
        ]);
        expect(rules).toEqual(
          expect.arrayContaining([
            ['tcp', 22, ['198.51.100.7/32'], []],
            ['-1', null, [`${peer.publicIp}/32`], [groupId]],
          ]),
        );
        expect(rules).toHaveLength(2);
        ec2.destroy();
      }
    } finally {
      const plugin = awsPlugin({ env });
      for (const entry of pendingResources(ledgerFile.entries)) {
        await plugin.teardown(entry.resource, ctx);
        await ledgerFile.append('aws', 'deleted', entry.resource);
      }
      await ledgerFile.close();
      clients.destroy();
    }
    expect(nothingLeft(await motoLeftovers(moto.endpoint, runId, 'us-east-1'))).toBe(true);
    expect(nothingLeft(await motoLeftovers(moto.endpoint, runId, 'eu-west-1'))).toBe(true);
  });

  it('run --max-cost below the estimate refuses with exit 6 and creates nothing', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', SPEC, '--runs-dir', runsDir, '--progress', 'none', '--max-cost', '0.001'], { env: { ...env, NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toMatch(/estimated cost \$0\.\d\d is above --max-cost \$0\.00: nothing was created/);
    expect(existsSync(runsDir)).toBe(false);
  });

  it("doctor --cloud aws names the identity and counts the plan's vCPUs per region", async () => {
    const result = await runCli(['doctor', '--cloud', 'aws', SPEC, '--json'], { env });
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] };
    const byName = new Map(report.checks.map((c) => [c.name, c]));
    expect(byName.get('aws: credentials')?.ok).toBe(true);
    expect(byName.get('aws: identity')?.detail).toMatch(/arn:aws:.*\(account 123456789012\)/);
    // moto-plus answers the EC2 quota (its default Standard quota: 5 vCPUs, a new account's); 2 × m5.large = 4 vCPUs.
    expect(byName.get('aws: vCPU quota us-east-1')?.detail).toMatch(/plan needs 4 Standard .* vCPUs; quota 5, 0 running, headroom 5/);
    expect(result.code).toBe(report.ok ? 0 : 1);
  });
});
