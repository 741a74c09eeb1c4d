import {
  DeleteInternetGatewayCommand,
  DeleteKeyPairCommand,
  DeletePlacementGroupCommand,
  DeleteRouteTableCommand,
  DeleteSecurityGroupCommand,
  DeleteSubnetCommand,
  DeleteVpcCommand,
  DescribeInstancesCommand,
  DescribeInternetGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  DetachInternetGatewayCommand,
  DisassociateRouteTableCommand,
  type EC2Client,
  type Filter,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import type { LedgerResource } from '@netbench/plugin-api';
import { isDependencyViolation, isNotFound } from './aws-errors.js';
import type { AwsClients } from './clients.js';
import { RUN_TAG } from './naming.js';
import { type AwsResourceData, RESOURCE, resourceData } from './resources.js';
import { pollUntil, retryDependencies } from './wait.js';

/** Bound on waiting for instances to go and for dependencies to clear, within the engine's teardown timeout. */
const WAIT_MS = 240_000;
const ALIVE = ['pending', 'running', 'shutting-down', 'stopping', 'stopped'];

interface TeardownEnv {
  readonly ec2: EC2Client;
  readonly data: AwsResourceData;
  readonly signal: AbortSignal;
}

/**
 * Delete one ledger resource, from the entry alone. Idempotent: a resource
 * that is gone (NotFound) is success. Instances are only asked to terminate;
 * the network resources after them (in reverse ledger order) wait until no
 * live instance uses them, then retry dependency violations with back-off.
 */
export async function teardownResource(resource: LedgerResource, clients: AwsClients, signal: AbortSignal): Promise<void> {
  const data = resourceData(resource);
  const env: TeardownEnv = { ec2: clients.ec2(data.region, data.endpoint), data, signal };
  try {
    await deleteByType(resource.type, env);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

async function deleteByType(type: string, env: TeardownEnv): Promise<void> {
  switch (type) {
    case RESOURCE.instance:
      return terminateInstances(env);
    case RESOURCE.placementGroup:
      await waitNoInstances(env, [{ Name: 'placement-group-name', Values: [env.data.name] }]);
      return void (await retry(env, () => env.ec2.send(new DeletePlacementGroupCommand({ GroupName: env.data.name }), { abortSignal: env.signal })));
    case RESOURCE.securityGroup:
      return deleteSecurityGroup(env);
    case RESOURCE.association:
      // Without an id the route table's own teardown removes what is left.
      if (env.data.awsId) await env.ec2.send(new DisassociateRouteTableCommand({ AssociationId: env.data.awsId }), { abortSignal: env.signal });
      return;
    case RESOURCE.routeTable:
      return deleteRouteTable(env);
    case RESOURCE.subnet:
      return deleteSubnet(env);
    case RESOURCE.internetGateway:
      return deleteInternetGateway(env);
    case RESOURCE.vpc:
      return deleteVpc(env);
    case RESOURCE.keyPair:
      // Deleting a missing key pair succeeds in EC2.
      return void (await env.ec2.send(new DeleteKeyPairCommand({ KeyName: env.data.name }), { abortSignal: env.signal }));
    default:
      throw new Error(`unknown AWS resource type ${type}`);
  }
}

function retry<T>(env: TeardownEnv, action: () => Promise<T>): Promise<T> {
  return retryDependencies(action, { timeoutMs: WAIT_MS, signal: env.signal });
}

/** The resource's own Name tag and run id: how it is found when the ledger has no AWS id (crash between call and answer). */
function byName(data: AwsResourceData): Filter[] {
  return [{ Name: 'tag:Name', Values: [data.name] }, ...(data.runId ? [{ Name: `tag:${RUN_TAG}`, Values: [data.runId] }] : [])];
}

async function liveInstanceIds(env: TeardownEnv, filters: Filter[]): Promise<string[]> {
  const out = await env.ec2.send(new DescribeInstancesCommand({ Filters: [...filters, { Name: 'instance-state-name', Values: ALIVE }] }), { abortSignal: env.signal });
  return (out.Reservations ?? [])
    .flatMap((r) => r.Instances ?? [])
    .map((i) => i.InstanceId!)
    .filter(Boolean);
}

async function terminateInstances(env: TeardownEnv): Promise<void> {
  const ids = env.data.awsId ? [env.data.awsId] : await liveInstanceIds(env, byName(env.data));
  if (ids.length === 0) return;
  await env.ec2.send(new TerminateInstancesCommand({ InstanceIds: ids }), { abortSignal: env.signal });
}

/** Wait until no live instance matches (terminating ones still hold ENIs, addresses, group memberships). */
async function waitNoInstances(env: TeardownEnv, filters: Filter[]): Promise<void> {
  await pollUntil(
    async () => ((await liveInstanceIds(env, filters)).length === 0 ? true : undefined),
    `instances (${filters.map((f) => `${f.Name}=${f.Values?.join(',')}`).join(' ')}) to terminate`,
    {
      timeoutMs: WAIT_MS,
      signal: env.signal,
      initialDelayMs: 2000,
      maxDelayMs: 10_000,
    },
  );
}

async function deleteSecurityGroup(env: TeardownEnv): Promise<void> {
  let groupId = env.data.awsId;
  if (!groupId) {
    const out = await env.ec2.send(new DescribeSecurityGroupsCommand({ Filters: byName(env.data) }), { abortSignal: env.signal });
    groupId = out.SecurityGroups?.[0]?.GroupId;
    if (!groupId) return;
  }
  await waitNoInstances(env, [{ Name: 'instance.group-id', Values: [groupId] }]);
  await retry(env, () => env.ec2.send(new DeleteSecurityGroupCommand({ GroupId: groupId }), { abortSignal: env.signal }));
}

async function deleteRouteTable(env: TeardownEnv): Promise<void> {
  // Usually its associations are gone already (their own ledger lines): one call.
  if (env.data.awsId) {
    try {
      await env.ec2.send(new DeleteRouteTableCommand({ RouteTableId: env.data.awsId }), { abortSignal: env.signal });
      return;
    } catch (error) {
      if (!isDependencyViolation(error)) throw error;
    }
  }
  const query = env.data.awsId ? { RouteTableIds: [env.data.awsId] } : { Filters: byName(env.data) };
  const out = await env.ec2.send(new DescribeRouteTablesCommand(query), { abortSignal: env.signal });
  for (const table of out.RouteTables ?? []) {
    for (const association of table.Associations ?? []) {
      if (association.Main || !association.RouteTableAssociationId) continue;
      try {
        await env.ec2.send(new DisassociateRouteTableCommand({ AssociationId: association.RouteTableAssociationId }), { abortSignal: env.signal });
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    await retry(env, () => env.ec2.send(new DeleteRouteTableCommand({ RouteTableId: table.RouteTableId! }), { abortSignal: env.signal }));
  }
}

async function deleteSubnet(env: TeardownEnv): Promise<void> {
  let subnetId = env.data.awsId;
  if (!subnetId) {
    const out = await env.ec2.send(new DescribeSubnetsCommand({ Filters: byName(env.data) }), { abortSignal: env.signal });
    subnetId = out.Subnets?.[0]?.SubnetId;
    if (!subnetId) return;
  }
  await waitNoInstances(env, [{ Name: 'subnet-id', Values: [subnetId] }]);
  await retry(env, () => env.ec2.send(new DeleteSubnetCommand({ SubnetId: subnetId }), { abortSignal: env.signal }));
}

async function deleteInternetGateway(env: TeardownEnv): Promise<void> {
  let gatewayId = env.data.awsId;
  let vpcIds = env.data.vpcId ? [env.data.vpcId] : [];
  if (!gatewayId) {
    const out = await env.ec2.send(new DescribeInternetGatewaysCommand({ Filters: byName(env.data) }), { abortSignal: env.signal });
    const gateway = out.InternetGateways?.[0];
    if (!gateway?.InternetGatewayId) return;
    gatewayId = gateway.InternetGatewayId;
    vpcIds = (gateway.Attachments ?? []).map((a) => a.VpcId!).filter(Boolean);
  }
  for (const vpcId of vpcIds) {
    // Public addresses of instances still mapped block the detach: wait for them first.
    await waitNoInstances(env, [{ Name: 'vpc-id', Values: [vpcId] }]);
    try {
      await retry(env, () => env.ec2.send(new DetachInternetGatewayCommand({ InternetGatewayId: gatewayId, VpcId: vpcId }), { abortSignal: env.signal }));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  await retry(env, () => env.ec2.send(new DeleteInternetGatewayCommand({ InternetGatewayId: gatewayId }), { abortSignal: env.signal }));
}

async function deleteVpc(env: TeardownEnv): Promise<void> {
  let vpcId = env.data.awsId;
  if (!vpcId) {
    const out = await env.ec2.send(new DescribeVpcsCommand({ Filters: byName(env.data) }), { abortSignal: env.signal });
    vpcId = out.Vpcs?.[0]?.VpcId;
    if (!vpcId) return;
  }
  await waitNoInstances(env, [{ Name: 'vpc-id', Values: [vpcId] }]);
  await retry(env, () => env.ec2.send(new DeleteVpcCommand({ VpcId: vpcId }), { abortSignal: env.signal }));
}
