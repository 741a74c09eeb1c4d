import type { V1Pod } from '@kubernetes/client-node';
import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError, pendingResources } from '@netbench/plugin-api';
import { podSysctl } from './congestion-control.js';
import type { KubernetesHostConfig } from './host-schema.js';
import { ClientCache, statusOf } from './kube-client.js';
import { podLabels, resourceName } from './naming.js';
import { type PodPlacement, planPlacement } from './placement.js';
import { clusterOf } from './preflight.js';
import { call, hostsOf, type MadePod, nodeFacts, readPodCongestionControl } from './provision.js';
import { TYPES } from './resources.js';

/**
 * The pods an earlier process of this run made (a staged run's next
 * `--stage`, `--resume`), from the ledger: each pod is read back by name and
 * must still carry the run's and the host's labels and be Running with a pod
 * IP; a Service the host wanted is read back for its cluster IP. Commands go
 * through the API server's exec as before. Creates nothing.
 */
export async function reattachKubernetes(requests: readonly HostRequest<KubernetesHostConfig>[], ctx: ProvisionContext): Promise<Host[]> {
  const placements = planPlacement(
    ctx.runId,
    requests.map((r) => ({ id: r.id, name: r.name, config: r.config })),
  );
  const cache = new ClientCache();
  const byId = new Map(requests.map((r) => [r.id, r]));
  const pending = pendingResources(ctx.ledger.entries);
  const made = new Map<string, MadePod>();
  await Promise.all(
    placements
      .filter((p): p is PodPlacement => p.kind === 'pod')
      .map(async (p) => {
        const request = byId.get(p.id)!;
        const config = request.config;
        const clients = cache.get(clusterOf(config));
        const name = resourceName(ctx.runId, request.id);
        const ns = config.namespace;
        const listed = (type: string) => pending.some((e) => e.resource.type === type && e.resource.id === `${ns}/${name}`);
        if (!listed(TYPES.pod))
          throw new NetbenchError(`kubernetes: the ledger of run ${ctx.runId} has no pod for host ${request.id} (it was never provisioned, or was torn down)`);
        const pod = await call(`read pod ${ns}/${name}`, clients, () =>
          clients.core.readNamespacedPod({ namespace: ns, name }).then(
            (v): V1Pod | undefined => v,
            (error: unknown) => {
              if (statusOf(error) === 404) return undefined;
              throw error;
            },
          ),
        );
        if (!pod) throw new NetbenchError(`kubernetes: host ${request.id}: pod ${ns}/${name} is gone`);
        const wanted = podLabels(ctx.runId, request.id);
        const labels = pod.metadata?.labels ?? {};
        const wrong = Object.entries(wanted)
          .filter(([k, v]) => labels[k] !== v)
          .map(([k, v]) => `${k}=${v}`);
        if (wrong.length > 0) throw new NetbenchError(`kubernetes: host ${request.id}: pod ${ns}/${name} does not carry the labels ${wrong.join(', ')}: it is not this run's`);
        const phase = pod.status?.phase ?? 'Unknown';
        if (phase !== 'Running' || !pod.status?.podIP)
          throw new NetbenchError(`kubernetes: host ${request.id}: pod ${ns}/${name} is ${phase}${pod.status?.podIP ? '' : ' with no pod IP'}, not Running`);
        let clusterIp: string | undefined;
        if (config.service) {
          if (!listed(TYPES.service)) throw new NetbenchError(`kubernetes: host ${request.id}: the ledger has no Service ${ns}/${name}`);
          const service = await call(`read service ${ns}/${name}`, clients, () => clients.core.readNamespacedService({ namespace: ns, name }));
          clusterIp = service.spec?.clusterIP ?? undefined;
        }
        if (podSysctl(pod) !== config.congestionControl)
          throw new NetbenchError(
            `kubernetes: host ${request.id}: pod ${ns}/${name} was made with congestion control ${podSysctl(pod) ?? 'unset'}, the spec sets ${config.congestionControl ?? 'none'}`,
          );
        const node = await nodeFacts(clients, pod.spec?.nodeName, ctx);
        const congestionControl = await readPodCongestionControl(pod, clients, config, `host ${request.id}`);
        made.set(p.id, { pod, clients, config, node, ...(clusterIp ? { clusterIp } : {}), ...(congestionControl !== undefined ? { congestionControl } : {}) });
      }),
  );
  return hostsOf(placements, byId, made);
}
