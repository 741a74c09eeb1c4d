import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreatePlacementGroupCommand,
  DeletePlacementGroupCommand,
  DescribeInstancesCommand,
  DescribePlacementGroupsCommand,
  type DescribePlacementGroupsCommandInput,
  DescribeVpcsCommand,
  EC2Client,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { connectSshHost } from '@netbench/core';
import type { Logger, SshHostOptions } from '@netbench/plugin-api';
import { LedgerFile, type LedgerResource, newRunId, pendingResources } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiCallCounter } from './api-calls.js';
import { awsErrorCode, isDependencyViolation, isNotFound } from './aws-errors.js';
import { awsPlugin } from './aws-plugin.js';
import { AwsClients } from './clients.js';
import { launchFleet } from './fleet.js';
import { hostSchema } from './host-schema.js';
import { readSettings } from './settings.js';
import { type MotoPlus, startMotoPlus } from './test-support/moto-plus.js';
import { motoEnv } from './test-support/moto-server.js';

// Cluster placement groups against moto + the stand-in (test-support/moto-plus.ts):
// moto has the network and the instances, the stand-in the placement groups.
// All traffic is to 127.0.0.1; no SSH is attempted (launchFleet stops before it).
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_EC2_METADATA_DISABLED: 'true' };
const saved = Object.fromEntries(Object.keys(CREDENTIALS).map((k) => [k, process.env[k]]));
const RUN_TAG = 'netbench:run-id';
const AMI = 'ami-0a1b2c3d4e5f60002';

let plus: MotoPlus;
let env: Record<string, string>;
let ec2: EC2Client;
const dirs: string[] = [];
const quiet: Logger = { debug() {}, info() {}, warn() {} };

beforeAll(async () => {
  Object.assign(process.env, CREDENTIALS);
  plus = await startMotoPlus();
  env = motoEnv(plus.endpoint);
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: plus.endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' }, maxAttempts: 1 });
});
afterAll(async () => {
  ec2?.destroy();
  await plus?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A run's fleet, launched the way provision does (without SSH), with its ledger. */
async function launch(hosts: Record<string, Record<string, unknown>>) {
  const runId = newRunId();
  const runDir = mkdtempSync(join(tmpdir(), 'nb-aws-pg-'));
  dirs.push(runDir);
  const ledgerFile = await LedgerFile.open(join(runDir, 'ledger.jsonl'), runId);
  const ctx = { runId, runDir, signal: new AbortController().signal, log: quiet, ledger: ledgerFile.forPlugin('aws'), connectSsh: (o: SshHostOptions) => connectSshHost(o) };
  const requests = Object.entries(hosts).map(([id, config]) => ({ id, name: id, cloud: 'aws', config: hostSchema.parse({ hostKeyWait: 0, ...config }) }));
  const clients = new AwsClients(new ApiCallCounter(), plus.endpoint);
  const fleet = await launchFleet(requests, ctx, { clients, settings: readSettings(env) });
  clients.destroy();
  return { runId, runDir, ledgerFile, ctx, fleet };
}

/** Tear a run down as the engine does: pending ledger entries, newest first. */
async function teardownAll(run: Awaited<ReturnType<typeof launch>>): Promise<LedgerResource[]> {
  const plugin = awsPlugin({ env });
  const order: LedgerResource[] = [];
  for (const entry of pendingResources(run.ledgerFile.entries)) {
    await plugin.teardown(entry.resource, run.ctx);
    await run.ledgerFile.append('aws', 'deleted', entry.resource);
    order.push(entry.resource);
  }
  await run.ledgerFile.close();
  return order;
}

async function groupsOfRun(runId: string) {
  return (await ec2.send(new DescribePlacementGroupsCommand({ Filters: [{ Name: `tag:${RUN_TAG}`, Values: [runId] }] }))).PlacementGroups ?? [];
}

const actionsSince = (start: number) => plus.actions.slice(start);

describe('moto-plus: the placement-group wire shapes moto lacks', () => {
  it('creates, describes (names, filters, tags), refuses duplicates and unknown names, deletes', async () => {
    const Tags = [
      { Key: 'Name', Value: 'wire-a' },
      { Key: RUN_TAG, Value: 'wire-run' },
    ];
    const made = await ec2.send(new CreatePlacementGroupCommand({ GroupName: 'wire-a', Strategy: 'cluster', TagSpecifications: [{ ResourceType: 'placement-group', Tags }] }));
    expect(made.PlacementGroup).toMatchObject({ GroupName: 'wire-a', Strategy: 'cluster', State: 'available', Tags });
    expect(made.PlacementGroup?.GroupId).toMatch(/^pg-[0-9a-f]{17}$/);
    expect(made.PlacementGroup?.GroupArn).toBe('arn:aws:ec2:us-east-1:123456789012:placement-group/wire-a');
    await ec2.send(new CreatePlacementGroupCommand({ GroupName: 'wire-b', Strategy: 'spread' }));

    const duplicate = await rejection(ec2.send(new CreatePlacementGroupCommand({ GroupName: 'wire-a', Strategy: 'cluster' })));
    expect(awsErrorCode(duplicate)).toBe('InvalidPlacementGroup.Duplicate');
    expect(awsErrorCode(await rejection(ec2.send(new CreatePlacementGroupCommand({ GroupName: 'wire-c', Strategy: 'clustered' as never }))))).toBe('InvalidParameterValue');

    const names = async (input: DescribePlacementGroupsCommandInput) =>
      ((await ec2.send(new DescribePlacementGroupsCommand(input))).PlacementGroups ?? []).map((g) => g.GroupName).sort();
    expect(await names({ GroupNames: ['wire-b'] })).toEqual(['wire-b']);
    expect(await names({ Filters: [{ Name: 'tag-key', Values: [RUN_TAG] }] })).toEqual(['wire-a']);
    expect(await names({ Filters: [{ Name: `tag:${RUN_TAG}`, Values: ['wire-*'] }] })).toEqual(['wire-a']);
    expect(
      await names({
        Filters: [
          { Name: 'strategy', Values: ['spread'] },
          { Name: 'group-name', Values: ['wire-?'] },
        ],
      }),
    ).toEqual(['wire-b']);
    expect(await names({ Filters: [{ Name: `tag:${RUN_TAG}`, Values: ['other-run'] }] })).toEqual([]);
    const unknown = await rejection(ec2.send(new DescribePlacementGroupsCommand({ GroupNames: ['wire-missing'] })));
    expect(awsErrorCode(unknown)).toBe('InvalidPlacementGroup.Unknown');
    expect(awsErrorCode(await rejection(ec2.send(new DescribePlacementGroupsCommand({ Filters: [{ Name: 'colour', Values: ['red'] }] }))))).toBe('InvalidParameterValue');

    await ec2.send(new DeletePlacementGroupCommand({ GroupName: 'wire-a' }));
    await ec2.send(new DeletePlacementGroupCommand({ GroupName: 'wire-b' }));
    const gone = await rejection(ec2.send(new DeletePlacementGroupCommand({ GroupName: 'wire-a' })));
    // The plugin's teardown treats this code as "already deleted".
    expect(awsErrorCode(gone)).toBe('InvalidPlacementGroup.Unknown');
    expect(isNotFound(gone)).toBe(true);
  });

  it('launches into a group, refuses an unknown one, holds the group in use until the instance terminates', async () => {
    await ec2.send(new CreatePlacementGroupCommand({ GroupName: 'wire-use', Strategy: 'cluster' }));
    const refused = await rejection(
      ec2.send(
        new RunInstancesCommand({ ImageId: AMI, InstanceType: 'c5n.large', MinCount: 1, MaxCount: 1, Placement: { AvailabilityZone: 'us-east-1a', GroupName: 'wire-nope' } }),
      ),
    );
    expect(awsErrorCode(refused)).toBe('InvalidPlacementGroup.Unknown');

    const run = await ec2.send(
      new RunInstancesCommand({ ImageId: AMI, InstanceType: 'c5n.large', MinCount: 1, MaxCount: 1, Placement: { AvailabilityZone: 'us-east-1a', GroupName: 'wire-use' } }),
    );
    const id = run.Instances![0]!.InstanceId!;
    expect(run.Instances![0]!.Placement).toMatchObject({ GroupName: 'wire-use', AvailabilityZone: 'us-east-1a' });
    const described = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: 'placement-group-name', Values: ['wire-use'] }] }));
    expect(described.Reservations?.flatMap((r) => r.Instances ?? []).map((i) => [i.InstanceId, i.Placement?.GroupName])).toEqual([[id, 'wire-use']]);

    const inUse = await rejection(ec2.send(new DeletePlacementGroupCommand({ GroupName: 'wire-use' })));
    expect(awsErrorCode(inUse)).toBe('InvalidPlacementGroup.InUse');
    // The plugin's teardown retries this code.
    expect(isDependencyViolation(inUse)).toBe(true);

    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
    await ec2.send(new DeletePlacementGroupCommand({ GroupName: 'wire-use' }));
    // Anything else is moto's, unchanged.
    expect((await ec2.send(new DescribeVpcsCommand({}))).Vpcs?.length).toBeGreaterThan(0);
    expect(plus.actions.find((a) => a.action === 'DescribeVpcs')?.by).toBe('moto');
  });
});

describe('cluster placement (plugin against moto-plus)', () => {
  it('provisions one group per zone tagged with the run id, launches into it, and teardown deletes it after the instances', async () => {
    const start = plus.actions.length;
    const run = await launch({
      client: { zone: 'us-east-1a', machineType: 'c5n.large', placement: 'cluster' },
      server: { zone: 'us-east-1a', machineType: 'c5n.large', placement: 'cluster' },
      monitor: { zone: 'us-east-1a', machineType: 't3.micro' },
    });
    const name = `nb-${run.runId}-cluster-us-east-1a`;

    const groups = await groupsOfRun(run.runId);
    expect(groups.map((g) => [g.GroupName, g.Strategy, g.State])).toEqual([[name, 'cluster', 'available']]);
    expect(groups[0]!.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'Name', Value: name },
        { Key: RUN_TAG, Value: run.runId },
      ]),
    );
    // One group for both cluster hosts, made once.
    expect(actionsSince(start).filter((a) => a.action === 'CreatePlacementGroup')).toHaveLength(1);

    // The ledger knows it (write-ahead: intent before the call, then its name as AWS id).
    const lines = run.ledgerFile.entries.filter((e) => e.resource.type === 'ec2-placement-group');
    expect([lines[0], lines.at(-1)].map((e) => [e?.phase, e?.resource.id, e?.resource.data?.awsId ?? null])).toEqual([
      ['intent', `us-east-1/${name}`, null],
      ['created', `us-east-1/${name}`, name],
    ]);

    // RunInstances carries the group for the cluster hosts only.
    const launches = actionsSince(start).filter((a) => a.action === 'RunInstances');
    const placementOf = (host: string) =>
      launches.find((a) => Object.entries(a.params).some(([k, v]) => k.endsWith('.Key') && v === 'netbench:host' && a.params[k.replace(/Key$/, 'Value')] === host))?.params[
        'Placement.GroupName'
      ];
    expect([placementOf('client'), placementOf('server'), placementOf('monitor')]).toEqual([name, name, undefined]);
    const byHost = new Map(run.fleet.hosts.map((h) => [h.request.id, h.instanceId]));
    const instances = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [...byHost.values()] }))).Reservations!.flatMap((r) => r.Instances ?? []);
    expect(instances.find((i) => i.InstanceId === byHost.get('server'))?.Placement?.GroupName).toBe(name);
    expect(instances.find((i) => i.InstanceId === byHost.get('monitor'))?.Placement?.GroupName ?? '').toBe('');

    const beforeTeardown = plus.actions.length;
    const order = await teardownAll(run);
    expect(order.findIndex((r) => r.type === 'ec2-placement-group')).toBeGreaterThan(order.findLastIndex((r) => r.type === 'ec2-instance'));
    expect(await groupsOfRun(run.runId)).toEqual([]);
    const after = actionsSince(beforeTeardown);
    const deletes = after.filter((a) => a.action === 'DeletePlacementGroup');
    // Deleted once, at the first try: every member had been terminated before.
    expect(deletes.map((a) => [a.params.GroupName, a.status])).toEqual([[name, 200]]);
    const terminated = after.filter((a) => a.action === 'TerminateInstances').flatMap((a) => Object.values(a.params).filter((v) => v.startsWith('i-')));
    expect(terminated.sort()).toEqual([...byHost.values()].sort());
    expect(after.indexOf(deletes[0]!)).toBeGreaterThan(after.findLastIndex((a) => a.action === 'TerminateInstances'));
  });

  it('teardown of the group waits while an instance still runs in it (ledger order broken on purpose)', async () => {
    const run = await launch({ solo: { zone: 'us-east-1b', machineType: 'c5n.large', placement: 'cluster' } });
    const group = pendingResources(run.ledgerFile.entries).find((e) => e.resource.type === 'ec2-placement-group')!.resource;
    const instanceId = run.fleet.hosts[0]!.instanceId;
    const start = plus.actions.length;
    const plugin = awsPlugin({ env });
    const deleting = plugin.teardown(group, run.ctx);
    // Meanwhile the instance goes away (as its own teardown would do).
    await new Promise((r) => setTimeout(r, 300));
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [instanceId] }));
    await deleting;
    await run.ledgerFile.append('aws', 'deleted', group);
    const seen = actionsSince(start);
    const terminate = seen.findIndex((a) => a.action === 'TerminateInstances');
    const deleted = seen.findIndex((a) => a.action === 'DeletePlacementGroup' && a.status === 200);
    expect(terminate).toBeGreaterThanOrEqual(0);
    expect(deleted).toBeGreaterThan(terminate);
    // It asked moto-plus who is in the group (placement-group-name) before deleting.
    expect(seen.slice(0, terminate).some((a) => a.action === 'DescribeInstances' && a.params['Filter.1.Name'] === 'placement-group-name')).toBe(true);
    expect(await groupsOfRun(run.runId)).toEqual([]);
    await teardownAll(run);
  });

  it("cleanup finds a leaked group (and the run's instances) by tag, spares other runs, and deletes it", async () => {
    const leaked = await launch({ lost: { zone: 'us-east-1a', machineType: 'c5n.large', placement: 'cluster' } });
    await leaked.ledgerFile.close();
    // Another run's group, which the run filter must not touch.
    await ec2.send(
      new CreatePlacementGroupCommand({
        GroupName: 'nb-other-cluster',
        Strategy: 'cluster',
        TagSpecifications: [{ ResourceType: 'placement-group', Tags: [{ Key: RUN_TAG, Value: '20200101-000000-aaaaaa' }] }],
      }),
    );
    const name = `nb-${leaked.runId}-cluster-us-east-1a`;
    const plugin = awsPlugin({ env });
    const ctx = { runId: 'cleanup', runDir: tmpdir(), signal: new AbortController().signal, log: quiet };

    const dry = await plugin.cleanup!({ runId: leaked.runId, dryRun: true }, ctx);
    expect(dry.found.filter((r) => r.type === 'ec2-placement-group').map((r) => [r.id, r.data?.runId])).toEqual([[`us-east-1/${name}`, leaked.runId]]);
    // Instances are found (and so deleted) before the group.
    const types = dry.found.map((r) => r.type);
    expect(types.indexOf('ec2-instance')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('ec2-instance')).toBeLessThan(types.indexOf('ec2-placement-group'));
    expect(await groupsOfRun(leaked.runId)).toHaveLength(1);
    // While the run is alive on the machine that sweeps (excludeRunIds): nothing found to delete, all of it reported as spared.
    const live = await plugin.cleanup!({ runId: leaked.runId, excludeRunIds: [leaked.runId] }, ctx);
    expect(live.found).toEqual([]);
    expect(live.spared?.map((r) => r.type).sort()).toEqual(types.sort());
    expect(await groupsOfRun(leaked.runId)).toHaveLength(1);

    const report = await plugin.cleanup!({ runId: leaked.runId }, ctx);
    expect(report.failed).toEqual([]);
    expect(await groupsOfRun(leaked.runId)).toEqual([]);
    const alive = await ec2.send(
      new DescribeInstancesCommand({
        Filters: [
          { Name: `tag:${RUN_TAG}`, Values: [leaked.runId] },
          { Name: 'instance-state-name', Values: ['pending', 'running'] },
        ],
      }),
    );
    expect(alive.Reservations ?? []).toEqual([]);
    expect((await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: `tag:${RUN_TAG}`, Values: [leaked.runId] }] }))).Vpcs).toEqual([]);
    expect((await ec2.send(new DescribePlacementGroupsCommand({ GroupNames: ['nb-other-cluster'] }))).PlacementGroups).toHaveLength(1);
    await ec2.send(new DeletePlacementGroupCommand({ GroupName: 'nb-other-cluster' }));
  });
});

describe("diskGb on the image's own root device (moto)", () => {
  const runInstances = (start: number) => actionsSince(start).filter((a) => a.action === 'RunInstances');

  it('maps the root device the image names: /dev/xvda for a custom AMI given by id, /dev/sda1 for Ubuntu', async () => {
    const start = plus.actions.length;
    const run = await launch({
      custom: { zone: 'us-east-1a', machineType: 'm5.large', image: 'ami-0a1b2c3d4e5f60005', diskGb: 40 },
      ubuntu: { zone: 'us-east-1a', machineType: 'm5.large', diskGb: 30 },
    });
    const launched = runInstances(start);
    expect(launched).toHaveLength(2);
    const byImage = new Map(launched.map((a) => [a.params['ImageId'], a.params]));
    expect(byImage.get('ami-0a1b2c3d4e5f60005')).toMatchObject({ 'BlockDeviceMapping.1.DeviceName': '/dev/xvda', 'BlockDeviceMapping.1.Ebs.VolumeSize': '40' });
    expect(byImage.get('ami-0a1b2c3d4e5f60002')).toMatchObject({ 'BlockDeviceMapping.1.DeviceName': '/dev/sda1', 'BlockDeviceMapping.1.Ebs.VolumeSize': '30' });
    // One mapping each: a second name would have added a volume instead of growing the root.
    for (const params of launched.map((a) => a.params)) expect(params['BlockDeviceMapping.2.DeviceName']).toBeUndefined();
    await teardownAll(run);
  });

  it('sends no block device mapping without diskGb', async () => {
    const start = plus.actions.length;
    const run = await launch({ plain: { zone: 'us-east-1a', machineType: 'm5.large', image: 'ami-0a1b2c3d4e5f60005' } });
    expect(Object.keys(runInstances(start)[0]!.params).filter((k) => k.startsWith('BlockDeviceMapping'))).toEqual([]);
    await teardownAll(run);
  });
});
