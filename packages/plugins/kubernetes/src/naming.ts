import { createHash } from 'node:crypto';

/** Label keys netbench puts on every pod and Service it makes. */
export const RUN_LABEL = 'netbench.io/run';
export const HOST_LABEL = 'netbench.io/host';
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'netbench';
/** The one container of every pod. */
export const CONTAINER = 'netbench';
/** A run id (`20261122-110256-k3f9a2`); label values allow it as is. */
export const RUN_ID_RE = /^\d{8}-\d{6}-[A-Za-z0-9]+$/;

const MAX_NAME = 63;

/**
 * A DNS-1035 label (Service names: lower case, starts with a letter, at most
 * 63 characters) made of the run id and the fleet host id. Fleet ids may hold
 * `@`, `=`, `,` (matrix values); when the id had to be changed or cut, a short
 * hash of it keeps names of different hosts apart.
 */
export function resourceName(runId: string, hostId: string): string {
  const prefix = `nb-${runId.toLowerCase()}-`;
  let slug = hostId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const room = MAX_NAME - prefix.length;
  if (slug !== hostId || slug.length > room) {
    const hash = createHash('sha256').update(hostId).digest('hex').slice(0, 6);
    slug = `${slug.slice(0, Math.max(0, room - 7)).replace(/-+$/, '')}-${hash}`.replace(/^-/, '');
  }
  return `${prefix}${slug}`;
}

/** The value of `netbench.io/host`: the resource name without the run prefix (a valid label value). */
export function hostLabelValue(runId: string, hostId: string): string {
  return resourceName(runId, hostId).slice(`nb-${runId.toLowerCase()}-`.length);
}

export function podLabels(runId: string, hostId: string): Record<string, string> {
  return { [RUN_LABEL]: runId, [HOST_LABEL]: hostLabelValue(runId, hostId), [MANAGED_BY_LABEL]: MANAGED_BY };
}

/** The label selector `cleanup --all` lists with: everything netbench made, of any run. */
export const ALL_RUNS_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY},${RUN_LABEL}`;
