import type { HostRequest } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { callWithLedger, groupByCloud, matchHosts } from '../provision.js';
import { settleAll } from '../run-phase.js';
import type { RunState } from '../run-state.js';

/**
 * The clouds of the plan that cannot give back hosts a previous invocation
 * made (no `reattach`): a run on them cannot be split into stages or resumed.
 */
export function cloudsWithoutReattach(state: Pick<RunState, 'clouds'>): string[] {
  return [...state.clouds].filter(([, cloud]) => !cloud.reattach).map(([name]) => name);
}

/**
 * Find the fleet an earlier invocation of this run provisioned: each cloud
 * rebuilds its hosts from the ledger and verifies they are still the same
 * machines. Clouds in parallel; any failure stops the invocation.
 */
export async function reattach(state: RunState): Promise<void> {
  const missing = cloudsWithoutReattach(state);
  if (missing.length > 0)
    throw new NetbenchError(
      `cloud ${missing.join(', ')} cannot find hosts made by an earlier invocation (no reattach); run its stages in one invocation, or tear it down with --stage teardown`,
    );
  const timeoutMs = state.plan.spec.options.provisionTimeout * 1000;
  await settleAll(
    groupByCloud(state.plan.fleet).map(async ([name, fleet]) => {
      const cloud = state.clouds.get(name)!;
      const requests = fleet.map((host): HostRequest<unknown> => ({ ...host, config: host.config }));
      const hosts = await callWithLedger(state, cloud, 'reattach', { timeoutMs, signal: state.signal }, (ctx) => cloud.reattach!(requests, ctx));
      matchHosts(cloud.name, requests, hosts).forEach((host, i) => {
        state.hosts.set(requests[i]!.id, host);
        state.events.emit({ type: 'host-ready', host: requests[i]!.id, cloud: cloud.name, address: host.internalIp });
      });
    }),
  );
}
