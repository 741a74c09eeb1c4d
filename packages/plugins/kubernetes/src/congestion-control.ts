/**
 * `congestionControl` on a pod: the pod asks for the sysctl
 * `net.ipv4.tcp_congestion_control` in its securityContext (manifests.ts);
 * the kubelet admits it only when started with
 * `--allowed-unsafe-sysctls=net.ipv4.tcp_congestion_control` (it is not in
 * the safe set), and the runtime writes it into the pod's network namespace,
 * where the node's kernel must have the algorithm loaded and allowed
 * (`net.ipv4.tcp_allowed_congestion_control` of the node). netbench changes
 * nothing on nodes: it reads back what every pod reports, as the host label.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { NetbenchError } from '@netbench/plugin-api';
import { type HostCommand, readCongestionControl } from '@netbench/plugin-api/cloud-kit';
import type { KubernetesHostConfig } from './host-schema.js';
import { CONGESTION_CONTROL_SYSCTL } from './manifests.js';

const KUBELET_FIX = `To fix: start the node's kubelet with --allowed-unsafe-sysctls=${CONGESTION_CONTROL_SYSCTL} (KubeletConfiguration allowedUnsafeSysctls), or remove congestionControl`;

/** What the pod's namespace uses; a pod that asked for an algorithm and reports another is an error naming the host. */
export async function podCongestionControl(run: HostCommand, config: KubernetesHostConfig, where: string): Promise<string | undefined> {
  const now = await readCongestionControl(run);
  const wanted = config.congestionControl;
  if (wanted !== undefined && now !== wanted) {
    throw new NetbenchError(
      `kubernetes: ${where}: asked for congestion control ${wanted} (securityContext.sysctls ${CONGESTION_CONTROL_SYSCTL}), but the pod reports ${now ?? 'nothing'}`,
    );
  }
  return now;
}

/** A pod that never ran because of its sysctl, said with what decides it (the kubelet's allowlist, the node's kernel). */
export function explainPodStart(error: unknown, config: KubernetesHostConfig, where: string): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (config.congestionControl === undefined || !/sysctl|tcp_congestion_control/i.test(message)) return error;
  const kernel = /forbidden sysctl|not allowlisted/.test(message)
    ? KUBELET_FIX
    : `The node's kernel must have tcp_${config.congestionControl} loaded and allow it for pods (net.ipv4.tcp_allowed_congestion_control on the node: by default only reno and the node's own default). To fix: load and allow it on the nodes, or choose another algorithm`;
  return new NetbenchError(`kubernetes: ${where}: congestionControl ${config.congestionControl}: ${message}. ${kernel}.`, { cause: error });
}

/** The sysctl the pod spec carries (a reattached pod is checked against the spec). */
export const podSysctl = (pod: V1Pod) => pod.spec?.securityContext?.sysctls?.find((s) => s.name === CONGESTION_CONTROL_SYSCTL)?.value;
