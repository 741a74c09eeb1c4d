import { randomUUID } from 'node:crypto';
import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { allOrFirstError, loginKey } from '@netbench/plugin-api/cloud-kit';
import { externalFirewallBody } from './bodies.js';
import { connectInstance } from './connect-host.js';
import { resolveProject } from './credentials.js';
import { provisionHaVpn } from './ha-vpn.js';
import type { GcpHostConfig } from './host-schema.js';
import { type CreatedInstance, createInstance } from './instance.js';
import { provisionNetwork, type RunNetwork, subnetRanges } from './network.js';
import { operationOf, waitForOperation } from './operations.js';
import { ids, resource, TYPES } from './resources.js';
import type { GcpRuntime } from './runtime.js';
import type { ConnectedHost } from './ssh-connect.js';
import { provisionVpn, runVpn, vpcGroups, vpnSide } from './vpn.js';

/** The one project every host of the run uses. */
export function runProject(requests: readonly HostRequest<GcpHostConfig>[]): string {
  const projects = new Set(requests.map((r) => resolveProject(r.config.project)));
  if (projects.has(undefined)) throw new UnsupportedError('no GCP project: set project: on the hosts, GOOGLE_CLOUD_PROJECT, or gcloud config set project ID');
  if (projects.size > 1) throw new UnsupportedError(`gcp hosts of one run must use one project; found ${[...projects].join(', ')}`);
  return [...projects][0]!;
}

const unique = (values: readonly string[]) => [...new Set(values)];

/**
 * Provision the run's GCP hosts: network (or the existing one), firewall
 * rules and placement, then every instance in parallel, then the firewall
 * rule for their external addresses, then the host keys from each serial
 * console and one SSH connection per host. Any failure throws after every
 * started create has settled; the engine then tears down the ledger.
 */
export async function provisionGcp(requests: readonly HostRequest<GcpHostConfig>[], ctx: ProvisionContext, runtime: GcpRuntime): Promise<Host[]> {
  if (requests.length === 0) return [];
  const project = runProject(requests);
  const asked = requests.flatMap((r) => r.config.sshFrom ?? []);
  const fromEnv = (process.env['NETBENCH_SSH_FROM'] ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const sshFrom = asked.length > 0 ? unique(asked) : fromEnv.length > 0 ? fromEnv : [await runtime.publicAddress(ctx.signal)];
  const keyPaths = unique(requests.map((r) => r.config.sshKeyPath ?? ''));
  if (keyPaths.length > 1) throw new UnsupportedError('gcp hosts of one run must share one sshKeyPath (or all leave it out)');
  const key = await loginKey(ctx.runDir, 'gcp-ssh-key.pem', `netbench-${ctx.runId}`, keyPaths[0] || undefined);

  const groups = vpcGroups(requests);
  const vpn = runVpn(requests);
  let instances: CreatedInstance[];
  if (!groups) {
    const network = await provisionNetwork(requests, project, sshFrom, ctx, runtime);
    instances = await allOrFirstError(requests.map((r) => createInstance(r, project, network, key.publicKey, ctx, runtime)));
    await allowExternalTraffic(instances, requests, project, network.networkLink, ctx, runtime);
  } else {
    // One VPC per vpcGroup, with distinct default ranges; each admits the others' ranges (reached over the VPN).
    let first = 0;
    const ranges = new Map(
      [...groups].map(([name, members]) => {
        const r = subnetRanges(members, first);
        first += r.size;
        return [name, r] as const;
      }),
    );
    const all = [...ranges.values()].flatMap((r) => [...r.values()]);
    const networks = new Map<string, RunNetwork>();
    await allOrFirstError(
      [...groups].map(async ([name, members]) => {
        const own = [...ranges.get(name)!.values()];
        const group = { name, ranges: ranges.get(name)!, vpnSources: vpn ? all.filter((c) => !own.includes(c)) : [] };
        networks.set(name, await provisionNetwork(members, project, sshFrom, ctx, runtime, group));
      }),
    );
    if (vpn) {
      const [a, b] = [...groups.keys()] as [string, string];
      const side = (name: string) => vpnSide(name, project, groups.get(name)!, networks.get(name)!.networkLink, ranges.get(name)!.values());
      await (vpn.type === 'ha' ? provisionHaVpn : provisionVpn)(vpn, [side(a), side(b)], ctx, runtime);
    }
    instances = await allOrFirstError(requests.map((r) => createInstance(r, project, networks.get(r.config.vpcGroup!)!, key.publicKey, ctx, runtime)));
    // Every host's external address may reach every network (trials with `ip: external` cross outside the VPN).
    const made = instances;
    await allOrFirstError([...groups].map(([name, members]) => allowExternalTraffic(made, members, project, networks.get(name)!.networkLink, ctx, runtime, name)));
  }

  const connected = await Promise.allSettled(instances.map((i) => connectInstance(project, i, key.privateKeyPath, ctx, runtime)));
  const failed = connected.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    // Close what did connect; the engine tears every instance down.
    await Promise.allSettled(connected.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
    throw failed.reason;
  }
  return connected.map((r) => (r as PromiseFulfilledResult<ConnectedHost>).value);
}

/** Tool traffic between the hosts' external addresses (and `allowFrom`), once the addresses are known. */
async function allowExternalTraffic(
  instances: readonly CreatedInstance[],
  requests: readonly HostRequest<GcpHostConfig>[],
  project: string,
  networkLink: string,
  ctx: ProvisionContext,
  runtime: GcpRuntime,
  group?: string,
): Promise<void> {
  const sources = unique([...instances.flatMap((i) => (i.externalIp ? [`${i.externalIp}/32`] : [])), ...requests.flatMap((r) => r.config.allowFrom)]);
  if (sources.length === 0) return;
  const clients = runtime.clients();
  const body = externalFirewallBody(ctx.runId, networkLink, sources, group);
  await ctx.ledger.track(resource(TYPES.firewall, ids.firewall(project, body.name!), undefined, { network: networkLink, sourceRanges: sources }), async () => {
    const op = operationOf(await clients.firewalls.insert({ requestId: randomUUID(), project, firewallResource: body }));
    await waitForOperation(clients, project, op, { signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs });
  });
}
