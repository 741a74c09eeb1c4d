import type { LedgerResource } from '@netbench/plugin-api';
import { teardownAllowedCongestionControl } from '@netbench/plugin-api/cloud-kit';
import type Docker from 'dockerode';
import { isNotFound } from './docker-client.js';
import { OBJECT_NAME_RE, RUN_LABEL } from './naming.js';

/** Resource kinds this plugin records. */
export type DockerResourceType = 'network' | 'container' | 'sysctl';

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * An object of that name made by another run (or by the user) is not ours:
 * ours was never made (creating it failed on the name), so nothing is deleted.
 */
function notOurs(labels: Record<string, string> | undefined | null, runId: string | undefined): boolean {
  const owner = labels?.[RUN_LABEL];
  return runId !== undefined && owner !== runId;
}

async function removeContainer(docker: Docker, name: string, runId: string | undefined): Promise<void> {
  const container = docker.getContainer(name);
  try {
    const info = await container.inspect();
    if (notOurs(info.Config.Labels, runId)) return;
    // force: kills the processes (the tools' servers too) and removes it; v: its anonymous volumes.
    await container.remove({ force: true, v: true });
  } catch (error) {
    // Gone already, or removed by someone else between inspect and remove.
    if (!isNotFound(error)) throw error;
  }
}

async function removeNetwork(docker: Docker, name: string, runId: string | undefined): Promise<void> {
  const network = docker.getNetwork(name);
  try {
    const info = (await network.inspect()) as { Labels?: Record<string, string> };
    if (notOurs(info.Labels, runId)) return;
    await network.remove();
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** Delete one ledger resource. Works from the entry alone; gone already = success. */
export async function teardownResource(docker: Docker, resource: LedgerResource): Promise<void> {
  // An algorithm this run added to the root namespace's tcp_allowed_congestion_control (shared with the local lab).
  if (await teardownAllowedCongestionControl('docker', resource)) return;
  // Names are checked against our own pattern, so a damaged ledger can never delete `bridge` or a user's container.
  if (!OBJECT_NAME_RE.test(resource.id)) throw new Error(`docker: refusing to delete ${resource.type} ${JSON.stringify(resource.id)}: not a netbench name`);
  const runId = str(resource.data?.runId);
  switch (resource.type) {
    case 'container':
      return removeContainer(docker, resource.id, runId);
    case 'network':
      return removeNetwork(docker, resource.id, runId);
    default:
      throw new Error(`docker: unknown resource type ${resource.type}`);
  }
}
