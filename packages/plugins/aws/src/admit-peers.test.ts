import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AuthorizeSecurityGroupIngressCommand,
  DescribeInternetGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
  type IpPermission,
} from '@aws-sdk/client-ec2';
import { connectSshHost } from '@netbench/core';
import type { PeerHost, ProvisionContext, SshHostOptions } from '@netbench/plugin-api';
import { LedgerFile, newRunId, pendingResources } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiCallCounter } from './api-calls.js';
import { awsErrorCode } from './aws-errors.js';
import { awsPlugin } from './aws-plugin.js';
import { AwsClients } from './clients.js';
import { RegionNetwork } from './network.js';
import type { RegionContext } from './resources.js';
import { type MotoPlus, startMotoPlus } from './test-support/moto-plus.js';
import { motoEnv } from './test-support/moto-server.js';

// admitPeers against moto's EC2 on 127.0.0.1: the run's networks are made by
// the same RegionNetwork provision uses (two regions, so two security groups),
// then peers on "other clouds" are admitted from the ledger alone.
const IN_PROCESS = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_EC2_METADATA_DISABLED: 'true' };
const saved = Object.fromEntries(Object.keys(IN_PROCESS).map((k) => [k, process.env[k]]));
const REGIONS = ['us-east-1', 'eu-west-1'] as const;
const SSH_FROM = '198.51.100.7/32';
const PEERS: PeerHost[] = [
  { id: 'gcp-vm', cloud: 'gcp', addresses: ['203.0.113.10', '10.128.0.5'] },
  { id: 'lab', cloud: 'static', addresses: ['2001:db8::5'] },
];

let moto: MotoPlus;
let dir: string;

beforeAll(async () => {
  moto = await startMotoPlus();
  Object.assign(process.env, IN_PROCESS);
  dir = mkdtempSync(join(tmpdir(), 'nb-aws-admit-'));
});
afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await moto?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly runId: string;
  readonly ledgerFile: LedgerFile;
  readonly ctx: ProvisionContext;
  readonly messages: string[];
}

async function openRun(name: string): Promise<Run> {
  const runId = newRunId();
  const ledgerFile = await LedgerFile.open(join(dir, `${name}.jsonl`), runId);
  const messages: string[] = [];
  const log = { debug() {}, info: (m: string) => void messages.push(m), warn: (m: string) => void messages.push(`warn: ${m}`) };
  return {
    runId,
    ledgerFile,
    messages,
    ctx: { runId, runDir: dir, signal: new AbortController().signal, log, ledger: ledgerFile.forPlugin('aws'), connectSsh: (o: SshHostOptions) => connectSshHost(o) },
  };
}

function client(region: string): EC2Client {
  return new EC2Client({ region, endpoint: moto.endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
}

/** A group's inbound rules as comparable rows: protocol, ports, IPv4 sources, IPv6 sources, group sources. */
function rows(permissions: readonly IpPermission[]): string[] {
  return permissions
    .map((p) =>
      [
        p.IpProtocol,
        `${p.FromPort ?? ''}-${p.ToPort ?? ''}`,
        (p.IpRanges ?? [])
          .map((r) => `${r.CidrIp}${r.Description ? ` "${r.Description}"` : ''}`)
          .sort()
          .join(','),
        (p.Ipv6Ranges ?? [])
          .map((r) => `${r.CidrIpv6}${r.Description ? ` "${r.Description}"` : ''}`)
          .sort()
          .join(','),
        (p.UserIdGroupPairs ?? []).map(() => 'self').join(','),
      ].join(' | '),
    )
    .sort();
}

async function runGroups(runId: string, region: string) {
  const ec2 = client(region);
  try {
    return (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'tag:netbench:run-id', Values: [runId] }] }))).SecurityGroups ?? [];
  } finally {
    ec2.destroy();
  }
}

/** Every network resource moto holds with the run's tag in a region. */
async function leftovers(runId: string, region: string): Promise<number> {
  const ec2 = client(region);
  const Filters = [{ Name: 'tag:netbench:run-id', Values: [runId] }];
  try {
    const [vpcs, subnets, groups, gateways, tables] = await Promise.all([
      ec2.send(new DescribeVpcsCommand({ Filters })),
      ec2.send(new DescribeSubnetsCommand({ Filters })),
      ec2.send(new DescribeSecurityGroupsCommand({ Filters })),
      ec2.send(new DescribeInternetGatewaysCommand({ Filters })),
      ec2.send(new DescribeRouteTablesCommand({ Filters })),
    ]);
    return (
      (vpcs.Vpcs?.length ?? 0) +
      (subnets.Subnets?.length ?? 0) +
      (groups.SecurityGroups?.length ?? 0) +
      (gateways.InternetGateways?.length ?? 0) +
      (tables.RouteTables?.length ?? 0)
    );
  } finally {
    ec2.destroy();
  }
}

/** The run's network in each region, made as provision makes it: VPC, gateway, routes, a subnet, the security group. */
async function makeNetworks(run: Run, clients: AwsClients): Promise<void> {
  await Promise.all(
    REGIONS.map(async (region) => {
      const rctx: RegionContext = { ec2: clients.ec2(region), region, runId: run.runId, endpoint: moto.endpoint, ledger: run.ctx.ledger, signal: run.ctx.signal, log: run.ctx.log };
      const network = new RegionNetwork(rctx, { kind: 'new' }, SSH_FROM);
      await Promise.all([network.subnetFor(`${region}a`), network.securityGroupId()]);
    }),
  );
}

async function tearDown(run: Run, plugin: ReturnType<typeof awsPlugin>): Promise<void> {
  for (const entry of pendingResources(run.ledgerFile.entries)) {
    await plugin.teardown(entry.resource, run.ctx);
    await run.ledgerFile.append('aws', 'deleted', entry.resource);
  }
  await run.ledgerFile.close();
}

describe('admitPeers on moto', () => {
  it("opens TCP but 22, UDP and ICMP from every peer address in each region's group, idempotently, and teardown still removes everything", async () => {
    const run = await openRun('admit');
    const counter = new ApiCallCounter();
    const clients = new AwsClients(counter, moto.endpoint);
    const plugin = awsPlugin({ env: motoEnv(moto.endpoint), counter });
    try {
      await makeNetworks(run, clients);
      const before = counter.snapshot().AuthorizeSecurityGroupIngress ?? 0;
      await plugin.admitPeers!(PEERS, run.ctx);
      // One DescribeSecurityGroups and one AuthorizeSecurityGroupIngress per group.
      expect((counter.snapshot().AuthorizeSecurityGroupIngress ?? 0) - before).toBe(2);

      const gcp = '"netbench peer gcp-vm (gcp)"';
      const lab = '"netbench peer lab (static)"';
      const v4 = `203.0.113.10/32 ${gcp},10.128.0.5/32 ${gcp}`.split(',').sort().join(',');
      const v6 = `2001:db8::5/128 ${lab}`;
      const expected = [
        `tcp | 22-22 | ${SSH_FROM} "netbench controller" |  | `,
        '-1 | - |  |  | self',
        `tcp | 0-21 | ${v4} | ${v6} | `,
        `tcp | 23-65535 | ${v4} | ${v6} | `,
        `udp | 0-65535 | ${v4} | ${v6} | `,
        `icmp | -1--1 | ${v4} |  | `,
        `icmpv6 | -1--1 |  | ${v6} | `,
      ].sort();
      for (const region of REGIONS) {
        const groups = await runGroups(run.runId, region);
        expect(groups, region).toHaveLength(1);
        expect(rows(groups[0]!.IpPermissions ?? []), region).toEqual(expected);
        // SSH stays the controller's alone.
        const ssh = (groups[0]!.IpPermissions ?? []).filter((p) => p.IpProtocol === 'tcp' && (p.FromPort ?? 0) <= 22 && (p.ToPort ?? 0) >= 22);
        expect(ssh.flatMap((p) => (p.IpRanges ?? []).map((r) => r.CidrIp))).toEqual([SSH_FROM]);
      }
      expect(run.messages.filter((m) => m.startsWith('aws: admitted gcp-vm (gcp) 203.0.113.10, 10.128.0.5; lab (static) 2001:db8::5 to security group sg-'))).toHaveLength(2);

      // Again: the rules are there, nothing is sent.
      const second = counter.snapshot().AuthorizeSecurityGroupIngress ?? 0;
      await plugin.admitPeers!(PEERS, run.ctx);
      expect(counter.snapshot().AuthorizeSecurityGroupIngress ?? 0).toBe(second);

      // Two at once with a new peer: both see it missing, one of them meets EC2's duplicate refusal, both succeed.
      const more = [...PEERS, { id: 'azure-vm', cloud: 'azure', addresses: ['192.0.2.44'] }];
      await Promise.all([plugin.admitPeers!(more, run.ctx), plugin.admitPeers!(more, run.ctx)]);
      for (const region of REGIONS) {
        const permissions = (await runGroups(run.runId, region))[0]!.IpPermissions ?? [];
        expect(permissions).toHaveLength(7);
        for (const p of permissions.filter((p) => p.IpProtocol !== '-1' && p.IpProtocol !== 'icmpv6' && p.FromPort !== 22)) {
          expect(
            (p.IpRanges ?? []).filter((r) => r.CidrIp === '192.0.2.44/32'),
            `${region} ${p.IpProtocol} ${p.FromPort}`,
          ).toHaveLength(1);
        }
      }

      // The refusal the fallback relies on is the code moto (and EC2) send for an existing rule.
      const groupId = (await runGroups(run.runId, 'us-east-1'))[0]!.GroupId!;
      const ec2 = client('us-east-1');
      const duplicate = await ec2
        .send(
          new AuthorizeSecurityGroupIngressCommand({
            GroupId: groupId,
            IpPermissions: [{ IpProtocol: 'udp', FromPort: 0, ToPort: 65535, IpRanges: [{ CidrIp: '203.0.113.10/32' }] }],
          }),
        )
        .catch((e: unknown) => e);
      ec2.destroy();
      expect(awsErrorCode(duplicate)).toBe('InvalidPermission.Duplicate');
    } finally {
      await tearDown(run, plugin);
      clients.destroy();
    }
    // Rules go with their group: nothing new in the ledger, nothing of the run left.
    expect(
      run.ledgerFile.entries
        .filter((e) => e.phase === 'intent')
        .map((e) => e.resource.type)
        .sort(),
    ).toEqual([
      'ec2-internet-gateway',
      'ec2-internet-gateway',
      'ec2-route-table',
      'ec2-route-table',
      'ec2-route-table-association',
      'ec2-route-table-association',
      'ec2-security-group',
      'ec2-security-group',
      'ec2-subnet',
      'ec2-subnet',
      'ec2-vpc',
      'ec2-vpc',
    ]);
    for (const region of REGIONS) expect(await leftovers(run.runId, region), region).toBe(0);
  });

  it("a host's allowFrom gets the tool ports and ICMP in the group from the start, never SSH", async () => {
    const run = await openRun('allow-from');
    const clients = new AwsClients(new ApiCallCounter(), moto.endpoint);
    const plugin = awsPlugin({ env: motoEnv(moto.endpoint) });
    try {
      const rctx: RegionContext = {
        ec2: clients.ec2('us-east-1'),
        region: 'us-east-1',
        runId: run.runId,
        endpoint: moto.endpoint,
        ledger: run.ctx.ledger,
        signal: run.ctx.signal,
        log: run.ctx.log,
      };
      await new RegionNetwork(rctx, { kind: 'new' }, SSH_FROM, ['192.0.2.0/24']).securityGroupId();
      const groups = await runGroups(run.runId, 'us-east-1');
      const from = '192.0.2.0/24 "netbench allowFrom"';
      expect(rows(groups[0]!.IpPermissions ?? [])).toEqual(
        [
          `tcp | 22-22 | ${SSH_FROM} "netbench controller" |  | `,
          '-1 | - |  |  | self',
          `tcp | 0-21 | ${from} |  | `,
          `tcp | 23-65535 | ${from} |  | `,
          `udp | 0-65535 | ${from} |  | `,
          `icmp | -1--1 | ${from} |  | `,
        ].sort(),
      );
    } finally {
      await tearDown(run, plugin);
      clients.destroy();
    }
    expect(await leftovers(run.runId, 'us-east-1')).toBe(0);
  });

  it('fails clearly when the ledger holds no security group of the run', async () => {
    const run = await openRun('empty');
    const plugin = awsPlugin({ env: motoEnv(moto.endpoint) });
    try {
      await expect(plugin.admitPeers!(PEERS, run.ctx)).rejects.toThrow(`aws: cannot admit peer hosts: the ledger of run ${run.runId} holds no security group of this run`);
      // A group already torn down counts as absent too.
      await run.ctx.ledger.created({
        type: 'ec2-security-group',
        id: 'us-east-1/nb-x-sg',
        data: { region: 'us-east-1', name: 'nb-x-sg', runId: run.runId, awsId: 'sg-0123456789abcdef0' },
      });
      await run.ledgerFile.append('aws', 'deleted', { type: 'ec2-security-group', id: 'us-east-1/nb-x-sg' });
      await expect(plugin.admitPeers!(PEERS, run.ctx)).rejects.toThrow(/holds no security group/);
    } finally {
      await run.ledgerFile.close();
    }
  });

  it("fails clearly when the ledger's group no longer exists in EC2", async () => {
    const run = await openRun('gone');
    const plugin = awsPlugin({ env: motoEnv(moto.endpoint) });
    try {
      await run.ctx.ledger.created({
        type: 'ec2-security-group',
        id: 'us-east-1/nb-y-sg',
        data: { region: 'us-east-1', name: 'nb-y-sg', runId: run.runId, awsId: 'sg-0123456789abcdef0', endpoint: moto.endpoint },
      });
      await expect(plugin.admitPeers!(PEERS, run.ctx)).rejects.toThrow(`aws: security group sg-0123456789abcdef0 of run ${run.runId} is not in us-east-1`);
    } finally {
      await run.ledgerFile.close();
    }
  });
});
