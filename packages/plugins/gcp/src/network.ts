import { randomUUID } from 'node:crypto';
import type { HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { allOrFirstError } from '@netbench/plugin-api/cloud-kit';
import { compactPolicyBody, internalFirewallBody, networkBody, sshFirewallBody, subnetBody } from './bodies.js';
import { toNetbenchError } from './errors.js';
import type { GcpHostConfig } from './host-schema.js';
import { regionOf, runPrefix } from './naming.js';
import { operationOf, waitForOperation } from './operations.js';
import { ids, resource, TYPES } from './resources.js';
import type { GcpRuntime } from './runtime.js';

/** Where the run's instances attach, per region, and the placement policy per zone. */
export interface RunNetwork {
  readonly networkLink: string;
  readonly subnetLinks: ReadonlyMap<string, string>;
  readonly policyLinks: ReadonlyMap<string, string>;
}

/** One existing network for every host, or none (then the run makes its own). */
function existingNetwork(requests: readonly HostRequest<GcpHostConfig>[]): string | undefined {
  const names = new Set(requests.map((r) => r.config.network));
  if (names.size > 1) throw new UnsupportedError(`gcp hosts of one run must share one network (or all leave it out); found ${[...names].map((n) => n ?? '(per-run)').join(', ')}`);
  return [...names][0];
}

/**
 * Subnet range per region: the hosts' `cidr`, else 10.<128+i>.0.0/20 in
 * region order (`first` offsets i, so a run's `vpcGroup` networks get
 * distinct default ranges).
 */
export function subnetRanges(requests: readonly HostRequest<GcpHostConfig>[], first = 0): Map<string, string> {
  const regions = [...new Set(requests.map((r) => regionOf(r.config.zone)))].sort();
  const ranges = new Map<string, string>();
  regions.forEach((region, n) => {
    const i = first + n;
    const asked = new Set(requests.filter((r) => regionOf(r.config.zone) === region && r.config.cidr).map((r) => r.config.cidr!));
    if (asked.size > 1) throw new UnsupportedError(`gcp hosts in ${region} ask for different subnet ranges: ${[...asked].join(', ')}`);
    ranges.set(region, [...asked][0] ?? `10.${128 + i}.0.0/20`);
  });
  return ranges;
}

/**
 * The run's network: its own custom-mode VPC with one subnet per region (or
 * the existing `network`), the firewall rules (SSH from `sshFrom` only; tool
 * traffic between the run's tagged hosts only) and compact placement
 * policies. Each resource is in the ledger before it is created.
 */
export async function provisionNetwork(
  requests: readonly HostRequest<GcpHostConfig>[],
  project: string,
  sshFrom: readonly string[],
  ctx: ProvisionContext,
  runtime: GcpRuntime,
  /** One of the run's `vpcGroup` networks: its group, ranges and the other networks' ranges (reached over the VPN). */
  group?: { readonly name: string; readonly ranges: ReadonlyMap<string, string>; readonly vpnSources: readonly string[] },
): Promise<RunNetwork> {
  const clients = runtime.clients();
  const wait = { signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs };
  const runId = ctx.runId;
  const existing = existingNetwork(requests);
  const ranges = existing ? new Map<string, string>() : group ? group.ranges : subnetRanges(requests);
  const networkName = existing ?? (group ? networkBody(runId, group.name).name! : runPrefix(runId));
  const networkLink = `projects/${project}/global/networks/${networkName}`;

  if (!existing) {
    const body = networkBody(runId, group?.name);
    await ctx.ledger.track(resource(TYPES.network, ids.network(project, body.name!)), async () => {
      const op = operationOf(await clients.networks.insert({ requestId: randomUUID(), project, networkResource: body }));
      await waitForOperation(clients, project, op, wait);
    });
  }

  const subnetLinks = new Map<string, string>();
  for (const request of requests) {
    const region = regionOf(request.config.zone);
    if (existing && request.config.subnet) subnetLinks.set(region, `projects/${project}/regions/${region}/subnetworks/${request.config.subnet}`);
  }
  const subnets = [...ranges].map(async ([region, cidr]) => {
    const body = subnetBody(runId, project, region, cidr, group?.name);
    const id = ids.subnetwork(project, region, body.name!);
    await ctx.ledger.track(resource(TYPES.subnetwork, id, undefined, { cidr }), async () => {
      const op = operationOf(await clients.subnetworks.insert({ requestId: randomUUID(), project, region, subnetworkResource: body }));
      await waitForOperation(clients, project, op, wait);
    });
    subnetLinks.set(region, id);
  });

  const firewalls = [sshFirewallBody(runId, networkLink, sshFrom, group?.name), internalFirewallBody(runId, networkLink, group?.name, group?.vpnSources)].map((body) =>
    ctx.ledger.track(resource(TYPES.firewall, ids.firewall(project, body.name!), undefined, { network: networkLink, sourceRanges: body.sourceRanges ?? [] }), async () => {
      const op = operationOf(await clients.firewalls.insert({ requestId: randomUUID(), project, firewallResource: body }));
      await waitForOperation(clients, project, op, wait);
    }),
  );

  const policyLinks = new Map<string, string>();
  const compactZones = [...new Set(requests.filter((r) => r.config.placement === 'compact').map((r) => r.config.zone))];
  const policies = compactZones.map(async (zone) => {
    const body = compactPolicyBody(runId, zone, group?.name);
    const id = ids.policy(project, regionOf(zone), body.name!);
    await ctx.ledger
      .track(resource(TYPES.policy, id), async () => {
        const op = operationOf(await clients.resourcePolicies.insert({ requestId: randomUUID(), project, region: regionOf(zone), resourcePolicyResource: body }));
        await waitForOperation(clients, project, op, wait);
      })
      .catch((error: unknown) => {
        throw toNetbenchError(error, `creating ${id}`);
      });
    policyLinks.set(zone, id);
  });

  await allOrFirstError([...subnets, ...firewalls, ...policies]);
  return { networkLink, subnetLinks, policyLinks };
}
