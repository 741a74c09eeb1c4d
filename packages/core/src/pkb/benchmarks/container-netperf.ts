import { isPlainObject } from '../../matrix/placeholders.js';
import { type BenchmarkContext, type BenchmarkTranslation, needVms } from './context.js';

/** PKB's container_netperf runs `netperf -t TCP_STREAM -l 100` from the second container to the first. */
export const PKB_CONTAINER_NETPERF_LENGTH = 100;

/** PKB's container_netperf deploys two netperf containers, whatever the node count. */
const CONTAINERS = 2;

/**
 * PKB's `container_netperf` (whitepaper 3.5): two netperf containers
 * (`container_specs.netperf`: image, cpus, memory), netperf TCP_STREAM for
 * 100 s from the second to the first. netbench runs the two containers on
 * this machine's Docker (`cloud: docker`), limited to the spec's CPUs and
 * memory, over their bridge network: container to container networking. PKB
 * places them as pods on a Kubernetes cluster of `container_cluster` nodes;
 * the translation says so in its note (the cluster is not built here).
 */
export function containerNetperfBenchmarks(ctx: BenchmarkContext): BenchmarkTranslation {
  if (!needVms(ctx, CONTAINERS, false)) return { benchmarks: [] };
  const [first, second] = ctx.vms as [BenchmarkContext['vms'][number], BenchmarkContext['vms'][number]];
  const cluster = isPlainObject(ctx.config.container_cluster) ? ctx.config.container_cluster : {};
  const nodes = isPlainObject(cluster.vm_spec)
    ? Object.entries(cluster.vm_spec)
        .map(
          ([cloud, spec]) =>
            `${cloud}${isPlainObject(spec) && spec.machine_type ? ` ${String(spec.machine_type)}` : ''}${isPlainObject(spec) && spec.zone ? ` in ${String(spec.zone)}` : ''}`,
        )
        .join(', ')
    : 'its nodes';
  return {
    benchmarks: [
      {
        block: { tool: 'netperf', client: second.host, server: first.host, ip: 'internal', tests: ['TCP_STREAM'], duration: PKB_CONTAINER_NETPERF_LENGTH },
        origins: { client: [...ctx.base, 'container_specs'], server: [...ctx.base, 'container_specs'] },
        note:
          `PKB container_netperf: ${second.host} → ${first.host}, TCP_STREAM for ${PKB_CONTAINER_NETPERF_LENGTH} s between two containers of the tools image ` +
          `on this machine's Docker (PKB's image '${imageName(ctx.config)}' is its own netperf build; PKB runs the containers as pods on a ${String(cluster.vm_count ?? 1)}-node cluster of ${nodes})`,
      },
    ],
  };
}

function imageName(config: Readonly<Record<string, unknown>>): string {
  const specs = config.container_specs;
  const netperf = isPlainObject(specs) && isPlainObject(specs.netperf) ? specs.netperf : {};
  return typeof netperf.image === 'string' ? netperf.image : 'netperf';
}

/** PKB sizes (`4GiB`, `512MiB`, `2GB`) in mebibytes, or undefined. */
function memoryMb(memory: unknown): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(GiB|MiB|GB|MB)$/i.exec(String(memory ?? '').trim());
  if (!match) return undefined;
  const amount = Number(match[1]) * ((match[2] as string).toLowerCase().startsWith('g') ? 1024 : 1);
  return Number.isInteger(amount) ? amount : undefined;
}

/**
 * The two netperf containers as one Docker VM group, sized by
 * `container_specs.netperf` (cpus, memory) as PKB sizes the pods.
 */
export function clusterGroups(config: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  if (!isPlainObject(config.container_cluster)) return undefined;
  const specs = config.container_specs;
  const netperf = isPlainObject(specs) && isPlainObject(specs.netperf) ? specs.netperf : {};
  const docker: Record<string, unknown> = {};
  if (typeof netperf.cpus === 'number') docker.docker_cpus = netperf.cpus;
  const mb = memoryMb(netperf.memory);
  if (mb !== undefined) docker.docker_memory_mb = mb;
  return { container: { cloud: 'Docker', vm_count: CONTAINERS, vm_spec: { Docker: docker } } };
}
