import type { Host, HostRequest, LedgerEntry, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError, pendingResources } from '@netbench/plugin-api';
import type Docker from 'dockerode';
import { isNotFound } from './docker-client.js';
import type { DockerHostConfig } from './host-schema.js';
import { containerName, HOST_LABEL, networkName, RUN_LABEL } from './naming.js';
import { containerHost } from './provision.js';
import { stopStrays } from './stop-strays.js';

/**
 * The containers an earlier process of this run made, from the ledger (a
 * staged run's next `--stage`, `--resume` after a crash). Each must still
 * exist, be running, and carry this run's id and its fleet host id in its
 * labels (a container of the same name made by someone else is not ours);
 * the run's network must still exist with the run's label. Creates nothing.
 * Processes an earlier, killed invocation left in a container are stopped.
 */
export async function reattachContainers(docker: Docker, requests: readonly HostRequest<DockerHostConfig>[], ctx: ProvisionContext): Promise<Host[]> {
  const pending = pendingResources(ctx.ledger.entries);
  if (requests.some((r) => r.config.network !== 'host')) await verifyNetwork(docker, pending, ctx.runId);
  const hosts: Host[] = [];
  for (const request of requests) {
    ctx.signal.throwIfAborted();
    hosts.push(await reattachContainer(docker, request, pending, ctx));
  }
  return hosts;
}

async function verifyNetwork(docker: Docker, pending: readonly LedgerEntry[], runId: string): Promise<void> {
  const name = networkName(runId);
  if (!pending.some((e) => e.resource.type === 'network' && e.resource.id === name)) {
    throw new NetbenchError(`docker: the ledger of run ${runId} has no network ${name} (it was never made, or was torn down)`);
  }
  const info = await docker
    .getNetwork(name)
    .inspect()
    .then(
      (i: { Labels?: Record<string, string> }) => i,
      (error) => (isNotFound(error) ? undefined : Promise.reject(error)),
    );
  if (!info) throw new NetbenchError(`docker: network ${name} of run ${runId} is gone`);
  if (info.Labels?.[RUN_LABEL] !== runId) throw new NetbenchError(`docker: network ${name} does not carry the label ${RUN_LABEL}=${runId}: it is not this run's`);
}

async function reattachContainer(docker: Docker, request: HostRequest<DockerHostConfig>, pending: readonly LedgerEntry[], ctx: ProvisionContext): Promise<Host> {
  const name = containerName(ctx.runId, request.id);
  const entry = pending.find((e) => e.resource.type === 'container' && e.resource.host === request.id);
  if (!entry) throw new NetbenchError(`docker: the ledger of run ${ctx.runId} has no container for host ${request.id} (it was never provisioned, or was torn down)`);
  if (entry.resource.id !== name) throw new NetbenchError(`docker: host ${request.id}: the ledger names container ${entry.resource.id}, expected ${name}`);
  const info = await docker
    .getContainer(name)
    .inspect()
    .then(
      (i) => i,
      (error) => (isNotFound(error) ? undefined : Promise.reject(error)),
    );
  if (!info) throw new NetbenchError(`docker: host ${request.id}: container ${name} is gone`);
  const labels = info.Config.Labels ?? {};
  if (labels[RUN_LABEL] !== ctx.runId || labels[HOST_LABEL] !== request.id) {
    throw new NetbenchError(
      `docker: host ${request.id}: container ${name} does not carry the labels ${RUN_LABEL}=${ctx.runId} and ${HOST_LABEL}=${request.id}: it is not this run's`,
    );
  }
  if (!info.State.Running) throw new NetbenchError(`docker: host ${request.id}: container ${name} is not running (${info.State.Status})`);
  const host = await containerHost(docker, request, ctx, info, false);
  const strays = await stopStrays(host);
  if (strays.length > 0)
    ctx.log.warn(
      `docker: host ${request.id}: stopped ${strays.length} process${strays.length === 1 ? '' : 'es'} an earlier invocation of run ${ctx.runId} left running in ${name} (${strays.join(', ')})`,
    );
  return host;
}
