import { z } from '@netbench/plugin-api';
import { congestionControlSchema } from '@netbench/plugin-api/cloud-kit';

/** DNS-1123 label: namespaces, node names of most clusters. */
const DNS_LABEL_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const HOST_NAME_RE = /^[A-Za-z0-9_-]+$/;
const hostRef = z.string().regex(HOST_NAME_RE, { message: 'expected the name of another host of this spec' });

/** Ports a Service exposes when the host block does not say: iperf3's and netperf's first ports (their port pools). */
export const DEFAULT_SERVICE_PORTS = [
  { port: 5201, count: 8, protocols: ['TCP', 'UDP'] },
  { port: 20000, count: 16, protocols: ['TCP', 'UDP'] },
] as const;

const portRange = z.strictObject({
  /** First port. */
  port: z.int().min(1).max(65_535),
  /** How many consecutive ports from `port` (a Service lists each one). */
  count: z.int().min(1).max(64).default(1),
  protocols: z
    .array(z.enum(['TCP', 'UDP', 'SCTP']))
    .min(1)
    .default(['TCP']),
});

const placement = z
  .strictObject({
    /** Pin to this node (`metadata.name`). */
    node: z.string().min(1).optional(),
    /** Only nodes of this zone (`topology.kubernetes.io/zone`). */
    zone: z.string().min(1).optional(),
    /** On the same node as this other host of the spec (pod affinity on `kubernetes.io/hostname`). */
    sameNodeAs: hostRef.optional(),
    /** On another node than this other host of the spec (pod anti-affinity). */
    otherNodeThan: hostRef.optional(),
  })
  .refine((p) => !(p.sameNodeAs !== undefined && p.sameNodeAs === p.otherNodeThan), { message: 'sameNodeAs and otherNodeThan name the same host' });

export const hostSchema = z
  .strictObject({
    /**
     * Kubeconfig file; default: `KUBECONFIG`, then `~/.kube/config` (the client library's default).
     * Its exec/auth-provider/token-file users are refused unless the file is in KUBECONFIG or NETBENCH_TRUSTED_KUBECONFIGS.
     */
    kubeconfig: z.string().min(1).optional(),
    /** Context of the kubeconfig; default: its current context. */
    context: z.string().min(1).optional(),
    /** Namespace the pods and Services are made in (must exist). */
    namespace: z.string().regex(DNS_LABEL_RE, { message: 'expected a namespace name (lower-case letters, digits and -)' }).default('default'),
    /** Image with the tools (iperf3, netperf, ...) and `sleep`; the default is k8s-netperf's. */
    image: z.string().min(1).default('quay.io/cloud-bulldozer/k8s-netperf:latest'),
    imagePullPolicy: z.enum(['Always', 'IfNotPresent', 'Never']).optional(),
    /** Run the pod in the node's network namespace (`hostNetwork: true`): the host-network baseline. */
    hostNetwork: z.boolean().default(false),
    /** Where the pod goes; default: wherever the scheduler puts it. */
    placement: placement.optional(),
    /**
     * This host is the ClusterIP Service of another host of the spec: no pod of
     * its own; commands run in that host's pod, and other hosts reach it at the
     * Service's cluster IP (the "virtual IP" paths, and hairpin when the client
     * is that same pod).
     */
    serviceOf: hostRef.optional(),
    /** Ports the Service of this pod exposes (a Service needs explicit ports). */
    servicePorts: z.array(portRange).min(1).optional(),
    /** Make a ClusterIP Service for this pod (needed by any `serviceOf` host pointing at it). */
    service: z.boolean().default(true),
    /**
     * TCP congestion control of the pod's network namespace: the pod asks for
     * the sysctl `net.ipv4.tcp_congestion_control` (securityContext.sysctls),
     * an unsafe sysctl the node's kubelet must allow (`--allowed-unsafe-sysctls`).
     * Not with hostNetwork: it would change the node's default.
     */
    congestionControl: congestionControlSchema.optional(),
    /** Seconds to wait for the pod to be running. */
    startTimeout: z.number().positive().default(300),
  })
  .refine((c) => c.serviceOf === undefined || (c.placement === undefined && !c.hostNetwork), {
    message: 'a serviceOf host has no pod of its own: placement and hostNetwork belong to the host it points at',
    path: ['serviceOf'],
  })
  .refine((c) => c.congestionControl === undefined || (!c.hostNetwork && c.serviceOf === undefined), {
    message:
      "congestionControl needs the pod's own network namespace: not with hostNetwork (it would change the node's default) nor on a serviceOf host (set it on the pod's host)",
    path: ['congestionControl'],
  });

export type KubernetesHostConfig = z.output<typeof hostSchema>;
export type PlacementConfig = NonNullable<KubernetesHostConfig['placement']>;
export type PortRange = z.output<typeof portRange>;
