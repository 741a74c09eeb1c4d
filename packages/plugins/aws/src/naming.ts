import { createHash } from 'node:crypto';
import type { Tag } from '@aws-sdk/client-ec2';

/** Tag every resource carries; `netbench cleanup` finds leftovers by it. */
export const RUN_TAG = 'netbench:run-id';
/** The fleet host an instance (or its volume) belongs to. */
export const HOST_TAG = 'netbench:host';

/** Run ids look like `20261122-110256-k3f9a2`: the time sorts, so leftovers can be aged. */
const RUN_ID_TIME_RE = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-/;

export function runIdTime(runId: string): Date | undefined {
  const m = RUN_ID_TIME_RE.exec(runId);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

/** Name (and ledger id) of a per-run resource: `nb-<runId>-<what>`, within EC2's 255-character limit. */
export function resourceName(runId: string, what: string): string {
  return `nb-${runId}-${what.replace(/[^A-Za-z0-9._=@+-]/g, '-')}`.slice(0, 255);
}

/** Short stable digest for names with length limits (client tokens, key pair names). */
export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}

export function tags(runId: string, name: string, extra: Readonly<Record<string, string>> = {}): Tag[] {
  return [{ Key: 'Name', Value: name }, { Key: RUN_TAG, Value: runId }, ...Object.entries(extra).map(([Key, Value]) => ({ Key, Value }))];
}

export function tagValue(list: readonly Tag[] | undefined, key: string): string | undefined {
  return list?.find((t) => t.Key === key)?.Value;
}
