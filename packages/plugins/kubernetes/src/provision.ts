import type { V1Pod, V1Service } from '@kubernetes/client-node';
import type { Host, HostRequest, ProvisionContext } from '@netbench/plugin-api';
import { CONGESTION_CONTROL_LABEL } from '@netbench/plugin-api/cloud-kit';
import { explainPodStart, podCongestionControl } from './congestion-control.js';
import { execHost } from './exec-host.js';
import type { KubernetesHostConfig } from './host-schema.js';
import { apiMessage, ClientCache, type KubeClients, statusOf } from './kube-client.js';
import { podBody, serviceBody, serviceReachablePorts } from './manifests.js';
import { CONTAINER, resourceName } from './naming.js';
import { type PodPlacement, planPlacement } from './placement.js';
import { clusterOf } from './preflight.js';
import { kubeResource, TYPES } from './resources.js';
import { waitForPodRunning } from './wait-pod.js';

export interface MadePod {
  readonly pod: V1Pod;
  readonly clusterIp?: string;
  readonly clients: KubeClients;
  readonly config: KubernetesHostConfig;
  readonly node: Readonly<Record<string, string>>;
  /** What the pod's network namespace uses (tcp_congestion_control), read back through exec. */
  readonly congestionControl?: string;
}

/**
 * Make the run's pods wave by wave (a pod placed relative to another is
 * created once that one runs), a ClusterIP Service beside each pod that wants
 * one, every object recorded in the ledger before it is created; then one
 * Host per request: a pod (its pod IP) or a `serviceOf` alias (the Service's
 * cluster IP, commands in the target's pod).
 */
export async function provisionKubernetes(requests: readonly HostRequest<KubernetesHostConfig>[], ctx: ProvisionContext): Promise<Host[]> {
  const placements = planPlacement(
    ctx.runId,
    requests.map((r) => ({ id: r.id, name: r.name, config: r.config })),
  );
  const cache = new ClientCache();
  const byId = new Map(requests.map((r) => [r.id, r]));
  const pods = placements.filter((p): p is PodPlacement => p.kind === 'pod');
  const made = new Map<string, MadePod>();
  const waves = Math.max(-1, ...pods.map((p) => p.wave));
  for (let wave = 0; wave <= waves; wave++) {
    await Promise.all(
      pods
        .filter((p) => p.wave === wave)
        .map(async (p) => {
          made.set(p.id, await makePod(byId.get(p.id)!, p, cache, ctx));
        }),
    );
  }
  return hostsOf(placements, byId, made);
}

/** One Host per placement: a pod (its pod IP) or a `serviceOf` alias (the Service's cluster IP, commands in the target's pod). */
export function hostsOf(placements: ReturnType<typeof planPlacement>, byId: ReadonlyMap<string, HostRequest<KubernetesHostConfig>>, made: ReadonlyMap<string, MadePod>): Host[] {
  return placements.map((p) => {
    const request = byId.get(p.id)!;
    const target = made.get(p.kind === 'pod' ? p.id : p.podId)!;
    const pod = target.pod;
    const namespace = pod.metadata!.namespace ?? target.config.namespace;
    const viaService = p.kind === 'service';
    if (viaService && !target.clusterIp) throw new Error(`host '${request.name}': the Service of '${byId.get(p.podId)!.name}' has no cluster IP`);
    const labels: Record<string, string> = {
      pod: pod.metadata!.name!,
      node: pod.spec?.nodeName ?? '',
      network: pod.spec?.hostNetwork ? 'host' : 'pod',
      address: viaService ? 'cluster-ip' : target.config.hostNetwork ? 'node-ip' : 'pod-ip',
      ...(target.congestionControl !== undefined ? { [CONGESTION_CONTROL_LABEL]: target.congestionControl } : {}),
    };
    return execHost(
      {
        id: request.id,
        name: request.name,
        cloud: 'kubernetes',
        internalIp: viaService ? target.clusterIp! : pod.status!.podIP!,
        ...(target.node['zone'] ? { zone: target.node['zone'] } : {}),
        ...(target.node['region'] ? { region: target.node['region'] } : {}),
        ...(target.node['machineType'] ? { machineType: target.node['machineType'] } : {}),
        labels,
        // Through the Service only its listed ports reach the pod: tools pick their server ports from these.
        ...(viaService ? { reachablePorts: serviceReachablePorts(target.config.servicePorts) } : {}),
      },
      { namespace, pod: pod.metadata!.name!, container: CONTAINER },
      target.clients.ws,
    );
  });
}

async function makePod(request: HostRequest<KubernetesHostConfig>, placement: PodPlacement, cache: ClientCache, ctx: ProvisionContext): Promise<MadePod> {
  const config = request.config;
  const cluster = clusterOf(config);
  const clients = cache.get(cluster);
  const name = resourceName(ctx.runId, request.id);
  const ns = config.namespace;
  const body = podBody(ctx.runId, request.id, config, placement.affinity);
  await ctx.ledger.track(kubeResource(TYPES.pod, cluster, ns, name, request.id), () =>
    call(`create pod ${ns}/${name}`, clients, () => clients.core.createNamespacedPod({ namespace: ns, body })),
  );
  let clusterIp: string | undefined;
  if (config.service) {
    const service = serviceBody(ctx.runId, request.id, config);
    const created = await ctx.ledger.track(kubeResource(TYPES.service, cluster, ns, name, request.id), () =>
      call(`create service ${ns}/${name}`, clients, () => clients.core.createNamespacedService({ namespace: ns, body: service as V1Service })),
    );
    clusterIp = created.spec?.clusterIP ?? undefined;
  }
  ctx.log.info(`pod ${ns}/${name} created; waiting for it to run`);
  const pod = await waitForPodRunning(clients.config, ns, name, config.startTimeout * 1000, ctx.signal).catch((error: unknown) => {
    throw explainPodStart(error, config, `host ${request.id}`);
  });
  const node = await nodeFacts(clients, pod.spec?.nodeName, ctx);
  const congestionControl = await readPodCongestionControl(pod, clients, config, `host ${request.id}`);
  ctx.log.info(`pod ${ns}/${name} runs on node ${pod.spec?.nodeName ?? '?'} at ${pod.status?.podIP}${clusterIp ? `, Service ${clusterIp}` : ''}`);
  return { pod, clients, config, node, ...(clusterIp ? { clusterIp } : {}), ...(congestionControl !== undefined ? { congestionControl } : {}) };
}

/** `cat /proc/sys/net/ipv4/tcp_congestion_control` in the pod (every pod: the label), checked against what it asked for. */
export async function readPodCongestionControl(pod: V1Pod, clients: KubeClients, config: KubernetesHostConfig, where: string): Promise<string | undefined> {
  const host = execHost(
    { id: where, name: where, cloud: 'kubernetes', internalIp: pod.status!.podIP!, labels: {} },
    { namespace: pod.metadata!.namespace ?? config.namespace, pod: pod.metadata!.name!, container: CONTAINER },
    clients.ws,
  );
  return podCongestionControl((argv) => host.exec(argv, { timeoutMs: 30_000 }), config, where);
}

/** Zone, region and instance type from the node's well-known labels; nothing when nodes may not be read. */
export async function nodeFacts(clients: KubeClients, nodeName: string | undefined, ctx: ProvisionContext): Promise<Record<string, string>> {
  if (!nodeName) return {};
  try {
    const labels = (await clients.core.readNode({ name: nodeName })).metadata?.labels ?? {};
    const facts: Record<string, string> = {};
    if (labels['topology.kubernetes.io/zone']) facts['zone'] = labels['topology.kubernetes.io/zone'];
    if (labels['topology.kubernetes.io/region']) facts['region'] = labels['topology.kubernetes.io/region'];
    if (labels['node.kubernetes.io/instance-type']) facts['machineType'] = labels['node.kubernetes.io/instance-type'];
    return facts;
  } catch (error) {
    ctx.log.debug(`node ${nodeName} could not be read (${apiMessage(error)}); its zone is not recorded`);
    return {};
  }
}

export async function call<T>(what: string, clients: KubeClients, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const status = statusOf(error);
    throw new Error(`${what} on ${clients.server}${status ? ` (HTTP ${status})` : ''}: ${apiMessage(error)}`, { cause: error });
  }
}
