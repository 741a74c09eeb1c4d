import Docker from 'dockerode';

/** Label every object of a netbench run carries (packages/plugins/docker/src/naming.ts). */
const RUN_LABEL = 'org.netbench.run-id';
export const TOOLS_IMAGE = 'netbench/tools:bookworm';

export const docker = new Docker();

/**
 * Whether the Docker tests can run for real here: a daemon answers and the
 * tools image is built (scripts/test.sh starts dockerd and builds it; set
 * NETBENCH_REQUIRE_DOCKER=1 to make its absence a failure, as CI does).
 */
export async function dockerReady(): Promise<{ ready: boolean; why: string }> {
  try {
    await docker.version();
  } catch (error) {
    return { ready: false, why: `no Docker daemon: ${(error as Error).message}` };
  }
  try {
    await docker.getImage(TOOLS_IMAGE).inspect();
  } catch {
    return { ready: false, why: `image ${TOOLS_IMAGE} not built (scripts/docker-image.sh)` };
  }
  return { ready: true, why: 'dockerd answers and the tools image is built' };
}

/** Containers and networks (by name) that carry a run's label, or any run's. */
/** The ids of a run's containers (a process's cgroup in one of them names its id). */
export async function containerIdsOf(runId: string): Promise<string[]> {
  return (await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${runId}`] } })).map((c) => c.Id);
}

export async function dockerObjectsOf(runId?: string): Promise<string[]> {
  const filters = { label: [runId ? `${RUN_LABEL}=${runId}` : RUN_LABEL] };
  const containers = await docker.listContainers({ all: true, filters });
  const networks = await docker.listNetworks({ filters });
  return [...containers.map((c) => `container ${c.Names[0]?.replace(/^\//, '')}`), ...networks.map((n) => `network ${n.Name}`)];
}
