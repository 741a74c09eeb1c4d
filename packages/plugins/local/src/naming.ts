/**
 * Every resource of the lab carries its run id, so `cleanup` can find what a
 * crashed run left without a ledger. Interface names must fit IFNAMSIZ (15
 * bytes with the NUL), which is why links carry only a 6-character tag.
 */

/** Longest interface name the kernel accepts (IFNAMSIZ - 1). */
export const IFNAME_MAX = 15;

/** `20261122-110256-k3f9a2`: date, time, random suffix. */
export const RUN_ID_RE = /^(\d{8})-(\d{6})-([A-Za-z0-9]+)$/;
/** `nb-<runId>-<host>`; the run id's suffix has no dash, so the first match is exact. */
export const NETNS_RE = /^nb-(\d{8}-\d{6}-[A-Za-z0-9]+)-(.+)$/;
export const BRIDGE_RE = /^nb([a-z0-9]{6})br$/;
/** `nb-<runId>-@hub`: the namespace of a lab's bridge. */
export const HUB_RE = /^nb-(\d{8}-\d{6}-[A-Za-z0-9]+)-@hub$/;
export const VETH_RE = /^nb([a-z0-9]{6})h(\d+)$/;

/** The last 6 characters of the run id, lower-cased, padded so names keep their shape. */
export function runTag(runId: string): string {
  const clean = runId.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (clean.length === 0) throw new Error(`run id ${JSON.stringify(runId)} has no letters or digits`);
  return clean.slice(-6).padStart(6, '0');
}

/** Host ids may hold `@`, `=`, `/` (matrix values); namespace names are file names. */
export function sanitizeHostId(hostId: string): string {
  const clean = hostId.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[.]+/, '_');
  return clean.length > 0 ? clean.slice(0, 100) : 'host';
}

export function namespaceName(runId: string, hostId: string): string {
  return `nb-${runId}-${sanitizeHostId(hostId)}`;
}

/**
 * The namespace that holds the lab's bridge and the bridge's ends of the
 * veths: `nb-<runId>-@hub`. A host's namespace name never has `@` (host ids are
 * sanitized to letters, digits, `_`, `.`, `-`), so no host can take it, and it
 * still matches NETNS_RE, so `cleanup` finds it like any namespace of the run.
 */
export function hubName(runId: string): string {
  return `nb-${runId}-@hub`;
}

export function bridgeName(runId: string): string {
  return `nb${runTag(runId)}br`;
}

export function vethName(runId: string, index: number): string {
  const name = `nb${runTag(runId)}h${index}`;
  if (name.length > IFNAME_MAX) throw new Error(`too many local hosts: interface name ${name} is longer than ${IFNAME_MAX}`);
  return name;
}

/** Interface alias (`ip link ... alias`) that carries the full run id for `cleanup`. */
export function linkAlias(runId: string): string {
  return `netbench:${runId}`;
}

export function runIdFromAlias(alias: string | undefined): string | undefined {
  return alias?.startsWith('netbench:') ? alias.slice('netbench:'.length) : undefined;
}

/** Start time encoded in a run id (UTC), or undefined when the id has another shape. */
export function runIdTime(runId: string): Date | undefined {
  const match = RUN_ID_RE.exec(runId);
  if (!match) return undefined;
  const [, day = '', time = ''] = match;
  const iso = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}Z`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
