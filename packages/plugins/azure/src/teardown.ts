import type { LedgerResource, TeardownContext } from '@netbench/plugin-api';
import { classify } from './errors.js';
import { type LroOptions, untilDone } from './lro.js';
import { parseGroup, parseRuleId, TYPES } from './resources.js';
import type { AzureRuntime } from './runtime.js';

/**
 * Delete one ledger resource from its entry alone. The run's resource group
 * is deleted (a long-running operation, VMs force-deleted) and with it every
 * resource inside: those entries (`inRunGroup`) need no call of their own —
 * the group, created first, is visited last. A security rule `admitPeers`
 * added is deleted on its own (newer, so visited before the group): it may
 * sit in a security group the run does not own. Already gone (404: the rule,
 * its security group or its resource group) is success.
 */
export async function teardownResource(resource: LedgerResource, ctx: TeardownContext, runtime: AzureRuntime): Promise<void> {
  const timing: LroOptions = { signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs, pollMs: runtime.timing.pollMs };
  if (resource.type === TYPES.nsgRule) {
    const { subscriptionId, group, nsg, rule } = parseRuleId(resource.id);
    const clients = runtime.clients(subscriptionId);
    await untilDone(`deleting security rule ${rule} of ${nsg}`, (o) => clients.network.securityRules.delete(group, nsg, rule, o), timing).catch(ignoreNotFound);
    return;
  }
  if (resource.type !== TYPES.group) {
    if (resource.data?.['inRunGroup'] === true) return;
    throw new Error(`azure cannot delete a resource of type ${resource.type} outside the run's resource group`);
  }
  const { subscriptionId, group } = parseGroup(resource.id);
  const clients = runtime.clients(subscriptionId);
  await untilDone(
    `deleting resource group ${group}`,
    (o) => clients.resources.resourceGroups.delete(group, { ...o, forceDeletionTypes: 'Microsoft.Compute/virtualMachines' }),
    timing,
  ).catch(ignoreNotFound);
}

function ignoreNotFound(error: unknown): void {
  if (classify(error) !== 'not-found') throw error;
}
