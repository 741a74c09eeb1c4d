import { needVms, type BenchmarkContext, type BenchmarkTranslation } from './context.js';

/** PKB's container_netperf runs `netperf -t TCP_STREAM -l 100` from the second container to the first. */
export const PKB_CONTAINER_NETPERF_LENGTH = 100;

/**
 * PKB's `container_netperf` (whitepaper 3.5): a Kubernetes cluster of
 * `container_cluster.vm_count` nodes, netperf TCP_STREAM for 100 s from the
 * second netperf container to the first. netbench has no Kubernetes plugin;
 * it measures the same test between two VMs of the cluster's node type, over
 * internal addresses: node-to-node networking without the pod network (CNI)
 * on top. The VMs come from `container_cluster` (see `clusterGroups`).
 */
export function containerNetperfBenchmarks(ctx: BenchmarkContext): BenchmarkTranslation {
  if (!needVms(ctx, 2, false)) return { benchmarks: [] };
  const [first, second] = ctx.vms as [BenchmarkContext['vms'][number], BenchmarkContext['vms'][number]];
  ctx.problems.warn(ctx.base, 'container_netperf: netbench has no Kubernetes plugin; netperf TCP_STREAM runs between two VMs of the cluster\'s node type instead of two pods (no pod network overhead)');
  for (const key of ['container_specs', 'container_registry']) {
    if (ctx.config[key] !== undefined) ctx.problems.warn([...ctx.base, key], `ignored: netbench installs netperf on the hosts instead of running a container image`);
  }
  return {
    benchmarks: [
      {
        block: { tool: 'netperf', client: second.host, server: first.host, ip: 'internal', tests: ['TCP_STREAM'], duration: PKB_CONTAINER_NETPERF_LENGTH },
        origins: { client: [...ctx.base, 'container_cluster'], server: [...ctx.base, 'container_cluster'] },
        note: `PKB container_netperf: ${second.host} → ${first.host}, TCP_STREAM for ${PKB_CONTAINER_NETPERF_LENGTH} s (node VMs standing in for the pods)`,
      },
    ],
  };
}

/** `container_cluster` as a VM group, so node VMs are read like any other (zones, machine_type flags apply). */
export function clusterGroups(config: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const cluster = config.container_cluster;
  if (cluster === null || typeof cluster !== 'object' || Array.isArray(cluster)) return undefined;
  const { vm_count, vm_spec, cloud } = cluster as Record<string, unknown>;
  return { node: { vm_count: vm_count ?? 1, ...(vm_spec !== undefined ? { vm_spec } : {}), ...(cloud !== undefined ? { cloud } : {}) } };
}
