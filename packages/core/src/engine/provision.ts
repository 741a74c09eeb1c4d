import { isIP } from 'node:net';
import type { CloudPlugin, Host, HostRequest, PeerHost, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import type { FleetHost } from '../plan/types.js';
import { connectSshHost } from '../transport/ssh/connect-ssh-host.js';
import { settleAll } from './run-phase.js';
import { call, pluginContext, type RunState } from './run-state.js';

/**
 * Provision the fleet: every cloud's `preflight` first (nothing is created
 * unless all pass), then every cloud's `provision`, clouds in parallel. When
 * one cloud fails the others are told to stop (their signal aborts), and we
 * wait for all of them, so nothing is still being created when teardown reads
 * the ledger.
 */
export async function provision(state: RunState): Promise<void> {
  const timeoutMs = state.plan.spec.options.provisionTimeout * 1000;
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(state.signal.reason);
  state.signal.addEventListener('abort', onInterrupt, { once: true });
  if (state.signal.aborted) onInterrupt();
  const failFast = <T>(promise: Promise<T>) =>
    promise.catch((error: unknown) => {
      stop.abort(error);
      throw error;
    });

  try {
    const groups = groupByCloud(state.plan.fleet).map(([name, fleet]) => {
      const cloud = state.clouds.get(name)!;
      // `createPlan` already parsed each config with the cloud's hostSchema (defaults
      // applied); parsing again would break schemas that transform their input.
      const requests = fleet.map((host): HostRequest<unknown> => ({ ...host, config: host.config }));
      return { cloud, requests };
    });

    await settleAll(
      groups.map(({ cloud, requests }) =>
        failFast(
          cloud.preflight
            ? call(state, cloud, 'preflight', (signal) => cloud.preflight!(requests, pluginContext(state, cloud.name, signal)), { timeoutMs, signal: stop.signal })
            : Promise.resolve(),
        ),
      ),
    );

    await settleAll(groups.map(({ cloud, requests }) => failFast(provisionCloud(state, cloud, requests, timeoutMs, stop.signal))));
    if (groups.length > 1 && groups.some(({ cloud }) => cloud.admitPeers)) warnUnadmittable(state);
    await settleAll(groups.map(({ cloud, requests }) => failFast(admitPeers(state, cloud, requests, timeoutMs, stop.signal))));
  } finally {
    state.signal.removeEventListener('abort', onInterrupt);
  }
}

async function provisionCloud(state: RunState, cloud: CloudPlugin<unknown>, requests: readonly HostRequest<unknown>[], timeoutMs: number, signal: AbortSignal): Promise<void> {
  const hosts = await callWithLedger(state, cloud, 'provision', { timeoutMs, signal }, (ctx) => cloud.provision(requests, ctx));
  matchHosts(cloud.name, requests, hosts).forEach((host, i) => {
    const request = requests[i]!;
    state.hosts.set(request.id, host);
    state.events.emit({ type: 'host-ready', host: request.id, cloud: cloud.name, address: host.internalIp });
  });
}

/**
 * Hosts on other clouds get through this cloud's firewall only now: while the
 * clouds provisioned in parallel, none knew the others' addresses.
 */
async function admitPeers(state: RunState, cloud: CloudPlugin<unknown>, requests: readonly HostRequest<unknown>[], timeoutMs: number, signal: AbortSignal): Promise<void> {
  if (!cloud.admitPeers) return;
  const peers = peersOf(state, cloud.name);
  if (peers.length === 0 || requests.length === 0) return;
  await callWithLedger(state, cloud, 'admitPeers', { timeoutMs, signal }, (ctx) => cloud.admitPeers!(peers, ctx));
}

/** A cloud hook that may create resources: its context carries the plugin's own view of the ledger. */
export function callWithLedger<T>(
  state: RunState,
  cloud: CloudPlugin<unknown>,
  hook: string,
  options: { timeoutMs: number; signal: AbortSignal },
  fn: (ctx: ProvisionContext) => Promise<T>,
): Promise<T> {
  const ledger = state.ledger.forPlugin(cloud.name);
  return call(
    state,
    cloud,
    hook,
    (callSignal) => {
      const base = pluginContext(state, cloud.name, callSignal);
      return fn({ ...base, ledger, connectSsh: (ssh) => connectSshHost(ssh, { signal: callSignal, log: base.log }) });
    },
    options,
  );
}

/** Every provisioned host of the run that is not on `cloud`, with the addresses its traffic may come from. */
export function peersOf(state: Pick<RunState, 'plan' | 'hosts'>, cloud: string): PeerHost[] {
  return state.plan.fleet.flatMap((fleetHost) => {
    const host = state.hosts.get(fleetHost.id);
    if (fleetHost.cloud === cloud || !host) return [];
    // Firewalls take addresses, not names: a static host given by hostname is warned about instead.
    const addresses = [...new Set([host.externalIp, host.internalIp].filter((a): a is string => Boolean(a) && isIP(a!) !== 0))];
    return addresses.length > 0 ? [{ id: fleetHost.id, cloud: fleetHost.cloud, addresses }] : [];
  });
}

function warnUnadmittable(state: RunState): void {
  for (const fleetHost of state.plan.fleet) {
    const host = state.hosts.get(fleetHost.id);
    if (!host || [host.externalIp, host.internalIp].some((a) => a && isIP(a) !== 0)) continue;
    state.events.emit({
      type: 'warning',
      message: `host ${fleetHost.id} (${fleetHost.cloud}) has no IP address (${host.externalIp ?? host.internalIp}), so other clouds cannot admit it through their firewalls: add its public address to their hosts' allowFrom`,
    });
  }
}

/** Pair returned hosts with requests: by fleet id when the plugin kept it, else by position. */
export function matchHosts(cloud: string, requests: readonly HostRequest<unknown>[], hosts: readonly Host[]): Host[] {
  if (!Array.isArray(hosts)) throw new NetbenchError(`[plugin ${cloud}] provision returned no host list`);
  const byId = new Map(hosts.map((h) => [h.id, h]));
  return requests.map((request, i) => {
    const host = byId.get(request.id) ?? (hosts.length === requests.length ? hosts[i] : undefined);
    if (!host) throw new NetbenchError(`[plugin ${cloud}] provision returned no host for ${request.id}`);
    return host;
  });
}

export function groupByCloud(fleet: readonly FleetHost[]): [string, FleetHost[]][] {
  const groups = new Map<string, FleetHost[]>();
  for (const host of fleet) groups.set(host.cloud, [...(groups.get(host.cloud) ?? []), host]);
  return [...groups];
}
