import type { CleanupFilter, CleanupReport, LedgerResource, PluginContext } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { teardownEach } from '@netbench/plugin-api/cloud-kit';
import { resolveProject } from './credentials.js';
import { lastSegment, runIdOfName } from './naming.js';
import { ids, resource, TYPES } from './resources.js';
import type { GcpRuntime } from './runtime.js';
import { teardownResource } from './teardown.js';

interface Found {
  readonly resource: LedgerResource;
  readonly runId: string;
  readonly created: number;
}

/** GCE list filter: names netbench gives (`nb-<runId>...`). */
export const NAME_FILTER = 'name eq "nb-\\d{8}-\\d{6}-[0-9a-z]{6}.*"';
/** Instances carry the run id as a label too. */
export const LABEL_FILTER = 'labels.netbench-run:*';
/** Async iteration pages by itself; saying so silences the SDK's warning. */
const NO_AUTO = { autoPaginate: false };

type Named = { name?: string | null; creationTimestamp?: string | null };
const scopeName = (scope: string) => lastSegment(scope);

/**
 * Leftovers by their run-id names and labels (`netbench cleanup --all`),
 * in one project: instances first, the network last, each deleted exactly as
 * teardown deletes a ledger entry.
 */
export async function cleanupGcp(filter: CleanupFilter, ctx: PluginContext, runtime: GcpRuntime, project = resolveProject()): Promise<CleanupReport> {
  if (!project) throw new UnsupportedError('no GCP project to look for leftovers in: set GOOGLE_CLOUD_PROJECT or gcloud config set project ID');
  const clients = runtime.clients();
  const found: Found[] = [];
  const add = (type: string, id: string, item: Named, runIdFromLabel?: string) => {
    const runId = runIdFromLabel ?? runIdOfName(item.name ?? '');
    if (!runId) return;
    found.push({ resource: resource(type, id), runId, created: Date.parse(item.creationTimestamp ?? '') });
  };

  for await (const [scope, list] of clients.instances.aggregatedListAsync({ project, filter: LABEL_FILTER }, NO_AUTO)) {
    for (const item of list.instances ?? []) add(TYPES.instance, ids.instance(project, scopeName(scope), item.name!), item, item.labels?.['netbench-run'] ?? undefined);
  }
  // Cloud VPN, dependents first: routes, tunnels, forwarding rules, gateways (Classic, HA), Cloud Routers, addresses.
  // A Cloud Router's BGP interfaces link its tunnels: cleared before the tunnels go (the router itself goes after them).
  const routers: { id: string; item: Named }[] = [];
  for await (const [scope, list] of clients.routers.aggregatedListAsync({ project, filter: NAME_FILTER }, NO_AUTO)) {
    for (const item of list.routers ?? []) routers.push({ id: ids.router(project, scopeName(scope), item.name!), item });
  }
  for (const r of routers) add(TYPES.routerBgp, r.id, r.item);
  for await (const item of clients.routes.listAsync({ project, filter: NAME_FILTER }, NO_AUTO)) add(TYPES.route, ids.route(project, item.name!), item);
  for await (const [scope, list] of clients.vpnTunnels.aggregatedListAsync({ project, filter: NAME_FILTER }, NO_AUTO)) {
    for (const item of list.vpnTunnels ?? []) add(TYPES.vpnTunnel, ids.vpnTunnel(project, scopeName(scope), item.name!), item);
  }
  for await (const [scope, list] of clients.forwardingRules.aggregatedListAsync({ project, filter: NAME_FILTER }, NO_AUTO)) {
    for (const item of list.forwardingRules ?? []) add(TYPES.forwardingRule, ids.forwardingRule(project, scopeName(scope), item.name!), item);
  }
  for await (const [scope, list] of clients.targetVpnGateways.aggregatedListAsync({ project, filter: NAME_FILTER }, NO_AUTO)) {
    for (const item of list.targetVpnGateways ?? []) add(TYPES.vpnGateway, ids.vpnGateway(project, scopeName(scope), item.name!), item);
  }
  for await (const [scope, list] of clients.vpnGateways.aggregatedListAsync({ project, filter: NAME_FILTER }, NO_AUTO)) {
    for (const item of list.vpnGateways ?? []) add(TYPES.haVpnGateway, ids.haVpnGateway(project, scopeName(scope), item.name!), item);
  }
  for (const r of routers) add(TYPES.router, r.id, r.item);
  for await (const [scope, list] of clients.addresses.aggregatedListAsync({ project, filter: NAME_FILTER }, NO_AUTO)) {
    for (const item of list.addresses ?? []) add(TYPES.address, ids.address(project, scopeName(scope), item.name!), item);
  }
  for await (const item of clients.firewalls.listAsync({ project, filter: NAME_FILTER }, NO_AUTO)) add(TYPES.firewall, ids.firewall(project, item.name!), item);
  for await (const [scope, list] of clients.resourcePolicies.aggregatedListAsync({ project, filter: NAME_FILTER }, NO_AUTO)) {
    for (const item of list.resourcePolicies ?? []) add(TYPES.policy, ids.policy(project, scopeName(scope), item.name!), item);
  }
  for await (const [scope, list] of clients.subnetworks.aggregatedListAsync({ project, filter: NAME_FILTER }, NO_AUTO)) {
    for (const item of list.subnetworks ?? []) add(TYPES.subnetwork, ids.subnetwork(project, scopeName(scope), item.name!), item);
  }
  for await (const item of clients.networks.listAsync({ project, filter: NAME_FILTER }, NO_AUTO)) add(TYPES.network, ids.network(project, item.name!), item);

  const cutoff = filter.olderThanMs !== undefined ? Date.now() - filter.olderThanMs : undefined;
  // A run alive on this machine (whatever its runs folder): reported, never deleted.
  const isLive = (f: { runId: string }) => (filter.excludeRunIds ?? []).includes(f.runId);
  const spared = found
    .filter((f) => (filter.runId === undefined || f.runId === filter.runId) && isLive(f))
    .map((f) => ({ ...f.resource, data: { ...f.resource.data, runId: f.runId } }));
  const selected = found.filter(
    (f) =>
      (filter.runId === undefined || f.runId === filter.runId) &&
      !isLive(f) &&
      // A resource whose age cannot be read is left alone when an age is asked for.
      (cutoff === undefined || (Number.isFinite(f.created) && f.created <= cutoff)),
  );

  return {
    ...(await teardownEach(
      selected.map((f) => f.resource),
      (resource) => teardownResource(resource, ctx, runtime),
      filter,
    )),
    spared,
  };
}
