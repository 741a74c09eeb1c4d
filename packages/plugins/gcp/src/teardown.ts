import { setTimeout as sleep } from 'node:timers/promises';
import type { LedgerResource, TeardownContext } from '@netbench/plugin-api';
import type { GceClients } from './clients.js';
import { classify } from './errors.js';
import { clearRouterBgp } from './ha-vpn.js';
import { type Operation, operationOf, waitForOperation } from './operations.js';
import { parseId, TYPES } from './resources.js';
import type { GcpRuntime } from './runtime.js';

function deleteCall(clients: GceClients, type: string, id: string): Promise<unknown[]> {
  const p = parseId(id);
  switch (type) {
    case TYPES.instance:
      return clients.instances.delete({ project: p.project, zone: p.zone!, instance: p.name });
    case TYPES.firewall:
      return clients.firewalls.delete({ project: p.project, firewall: p.name });
    case TYPES.policy:
      return clients.resourcePolicies.delete({ project: p.project, region: p.region!, resourcePolicy: p.name });
    case TYPES.subnetwork:
      return clients.subnetworks.delete({ project: p.project, region: p.region!, subnetwork: p.name });
    case TYPES.route:
      return clients.routes.delete({ project: p.project, route: p.name });
    case TYPES.vpnTunnel:
      return clients.vpnTunnels.delete({ project: p.project, region: p.region!, vpnTunnel: p.name });
    case TYPES.forwardingRule:
      return clients.forwardingRules.delete({ project: p.project, region: p.region!, forwardingRule: p.name });
    case TYPES.vpnGateway:
      return clients.targetVpnGateways.delete({ project: p.project, region: p.region!, targetVpnGateway: p.name });
    case TYPES.routerBgp:
      return clearRouterBgp(clients, id);
    case TYPES.haVpnGateway:
      return clients.vpnGateways.delete({ project: p.project, region: p.region!, vpnGateway: p.name });
    case TYPES.router:
      return clients.routers.delete({ project: p.project, region: p.region!, router: p.name });
    case TYPES.address:
      return clients.addresses.delete({ project: p.project, region: p.region!, address: p.name });
    case TYPES.network:
      return clients.networks.delete({ project: p.project, network: p.name });
    default:
      return Promise.reject(new Error(`gcp cannot delete a resource of type ${type}`));
  }
}

/**
 * Delete one ledger resource from its entry alone (its id is the API's
 * resource name) and wait until it is gone. Already gone (404, or an
 * operation that reports not found) is success. A delete refused because a
 * dependent resource still exists (an instance still using a subnet) is
 * retried until `inUseRetryMs`.
 */
export async function teardownResource(resource: LedgerResource, ctx: TeardownContext, runtime: GcpRuntime): Promise<void> {
  const clients = runtime.clients();
  const project = parseId(resource.id).project;
  const giveUp = Date.now() + runtime.timing.inUseRetryMs;
  for (;;) {
    try {
      const op: Operation = operationOf(await deleteCall(clients, resource.type, resource.id));
      await waitForOperation(clients, project, op, { signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs });
      return;
    } catch (error) {
      const kind = classify(error);
      if (kind === 'not-found') return;
      if (kind !== 'in-use' || Date.now() + runtime.timing.inUsePollMs > giveUp) throw error;
      ctx.log.debug(`${resource.id} is still in use; retrying the delete`);
      await sleep(runtime.timing.inUsePollMs, undefined, { signal: ctx.signal });
    }
  }
}
