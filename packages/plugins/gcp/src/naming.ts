import { createHash } from 'node:crypto';

/** GCE resource names: `[a-z]([-a-z0-9]{0,61}[a-z0-9])?`. */
export const GCE_NAME_RE = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** Names netbench gives its resources: `nb-<runId>` then an optional `-suffix`. */
export const RUN_NAME_RE = /^nb-(\d{8}-\d{6}-[0-9a-z]{6})(?:-|$)/;
const MAX = 63;

/** Lower-case, name-safe form of any id (`vm1@zone=us-east1-b` → `vm1-zone-us-east1-b`). */
export function slug(value: string): string {
  return (
    value
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'x'
  );
}

/** Prefix of every resource of a run; the run id is in every name so cleanup finds leaks. */
export function runPrefix(runId: string): string {
  return `nb-${slug(runId)}`;
}

/** `nb-<runId>-<suffix>`, shortened with a hash when longer than GCE allows. */
export function resourceName(runId: string, suffix: string): string {
  const full = `${runPrefix(runId)}-${slug(suffix)}`;
  if (full.length <= MAX) return full;
  const hash = createHash('sha256').update(suffix).digest('hex').slice(0, 6);
  return `${full.slice(0, MAX - 7).replace(/-+$/, '')}-${hash}`;
}

/** The network tag every host of the run carries; firewall rules target it. */
export const runTag = (runId: string) => runPrefix(runId);

/** Labels on instances (and their disks): values allow `[a-z0-9_-]`, 63 characters. */
export function runLabels(runId: string, hostId: string): Record<string, string> {
  return { 'netbench-run': slug(runId), 'netbench-host': slug(hostId).slice(0, 63), 'managed-by': 'netbench' };
}

export const regionOf = (zone: string) => zone.replace(/-[a-z]$/, '');

/** Last path segment of a self link or relative name. */
export const lastSegment = (link: string) => link.slice(link.lastIndexOf('/') + 1);

/** The run id a netbench resource name carries, if any. */
export function runIdOfName(name: string): string | undefined {
  return RUN_NAME_RE.exec(name)?.[1];
}
