import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { CleanupFilter, CleanupReport, LedgerResource, PluginContext } from '@netbench/plugin-api';
import { teardownEach } from '@netbench/plugin-api/cloud-kit';
import { ClientCache } from './kube-client.js';
import { ALL_RUNS_SELECTOR, RUN_LABEL } from './naming.js';
import { kubeResource, TYPES } from './resources.js';
import { teardownResource } from './teardown.js';

interface Found {
  readonly resource: LedgerResource;
  readonly runId: string;
  readonly created: number;
}

/**
 * Leftovers without a ledger (`netbench cleanup --all`): every pod and
 * Service of any namespace carrying netbench's labels, in the cluster of the
 * default kubeconfig and context (`KUBECONFIG`, `~/.kube/config`). Services
 * first, then pods, each deleted as teardown deletes a ledger entry.
 */
export async function cleanupKubernetes(filter: CleanupFilter, ctx: PluginContext, cache = new ClientCache()): Promise<CleanupReport> {
  const { core } = cache.get({});
  const found: Found[] = [];
  const add = (type: typeof TYPES.pod | typeof TYPES.service, meta: V1ObjectMeta | undefined) => {
    const runId = meta?.labels?.[RUN_LABEL];
    if (!runId || !meta?.name || !meta.namespace) return;
    const created = meta.creationTimestamp ? new Date(meta.creationTimestamp).getTime() : Number.NaN;
    found.push({ resource: kubeResource(type, {}, meta.namespace, meta.name), runId, created });
  };
  for (const item of (await core.listServiceForAllNamespaces({ labelSelector: ALL_RUNS_SELECTOR })).items) add(TYPES.service, item.metadata);
  for (const item of (await core.listPodForAllNamespaces({ labelSelector: ALL_RUNS_SELECTOR })).items) add(TYPES.pod, item.metadata);

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
      // An object whose age cannot be read is left alone when an age is asked for.
      (cutoff === undefined || (Number.isFinite(f.created) && f.created <= cutoff)),
  );
  return {
    ...(await teardownEach(
      selected.map((f) => f.resource),
      (resource) => teardownResource(resource, ctx, cache),
      filter,
    )),
    spared,
  };
}
