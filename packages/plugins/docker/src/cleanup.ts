import type Docker from 'dockerode';
import { parseRunIdTime, type CleanupFilter, type CleanupReport, type LedgerResource } from '@netbench/plugin-api';
import { teardownEach } from '@netbench/plugin-api/cloud-kit';
import { HOST_LABEL, OBJECT_NAME_RE, RUN_LABEL } from './naming.js';
import { teardownResource } from './teardown.js';

/** True when a resource of `runId` passes the filter. */
function matches(filter: CleanupFilter, runId: string, createdMs: number | undefined): boolean {
  if ((filter.excludeRunIds ?? []).includes(runId)) return false;
  if (filter.runId !== undefined && runId !== filter.runId) return false;
  if (filter.olderThanMs !== undefined) {
    const started = parseRunIdTime(runId)?.getTime() ?? createdMs;
    if (started === undefined || Date.now() - started < filter.olderThanMs) return false;
  }
  return true;
}

/**
 * Find what runs left behind by their run-id label (containers, then
 * networks, as teardown would order them) and delete it unless `dryRun`.
 * Objects whose name is not a netbench name are never touched, label or not.
 */
export async function cleanupLeftovers(docker: Docker, filter: CleanupFilter): Promise<CleanupReport> {
  const labelFilter = { label: [filter.runId !== undefined ? `${RUN_LABEL}=${filter.runId}` : RUN_LABEL] };
  const containers = await docker.listContainers({ all: true, filters: labelFilter });
  const networks = await docker.listNetworks({ filters: labelFilter });
  const found: LedgerResource[] = [];
  for (const c of containers) {
    const name = c.Names[0]?.replace(/^\//, '');
    const runId = c.Labels[RUN_LABEL];
    if (!name || !runId || !OBJECT_NAME_RE.test(name) || !matches(filter, runId, c.Created * 1000)) continue;
    found.push({ type: 'container', id: name, ...(c.Labels[HOST_LABEL] ? { host: c.Labels[HOST_LABEL] } : {}), data: { runId } });
  }
  for (const n of networks) {
    const runId = n.Labels?.[RUN_LABEL];
    if (!runId || !OBJECT_NAME_RE.test(n.Name) || !matches(filter, runId, Date.parse(n.Created))) continue;
    found.push({ type: 'network', id: n.Name, data: { runId } });
  }
  return teardownEach(found, (resource) => teardownResource(docker, resource), filter);
}
