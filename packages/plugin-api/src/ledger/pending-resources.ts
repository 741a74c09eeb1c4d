import type { LedgerEntry } from './types.js';

const keyOf = (entry: LedgerEntry) => JSON.stringify([entry.plugin, entry.resource.type, entry.resource.id]);

/**
 * Resources a ledger says may still exist, newest first (the order teardown
 * deletes them in). A resource counts from its first line (an intent, or a
 * `created` for one recorded after the fact) until a `deleted` line; a failed
 * creation or a failed delete keeps it pending, since deletes are idempotent.
 * Each is returned as its latest line, which carries the fullest `data`.
 */
export function pendingResources(entries: readonly LedgerEntry[]): LedgerEntry[] {
  const order: string[] = [];
  const latest = new Map<string, LedgerEntry>();
  const deleted = new Set<string>();
  for (const entry of entries) {
    const key = keyOf(entry);
    if (entry.phase === 'deleted') {
      deleted.add(key);
      continue;
    }
    if (!latest.has(key)) order.push(key);
    // A resource deleted and then made again (same id) is pending again.
    if (entry.phase === 'intent' || entry.phase === 'created') deleted.delete(key);
    // Keep the line with the most to say: a later intent/created over a delete-failed.
    if (entry.phase !== 'delete-failed' || !latest.has(key)) latest.set(key, entry);
  }
  return order
    .filter((key) => !deleted.has(key))
    .reverse()
    .map((key) => latest.get(key)!);
}
