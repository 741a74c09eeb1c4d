import type { HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { allOrFirstError } from '@netbench/plugin-api/cloud-kit';
import { nsgBody } from './bodies.js';
import type { ArmClients } from './clients.js';
import type { AzureHostConfig } from './host-schema.js';
import { untilDone } from './lro.js';
import { resourceName, runTags, splitZone } from './naming.js';
import { armId, groupId, inGroup, TYPES } from './resources.js';
import { retryWhileBusy } from './retry-busy.js';
import type { AzureRuntime } from './runtime.js';

/** Per location: the subnet the NICs join, its security group and application security group, the placement group. */
export interface LocationNetwork {
  readonly subnetId: string;
  readonly nsgId: string;
  readonly asgId: string;
  readonly ppgId?: string;
}

export interface RunContext {
  readonly clients: ArmClients;
  readonly group: string;
  readonly created: string;
  readonly ctx: ProvisionContext;
  readonly runtime: AzureRuntime;
}

export const lro = (run: RunContext) => ({ signal: run.ctx.signal, timeoutMs: run.runtime.timing.operationTimeoutMs, pollMs: run.runtime.timing.pollMs });
export const id = (run: RunContext, type: string, name: string) => armId(run.clients.subscriptionId, run.group, type, name);

/** The run's resource group: created first, so deleted last, and with it everything inside. */
export async function createGroup(run: RunContext, location: string): Promise<void> {
  const { clients, group, ctx } = run;
  await ctx.ledger.track({ type: TYPES.group, id: groupId(clients.subscriptionId, group), data: { location } }, async () => {
    await clients.resources.resourceGroups.createOrUpdate(group, { location, tags: runTags(ctx.runId, run.created) });
  });
}

/** Public address of one host (Standard SKU, static: the address is known once created). */
export async function createPublicIp(run: RunContext, request: HostRequest<AzureHostConfig>): Promise<string> {
  const name = resourceName(run.ctx.runId, `${request.id}-ip`);
  const pipId = id(run, 'Microsoft.Network/publicIPAddresses', name);
  const { location } = splitZone(request.config.zone);
  const pip = await run.ctx.ledger.track(inGroup(TYPES.publicIp, pipId, request.id), () =>
    untilDone(
      `public IP ${name}`,
      (o) =>
        run.clients.network.publicIPAddresses.createOrUpdate(
          run.group,
          name,
          {
            location,
            tags: runTags(run.ctx.runId, run.created, request.id),
            sku: { name: 'Standard', tier: 'Regional' },
            publicIPAllocationMethod: 'Static',
            publicIPAddressVersion: 'IPv4',
          },
          o,
        ),
      lro(run),
    ),
  );
  if (!pip.ipAddress) throw new Error(`public IP ${pipId} has no address`);
  return pip.ipAddress;
}

/** Per-run VNet address space per location: the hosts' `cidr`, else 10.<100+i>.0.0/16 in location order. */
export function vnetRanges(requests: readonly HostRequest<AzureHostConfig>[]): Map<string, string> {
  const locations = [...new Set(requests.filter((r) => !r.config.vnet).map((r) => splitZone(r.config.zone).location))].sort();
  const ranges = new Map<string, string>();
  locations.forEach((location, i) => {
    const asked = new Set(requests.filter((r) => splitZone(r.config.zone).location === location && r.config.cidr).map((r) => r.config.cidr!));
    if (asked.size > 1) throw new UnsupportedError(`azure hosts in ${location} ask for different address spaces: ${[...asked].join(', ')}`);
    ranges.set(location, [...asked][0] ?? `10.${100 + i}.0.0/16`);
  });
  return ranges;
}

/** The subnet inside a VNet range: its first /24 (or the range itself when smaller). */
export const subnetPrefix = (range: string) => {
  const [address, bits] = range.split('/') as [string, string];
  return Number(bits) >= 24 ? range : `${address}/24`;
};

/**
 * The network of one location: a per-run VNet with one subnet (or the
 * existing subnet), the application security group every NIC there joins,
 * and a proximity placement group when asked for.
 */
export async function createLocationBase(
  run: RunContext,
  location: string,
  range: string | undefined,
  existingSubnet: string | undefined,
  placement: boolean,
): Promise<{ subnetId: string; asgId: string; ppgId?: string }> {
  const { clients, group, ctx } = run;
  const tags = runTags(ctx.runId, run.created);
  const asgName = resourceName(ctx.runId, `${location}-hosts`);
  const asgId = id(run, 'Microsoft.Network/applicationSecurityGroups', asgName);
  const asg = ctx.ledger.track(inGroup(TYPES.asg, asgId), () =>
    untilDone(`application security group ${asgName}`, (o) => clients.network.applicationSecurityGroups.createOrUpdate(group, asgName, { location, tags }, o), lro(run)),
  );

  let subnet: Promise<string>;
  if (existingSubnet) subnet = Promise.resolve(existingSubnet);
  else {
    const vnetName = resourceName(ctx.runId, location);
    const vnetId = id(run, 'Microsoft.Network/virtualNetworks', vnetName);
    subnet = ctx.ledger
      .track(inGroup(TYPES.vnet, vnetId), () =>
        untilDone(
          `virtual network ${vnetName}`,
          (o) =>
            clients.network.virtualNetworks.createOrUpdate(
              group,
              vnetName,
              {
                location,
                tags,
                addressSpace: { addressPrefixes: [range!] },
                subnets: [{ name: 'hosts', addressPrefix: subnetPrefix(range!) }],
              },
              o,
            ),
          lro(run),
        ),
      )
      .then(() => `${vnetId}/subnets/hosts`);
  }

  let ppg: Promise<string | undefined> = Promise.resolve(undefined);
  if (placement) {
    const ppgName = resourceName(ctx.runId, `${location}-ppg`);
    const ppgId = id(run, 'Microsoft.Compute/proximityPlacementGroups', ppgName);
    ppg = ctx.ledger
      .track(inGroup(TYPES.ppg, ppgId), () => clients.compute.proximityPlacementGroups.createOrUpdate(group, ppgName, { location, tags, proximityPlacementGroupType: 'Standard' }))
      .then(() => ppgId);
  }
  const [subnetId, , ppgId] = (await allOrFirstError<string | unknown>([subnet, asg, ppg])) as [string, unknown, string | undefined];
  return { subnetId, asgId, ...(ppgId ? { ppgId } : {}) };
}

/**
 * Peer every pair of the run's VNets (both directions) so internal addresses
 * reach across locations. The two sides are created in parallel; while one
 * updates its VNet Azure may refuse the other with
 * `ReferencedResourceNotProvisioned`: retried with backoff (`retryWhileBusy`).
 */
export async function peerVnets(run: RunContext, locations: readonly string[]): Promise<void> {
  const { clients, group, ctx } = run;
  const pairs = locations.flatMap((a) => locations.filter((b) => b !== a).map((b) => [a, b] as const));
  await allOrFirstError(
    pairs.map(async ([a, b]) => {
      const vnet = resourceName(ctx.runId, a);
      const name = `to-${b}`;
      const peeringId = `${id(run, 'Microsoft.Network/virtualNetworks', vnet)}/virtualNetworkPeerings/${name}`;
      await ctx.ledger.track(inGroup(TYPES.peering, peeringId), () =>
        retryWhileBusy(
          () =>
            untilDone(
              `peering ${vnet} → ${b}`,
              (o) =>
                clients.network.virtualNetworkPeerings.createOrUpdate(
                  group,
                  vnet,
                  name,
                  {
                    remoteVirtualNetwork: { id: id(run, 'Microsoft.Network/virtualNetworks', resourceName(ctx.runId, b)) },
                    allowVirtualNetworkAccess: true,
                  },
                  o,
                ),
              lro(run),
            ),
          {
            delayMs: run.runtime.timing.pollMs,
            signal: ctx.signal,
            onRetry: (error, wait) => ctx.log.warn(`peering ${vnet} → ${b}: ${(error as Error).message.split('\n')[0]}; retrying in ${Math.round(wait / 100) / 10} s`),
          },
        ),
      );
    }),
  );
}

export async function createNsg(
  run: RunContext,
  location: string,
  asgId: string,
  sshFrom: readonly string[],
  otherPrefixes: readonly string[],
  externalSources: readonly string[],
): Promise<string> {
  const { clients, group, ctx } = run;
  const name = resourceName(ctx.runId, `${location}-nsg`);
  const nsgId = id(run, 'Microsoft.Network/networkSecurityGroups', name);
  // `admitPeers` finds the location's security group and hosts' ASG from this entry.
  const entry = { ...inGroup(TYPES.nsg, nsgId), data: { inRunGroup: true, location, asgId } };
  await ctx.ledger.track(entry, () =>
    untilDone(
      `network security group ${name}`,
      (o) =>
        clients.network.networkSecurityGroups.createOrUpdate(
          group,
          name,
          nsgBody({
            location,
            tags: runTags(ctx.runId, run.created),
            sshFrom,
            asgId,
            otherPrefixes,
            externalSources,
          }),
          o,
        ),
      lro(run),
    ),
  );
  return nsgId;
}
