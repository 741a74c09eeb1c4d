import type { HostRequest, PluginContext } from '@netbench/plugin-api';
import type { KubernetesHostConfig } from './host-schema.js';
import { apiMessage, ClientCache, type ClusterRef, statusOf } from './kube-client.js';
import { planPlacement } from './placement.js';

export const clusterOf = (c: KubernetesHostConfig): ClusterRef => ({
  ...(c.kubeconfig !== undefined ? { kubeconfig: c.kubeconfig } : {}),
  ...(c.context !== undefined ? { context: c.context } : {}),
});

/**
 * Before anything is created on any cloud: placement resolves (references,
 * cycles), `serviceOf` hosts share their pod's cluster, every kubeconfig and
 * context loads, and the API server answers for each namespace used (a
 * namespace that does not exist is named; one we may not read is left to
 * the create call to judge).
 */
export async function preflightKubernetes(requests: readonly HostRequest<KubernetesHostConfig>[], ctx: PluginContext, cache = new ClientCache()): Promise<void> {
  const placements = planPlacement(
    ctx.runId,
    requests.map((r) => ({ id: r.id, name: r.name, config: r.config })),
  );
  const byId = new Map(requests.map((r) => [r.id, r]));
  for (const p of placements) {
    if (p.kind !== 'service') continue;
    const [alias, pod] = [byId.get(p.id)!, byId.get(p.podId)!];
    if (JSON.stringify(clusterOf(alias.config)) !== JSON.stringify(clusterOf(pod.config)) || alias.config.namespace !== pod.config.namespace) {
      throw new Error(`host '${alias.name}': serviceOf '${pod.name}' must use the same kubeconfig, context and namespace as that host`);
    }
  }
  const namespaces = new Map<string, { ref: ClusterRef; namespace: string }>();
  for (const r of requests) namespaces.set(JSON.stringify([clusterOf(r.config), r.config.namespace]), { ref: clusterOf(r.config), namespace: r.config.namespace });
  for (const { ref, namespace } of namespaces.values()) {
    const clients = cache.get(ref);
    try {
      await clients.core.readNamespace({ name: namespace });
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) throw new Error(`namespace '${namespace}' does not exist on ${clients.server} (kubectl create namespace ${namespace})`);
      if (status === 403) continue;
      throw new Error(`the Kubernetes API server ${clients.server} did not answer: ${apiMessage(error)}`, { cause: error });
    }
  }
}
