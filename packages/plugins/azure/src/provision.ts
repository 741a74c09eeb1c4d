import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { allOrFirstError, loginKey } from '@netbench/plugin-api/cloud-kit';
import { resolveAcceleratedNetworking } from './accelerated-networking.js';
import { connectVm } from './connect-host.js';
import { resolveSubscription } from './credentials.js';
import type { AzureHostConfig } from './host-schema.js';
import { checkAzureKey } from './login-key-type.js';
import { resourceName, runGroup, splitZone } from './naming.js';
import { createGroup, createLocationBase, createNsg, createPublicIp, id, type LocationNetwork, peerVnets, type RunContext, vnetRanges } from './network.js';
import { checkPlacement } from './placement-check.js';
import type { AzureRuntime } from './runtime.js';
import type { ConnectedHost } from './ssh-connect.js';
import { createNic, createVm } from './vm.js';

export function runSubscription(requests: readonly HostRequest<AzureHostConfig>[]): string {
  const subscriptions = new Set(requests.map((r) => resolveSubscription(r.config.subscription)));
  if (subscriptions.has(undefined)) throw new UnsupportedError('no Azure subscription: set subscription: on the hosts, AZURE_SUBSCRIPTION_ID, or az account set -s ID');
  if (subscriptions.size > 1) throw new UnsupportedError(`azure hosts of one run must use one subscription; found ${[...subscriptions].join(', ')}`);
  const locations = new Set(requests.map((r) => splitZone(r.config.zone).location));
  if (requests.some((r) => r.config.vnet) && locations.size > 1)
    throw new UnsupportedError('an existing vnet can serve one location only; leave vnet out for a run across locations (netbench peers its own VNets)');
  return [...subscriptions][0]!;
}

const unique = (values: readonly string[]) => [...new Set(values)];

/**
 * Provision the run's Azure hosts: a resource group holding, per location, a
 * VNet and subnet (or the existing subnet), an application security group
 * and a proximity placement group, VNet peerings across locations, public
 * addresses, then the security group per location (whose rules need those
 * addresses), NICs and VMs in parallel, then the host keys from each boot
 * diagnostics log and one SSH connection per host.
 */
export async function provisionAzure(requests: readonly HostRequest<AzureHostConfig>[], ctx: ProvisionContext, runtime: AzureRuntime): Promise<Host[]> {
  if (requests.length === 0) return [];
  checkPlacement(requests);
  const subscriptionId = runSubscription(requests);
  const asked = requests.flatMap((r) => r.config.sshFrom ?? []);
  const fromEnv = (process.env['NETBENCH_SSH_FROM'] ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const sshFrom = asked.length > 0 ? unique(asked) : fromEnv.length > 0 ? fromEnv : [await runtime.publicAddress(ctx.signal)];
  const keyPaths = unique(requests.map((r) => r.config.sshKeyPath ?? ''));
  if (keyPaths.length > 1) throw new UnsupportedError('azure hosts of one run must share one sshKeyPath (or all leave it out)');
  // Azure takes only RSA (>= 2048 bit) and Ed25519 public keys: the kit's default ECDSA key would be refused.
  const key = await loginKey(ctx.runDir, 'azure-ssh-key', `netbench-${ctx.runId}`, keyPaths[0] || undefined, 'ed25519');
  checkAzureKey(key.publicKey, keyPaths[0]);

  const run: RunContext = { clients: runtime.clients(subscriptionId), group: runGroup(ctx.runId), created: new Date().toISOString(), ctx, runtime };
  const locations = unique(requests.map((r) => splitZone(r.config.zone).location));
  // Read before anything is created: which sizes can have accelerated networking.
  const hosts = await resolveAcceleratedNetworking(requests, run.clients, ctx.log, ctx.signal);
  await createGroup(run, locations[0]!);

  const ranges = vnetRanges(requests);
  const existingSubnet = (location: string) => {
    const vnet = requests.find((r) => r.config.vnet && splitZone(r.config.zone).location === location)?.config.vnet;
    return vnet
      ? `/subscriptions/${subscriptionId}/resourceGroups/${vnet.resourceGroup}/providers/Microsoft.Network/virtualNetworks/${vnet.name}/subnets/${vnet.subnet}`
      : undefined;
  };
  const placement = (location: string) => requests.some((r) => r.config.placement === 'proximity' && splitZone(r.config.zone).location === location);
  const [publicIps, bases] = await Promise.all([
    allOrFirstError(requests.map((r) => (r.config.publicIp ? createPublicIp(run, r) : Promise.resolve(undefined)))),
    allOrFirstError(locations.map((l) => createLocationBase(run, l, ranges.get(l), existingSubnet(l), placement(l)))),
  ]);
  if (ranges.size > 1) await peerVnets(run, [...ranges.keys()]);

  const externalSources = unique([...publicIps.flatMap((ip) => (ip ? [`${ip}/32`] : [])), ...requests.flatMap((r) => r.config.allowFrom)]);
  const networks = new Map<string, LocationNetwork>();
  await allOrFirstError(
    locations.map(async (location, i) => {
      const base = bases[i]!;
      const others = [...ranges].filter(([l]) => l !== location).map(([, range]) => range);
      const nsgId = await createNsg(run, location, base.asgId, sshFrom, others, externalSources);
      networks.set(location, { ...base, nsgId });
    }),
  );

  const vms = await allOrFirstError(
    hosts.map(async (request, i) => {
      const net = networks.get(splitZone(request.config.zone).location)!;
      const publicIpId = publicIps[i] ? publicIpIdOf(run, request) : undefined;
      const nic = await createNic(run, request, net, publicIpId);
      return createVm(run, request, net, nic, publicIps[i], key.publicKey);
    }),
  );

  const connected = await Promise.allSettled(vms.map((vm) => connectVm(run, vm, key.privateKeyPath)));
  const failed = connected.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.allSettled(connected.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
    throw failed.reason;
  }
  return connected.map((r) => (r as PromiseFulfilledResult<ConnectedHost>).value);
}

const publicIpIdOf = (run: RunContext, request: HostRequest<AzureHostConfig>) => id(run, 'Microsoft.Network/publicIPAddresses', resourceName(run.ctx.runId, `${request.id}-ip`));
