import type { CleanupFilter, CleanupReport, LedgerResource, PluginContext } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { teardownEach } from '@netbench/plugin-api/cloud-kit';
import { resolveSubscription } from './credentials.js';
import { runIdOfName } from './naming.js';
import { groupId, TYPES } from './resources.js';
import type { AzureRuntime } from './runtime.js';
import { teardownResource } from './teardown.js';

/** Resource groups carrying a run id tag (the server filters; the name is checked too). */
export const TAG_FILTER = "tagName eq 'netbench-run'";

/**
 * Leftovers by tag (`netbench cleanup --all`): every resource group tagged
 * with a run id, matching the filter, is deleted with all it holds.
 */
export async function cleanupAzure(filter: CleanupFilter, ctx: PluginContext, runtime: AzureRuntime, subscription = resolveSubscription()): Promise<CleanupReport> {
  if (!subscription) throw new UnsupportedError('no Azure subscription to look for leftovers in: set AZURE_SUBSCRIPTION_ID or az account set -s ID');
  const clients = runtime.clients(subscription);
  const cutoff = filter.olderThanMs !== undefined ? Date.now() - filter.olderThanMs : undefined;
  const found: LedgerResource[] = [];
  const spared: LedgerResource[] = [];
  for await (const group of clients.resources.resourceGroups.list({ filter: TAG_FILTER })) {
    const runId = group.tags?.['netbench-run'];
    const name = group.name ?? '';
    if (!runId || runIdOfName(name) !== runId) continue;
    if (filter.runId !== undefined && runId !== filter.runId) continue;
    // A run alive on this machine (whatever its runs folder): reported, never deleted.
    if ((filter.excludeRunIds ?? []).includes(runId)) {
      spared.push({ type: TYPES.group, id: groupId(subscription, name), data: { runId } });
      continue;
    }
    const created = Date.parse(group.tags?.['netbench-created'] ?? '');
    if (cutoff !== undefined && !(Number.isFinite(created) && created <= cutoff)) continue;
    found.push({ type: TYPES.group, id: groupId(subscription, name), ...(group.location ? { data: { location: group.location } } : {}) });
  }
  return { ...(await teardownEach(found, (resource) => teardownResource(resource, ctx, runtime), filter)), spared };
}
