/**
 * Every Docker object a run makes carries its run id twice: in its name
 * (`nb-<runId>`, `nb-<runId>-<host>`) and in a label, so `cleanup` finds what
 * a crashed run left without its ledger, and teardown never deletes an object
 * of the same name that another run or the user made.
 */
import { runTag } from '@netbench/plugin-api';

/** Label holding the run id on networks and containers. */
export const RUN_LABEL = 'org.netbench.run-id';
/** Label holding the fleet host id on containers. */
export const HOST_LABEL = 'org.netbench.host';

/** A network (`nb-<runId>`) or container (`nb-<runId>-<host>`) name of ours. */
export const OBJECT_NAME_RE = /^nb-\d{8}-\d{6}-[A-Za-z0-9]+(?:-[A-Za-z0-9_.-]+)?$/;

/** Host ids may hold `@`, `=`, `/` (matrix values); Docker names take `[a-zA-Z0-9][a-zA-Z0-9_.-]*`. */
export function sanitizeHostId(hostId: string): string {
  const clean = hostId.replace(/[^A-Za-z0-9_.-]/g, '_');
  return clean.length > 0 ? clean.slice(0, 100) : 'host';
}

export function networkName(runId: string): string {
  return `nb-${runId}`;
}

export function containerName(runId: string, hostId: string): string {
  return `nb-${runId}-${sanitizeHostId(hostId)}`;
}

/** Name of the Linux bridge of the run's network: IFNAMSIZ allows 15 characters, so the run tag only. */
export function bridgeInterfaceName(runId: string): string {
  return `nb${runTag(runId)}dk`;
}

export function runLabels(runId: string, hostId?: string): Record<string, string> {
  return { [RUN_LABEL]: runId, ...(hostId !== undefined ? { [HOST_LABEL]: hostId } : {}) };
}
