import { createHash } from 'node:crypto';

/** Names netbench gives its resources: `nb-<runId>` then an optional `-suffix`. */
export const RUN_NAME_RE = /^nb-(\d{8}-\d{6}-[0-9a-z]{6})(?:-|$)/;
const MAX = 64;

export function slug(value: string): string {
  return (
    value
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'x'
  );
}

/** The run's resource group (and prefix of every name). */
export const runGroup = (runId: string) => `nb-${slug(runId)}`;

/** `nb-<runId>-<suffix>`, shortened with a hash past Azure's 64 characters (VM names). */
export function resourceName(runId: string, suffix: string): string {
  const full = `${runGroup(runId)}-${slug(suffix)}`;
  if (full.length <= MAX) return full;
  const hash = createHash('sha256').update(suffix).digest('hex').slice(0, 6);
  return `${full.slice(0, MAX - 7).replace(/-+$/, '')}-${hash}`;
}

/** Tags on every resource: the run id so `netbench cleanup` finds leaks, and when. */
export function runTags(runId: string, created: string, hostId?: string): Record<string, string> {
  return { 'netbench-run': runId, 'netbench-created': created, 'managed-by': 'netbench', ...(hostId ? { 'netbench-host': hostId } : {}) };
}

/** `eastus-2` → location `eastus`, availability zone `2`; `eastus` → no zone. */
export function splitZone(zone: string): { location: string; az?: string } {
  const m = /^([a-z0-9]+)-([1-3])$/.exec(zone);
  return m ? { location: m[1]!, az: m[2]! } : { location: zone };
}

export function runIdOfName(name: string): string | undefined {
  return RUN_NAME_RE.exec(name)?.[1];
}
