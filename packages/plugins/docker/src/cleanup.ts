import { type CleanupFilter, type CleanupReport, type LedgerResource, parseRunIdTime } from '@netbench/plugin-api';
import { teardownEach } from '@netbench/plugin-api/cloud-kit';
import type Docker from 'dockerode';
import { HOST_LABEL, OBJECT_NAME_RE, RUN_LABEL } from './naming.js';
import { teardownResource } from './teardown.js';

/** What the filter says of a resource of `runId`: take it, spare it (its run is alive on this machine), or skip it. */
function verdict(filter: CleanupFilter, runId: string, createdMs: number | undefined): 'take' | 'spare' | 'skip' {
  if (filter.runId !== undefined && runId !== filter.runId) return 'skip';
  if ((filter.excludeRunIds ?? []).includes(runId)) return 'spare';
  if (filter.olderThanMs !== undefined) {
    const started = parseRunIdTime(runId)?.getTime() ?? createdMs;
    if (started === undefined || Date.now() - started < filter.olderThanMs) return 'skip';
  }
  return 'take';
}

/**
 * Find what runs left behind by their run-id label (containers, then
 * networks, as teardown would order them) and delete it unless `dryRun`;
 * those of runs alive on this machine (`excludeRunIds`) are only reported.
 * Objects whose name is not a netbench name are never touched, label or not.
 */
export async function cleanupLeftovers(docker: Docker, filter: CleanupFilter): Promise<CleanupReport> {
  const labelFilter = { label: [filter.runId !== undefined ? `${RUN_LABEL}=${filter.runId}` : RUN_LABEL] };
  const containers = await docker.listContainers({ all: true, filters: labelFilter });
  const networks = await docker.listNetworks({ filters: labelFilter });
  const found: LedgerResource[] = [];
  const spared: LedgerResource[] = [];
  const sort = (resource: LedgerResource, runId: string, createdMs: number | undefined) => {
    const said = verdict(filter, runId, createdMs);
    if (said !== 'skip') (said === 'take' ? found : spared).push(resource);
  };
  for (const c of containers) {
    const name = c.Names[0]?.replace(/^\//, '');
    const runId = c.Labels[RUN_LABEL];
    if (!name || !runId || !OBJECT_NAME_RE.test(name)) continue;
    sort({ type: 'container', id: name, ...(c.Labels[HOST_LABEL] ? { host: c.Labels[HOST_LABEL] } : {}), data: { runId } }, runId, c.Created * 1000);
  }
  for (const n of networks) {
    const runId = n.Labels?.[RUN_LABEL];
    if (!runId || !OBJECT_NAME_RE.test(n.Name)) continue;
    sort({ type: 'network', id: n.Name, data: { runId } }, runId, Date.parse(n.Created));
  }
  return { ...(await teardownEach(found, (resource) => teardownResource(docker, resource), filter)), spared };
}
