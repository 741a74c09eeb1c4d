import type { HostCommand } from './congestion-control.js';

/** The label a host's CPU count goes under (samples: `host_client_cpu_count`, `host_server_cpu_count`). */
export const CPU_COUNT_LABEL = 'cpu_count';

/**
 * How many CPUs the host's processes may run on (`nproc`: a container's
 * cpuset, a machine's online CPUs), as text for the `cpu_count` label;
 * undefined when it cannot be read. Read once per host at provision: the
 * count decides how much CPU placement matters for request/response results.
 */
export async function readCpuCount(exec: HostCommand): Promise<string | undefined> {
  const result = await exec(['nproc']).catch(() => undefined);
  const text = result?.code === 0 ? result.stdout.trim() : '';
  return /^[1-9]\d*$/.test(text) ? text : undefined;
}
