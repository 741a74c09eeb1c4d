import type { LedgerResource, TeardownContext } from '@netbench/core';
import { classify } from './errors.js';
import { untilDone } from './lro.js';
import { parseGroup, TYPES } from './resources.js';
import type { AzureRuntime } from './runtime.js';

/**
 * Delete one ledger resource from its entry alone. The run's resource group
 * is deleted (a long-running operation, VMs force-deleted) and with it every
 * resource inside: those entries (`inRunGroup`) need no call of their own —
 * the group, created first, is visited last. Already gone (404) is success.
 */
export async function teardownResource(resource: LedgerResource, ctx: TeardownContext, runtime: AzureRuntime): Promise<void> {
  if (resource.type !== TYPES.group) {
    if (resource.data?.['inRunGroup'] === true) return;
    throw new Error(`azure cannot delete a resource of type ${resource.type} outside the run's resource group`);
  }
  const { subscriptionId, group } = parseGroup(resource.id);
  const clients = runtime.clients(subscriptionId);
  try {
    await untilDone(`deleting resource group ${group}`, (o) => clients.resources.resourceGroups.delete(group, { ...o, forceDeletionTypes: 'Microsoft.Compute/virtualMachines' }), {
      signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs, pollMs: runtime.timing.pollMs,
    });
  } catch (error) {
    if (classify(error) !== 'not-found') throw error;
  }
}
