import {
  DescribeInstancesCommand,
  DescribeInternetGatewaysCommand,
  DescribeKeyPairsCommand,
  DescribePlacementGroupsCommand,
  DescribeRegionsCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  type EC2Client,
  type Tag,
} from '@aws-sdk/client-ec2';
import type { CleanupFilter, CleanupReport, LedgerResource, Logger } from '@netbench/plugin-api';
import { teardownEach } from '@netbench/plugin-api/cloud-kit';
import type { AwsClients } from './clients.js';
import { RUN_TAG, runIdTime, tagValue } from './naming.js';
import { awsResource, RESOURCE, type ResourceType } from './resources.js';
import { type AwsSettings, configuredRegions } from './settings.js';
import { teardownResource } from './teardown.js';

const TAGGED = [{ Name: 'tag-key', Values: [RUN_TAG] }];

/** Which run ids a filter lets through. */
export function runMatches(filter: CleanupFilter, runId: string, now = Date.now()): boolean {
  if (filter.excludeRunIds?.includes(runId)) return false;
  if (filter.runId !== undefined && filter.runId !== runId) return false;
  if (filter.olderThanMs !== undefined) {
    const started = runIdTime(runId);
    if (!started || now - started.getTime() < filter.olderThanMs) return false;
  }
  return true;
}

/**
 * Leftovers found by the `netbench:run-id` tag in every configured region
 * (`NETBENCH_AWS_REGIONS`, else `AWS_REGION`, else every enabled region),
 * deleted unless `dryRun` in dependency order: instances, placement groups,
 * security groups, route tables, subnets, internet gateways, VPCs, key pairs.
 */
export async function cleanupTagged(filter: CleanupFilter, clients: AwsClients, settings: AwsSettings, signal: AbortSignal, log: Logger): Promise<CleanupReport> {
  const regions = configuredRegions(settings) ?? (await enabledRegions(clients.ec2('us-east-1'), signal));
  const found: LedgerResource[] = [];
  const spared: LedgerResource[] = [];
  for (const region of regions) {
    const regional = await findTagged(clients.ec2(region), region, settings.endpoint, signal, log);
    found.push(...regional.filter((r) => runMatches(filter, String(r.data?.runId ?? ''))));
    // A run alive on this machine (whatever its runs folder): reported, never deleted.
    spared.push(
      ...regional.filter((r) => {
        const runId = String(r.data?.runId ?? '');
        return filter.excludeRunIds?.includes(runId) && (filter.runId === undefined || filter.runId === runId);
      }),
    );
  }
  const report = await teardownEach(found, (resource) => teardownResource(resource, clients, signal), filter);
  if (found.length > 0) log.info(`aws: ${found.length} tagged resources in ${regions.join(', ')}`);
  return { ...report, spared };
}

async function enabledRegions(ec2: EC2Client, signal: AbortSignal): Promise<string[]> {
  const out = await ec2.send(new DescribeRegionsCommand({}), { abortSignal: signal });
  return (out.Regions ?? [])
    .map((r) => r.RegionName!)
    .filter(Boolean)
    .sort();
}

/** Every tagged resource of a region, as ledger resources in the order they must be deleted. */
async function findTagged(ec2: EC2Client, region: string, endpoint: string | undefined, signal: AbortSignal, log: Logger): Promise<LedgerResource[]> {
  const opts = { abortSignal: signal };
  const [instances, groups, securityGroups, routeTables, subnets, gateways, vpcs, keyPairs] = await Promise.all([
    ec2.send(new DescribeInstancesCommand({ Filters: [...TAGGED, { Name: 'instance-state-name', Values: ['pending', 'running', 'shutting-down', 'stopping', 'stopped'] }] }), opts),
    // Some emulators lack placement groups; the other resources are still worth cleaning.
    ec2.send(new DescribePlacementGroupsCommand({ Filters: TAGGED }), opts).catch((error: unknown) => {
      log.warn(`aws: could not list placement groups in ${region}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      return { PlacementGroups: [] };
    }),
    ec2.send(new DescribeSecurityGroupsCommand({ Filters: TAGGED }), opts),
    ec2.send(new DescribeRouteTablesCommand({ Filters: TAGGED }), opts),
    ec2.send(new DescribeSubnetsCommand({ Filters: TAGGED }), opts),
    ec2.send(new DescribeInternetGatewaysCommand({ Filters: TAGGED }), opts),
    ec2.send(new DescribeVpcsCommand({ Filters: TAGGED }), opts),
    ec2.send(new DescribeKeyPairsCommand({ Filters: TAGGED }), opts),
  ]);
  const make = (type: ResourceType, tagList: Tag[] | undefined, awsId: string | undefined, extra: { vpcId?: string; name?: string } = {}): LedgerResource[] => {
    const runId = tagValue(tagList, RUN_TAG);
    const name = extra.name ?? tagValue(tagList, 'Name') ?? awsId;
    if (!runId || !name || !awsId) return [];
    return [awsResource(type, { region, name, runId, awsId, ...(endpoint ? { endpoint } : {}), ...(extra.vpcId ? { vpcId: extra.vpcId } : {}) })];
  };
  return [
    ...(instances.Reservations ?? []).flatMap((r) => r.Instances ?? []).flatMap((i) => make(RESOURCE.instance, i.Tags, i.InstanceId)),
    ...(groups.PlacementGroups ?? []).flatMap((g) => make(RESOURCE.placementGroup, g.Tags, g.GroupName, { name: g.GroupName! })),
    ...(securityGroups.SecurityGroups ?? []).flatMap((g) => make(RESOURCE.securityGroup, g.Tags, g.GroupId, { vpcId: g.VpcId! })),
    ...(routeTables.RouteTables ?? []).flatMap((t) => make(RESOURCE.routeTable, t.Tags, t.RouteTableId, { vpcId: t.VpcId! })),
    ...(subnets.Subnets ?? []).flatMap((s) => make(RESOURCE.subnet, s.Tags, s.SubnetId, { vpcId: s.VpcId! })),
    ...(gateways.InternetGateways ?? []).flatMap((g) =>
      make(RESOURCE.internetGateway, g.Tags, g.InternetGatewayId, g.Attachments?.[0]?.VpcId ? { vpcId: g.Attachments[0].VpcId } : {}),
    ),
    ...(vpcs.Vpcs ?? []).flatMap((v) => make(RESOURCE.vpc, v.Tags, v.VpcId)),
    ...(keyPairs.KeyPairs ?? []).flatMap((k) => make(RESOURCE.keyPair, k.Tags, k.KeyPairId, { name: k.KeyName! })),
  ];
}
