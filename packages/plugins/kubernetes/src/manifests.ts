import type { V1Pod, V1PodSpec } from '@kubernetes/client-node';
import type { ReachablePorts } from '@netbench/plugin-api';
import { DEFAULT_SERVICE_PORTS, type KubernetesHostConfig, type PortRange } from './host-schema.js';
import { CONTAINER, HOST_LABEL, MANAGED_BY, MANAGED_BY_LABEL, podLabels, RUN_LABEL, resourceName } from './naming.js';
import type { Affinity } from './placement.js';

/**
 * The request bodies netbench sends, in the field names of the Kubernetes
 * API reference (core/v1 Pod and Service). Plain objects: the client library
 * serialises them as they are, and the tests check them against the official
 * OpenAPI definitions.
 */
export type PodBody = V1Pod & { metadata: { name: string; namespace: string; labels: Record<string, string> }; spec: V1PodSpec };

export interface ServiceBody {
  apiVersion: 'v1';
  kind: 'Service';
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  spec: { type: 'ClusterIP'; selector: Record<string, string>; ports: { name: string; port: number; targetPort: number; protocol: string }[] };
}

export const CONGESTION_CONTROL_SYSCTL = 'net.ipv4.tcp_congestion_control';

/** The pod does nothing by itself: tools run in it through the exec API. */
const IDLE_COMMAND = ['sleep', 'infinity'];

export function podBody(runId: string, hostId: string, config: KubernetesHostConfig, affinity?: Affinity): PodBody {
  const spec: V1PodSpec = {
    containers: [
      {
        name: CONTAINER,
        image: config.image,
        command: IDLE_COMMAND,
        ...(config.imagePullPolicy ? { imagePullPolicy: config.imagePullPolicy } : {}),
      },
    ],
    restartPolicy: 'Never',
    // Deleting the pod should not wait 30 s for `sleep` to ignore SIGTERM.
    terminationGracePeriodSeconds: 1,
    automountServiceAccountToken: false,
    ...(config.hostNetwork ? { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' } : {}),
    // Written into the pod's network namespace by the runtime; an unsafe sysctl the kubelet must allow (--allowed-unsafe-sysctls).
    ...(config.congestionControl !== undefined ? { securityContext: { sysctls: [{ name: CONGESTION_CONTROL_SYSCTL, value: config.congestionControl }] } } : {}),
    ...(affinity ? { affinity } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: resourceName(runId, hostId), namespace: config.namespace, labels: podLabels(runId, hostId) },
    spec,
  };
}

/**
 * The ports a Service of these ranges forwards, as `Host.reachablePorts`:
 * the same list the Service is made from (`servicePorts`), so the tools'
 * server ports and the Service agree by construction. SCTP is no tool's.
 */
export function serviceReachablePorts(ranges: readonly PortRange[] = DEFAULT_SERVICE_PORTS as unknown as PortRange[]): ReachablePorts[] {
  return ranges
    .map((r) => ({
      first: r.port,
      last: Math.min(65_535, r.port + r.count - 1),
      protocols: r.protocols.filter((p) => p !== 'SCTP').map((p) => p.toLowerCase() as 'tcp' | 'udp'),
    }))
    .filter((r) => r.protocols.length > 0);
}

/** Port names must be IANA service names (at most 15 characters, lower case): `t5201`, `u20001`. */
export function servicePorts(ranges: readonly PortRange[] = DEFAULT_SERVICE_PORTS as unknown as PortRange[]): ServiceBody['spec']['ports'] {
  const ports: ServiceBody['spec']['ports'] = [];
  const seen = new Set<string>();
  for (const range of ranges) {
    for (let port = range.port; port < range.port + range.count && port <= 65_535; port++) {
      for (const protocol of range.protocols) {
        const name = `${protocol[0]!.toLowerCase()}${port}`;
        if (seen.has(name)) continue;
        seen.add(name);
        ports.push({ name, port, targetPort: port, protocol });
      }
    }
  }
  return ports;
}

export function serviceBody(runId: string, hostId: string, config: KubernetesHostConfig): ServiceBody {
  const selector = podLabels(runId, hostId);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: resourceName(runId, hostId),
      namespace: config.namespace,
      labels: { [RUN_LABEL]: runId, [HOST_LABEL]: selector[HOST_LABEL]!, [MANAGED_BY_LABEL]: MANAGED_BY },
    },
    spec: { type: 'ClusterIP', selector: { [RUN_LABEL]: runId, [HOST_LABEL]: selector[HOST_LABEL]! }, ports: servicePorts(config.servicePorts) },
  };
}
