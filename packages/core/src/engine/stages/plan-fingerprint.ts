import { parse } from 'yaml';
import { canonicalJson } from '../../matrix/canonical-json.js';
import type { Plan } from '../../plan/types.js';
import { sha256Hex } from './sha256.js';

/**
 * What a run's first invocation planned, kept in `stages.json`: a short hash
 * of each trial (tool, test, parameters, hosts, flows) and the fleet's host
 * ids with their clouds. A later invocation plans the same spec text with the
 * same `--set`s, yet can still get another plan (a `${env:…}` or `${file:…}`
 * value, a plugin upgraded): finished trials and kept hosts belong to the
 * first plan, so a different one is refused. Host configs count as their
 * text in the spec (`hosts.NAME` as written, secrets as their `${env:…}`
 * reference or redacted): an edited link rate or zone is a different plan
 * (its samples would carry labels the earlier trials' did not), while a
 * secret's value may rightly change between invocations.
 */
export interface PlanFingerprint {
  readonly trials: Readonly<Record<string, string>>;
  readonly fleet: readonly string[];
  /** A short hash of each spec host's block as written (absent in runs of older versions). */
  readonly hosts?: Readonly<Record<string, string>>;
}

/** Each `hosts.NAME` block of the spec's text (as stored in the run folder), hashed. */
function hostHashes(plan: Plan): Record<string, string> | undefined {
  const text = plan.spec.source?.text;
  let doc: unknown;
  try {
    doc = text === undefined ? { hosts: plan.spec.hosts } : parse(text);
  } catch {
    return undefined;
  }
  const hosts = (doc as { hosts?: unknown } | null)?.hosts;
  if (typeof hosts !== 'object' || hosts === null) return undefined;
  return Object.fromEntries(Object.entries(hosts).map(([name, block]) => [name, sha256Hex(canonicalJson(block ?? null)).slice(0, 16)]));
}

export function planFingerprint(plan: Plan): PlanFingerprint {
  const trials: Record<string, string> = {};
  for (const t of plan.trials) {
    const flows = t.flows?.map((f) => ({
      label: f.label,
      tool: f.tool,
      test: f.test,
      params: f.params,
      client: f.client,
      server: f.server,
      ip: f.ip,
      startAfter: f.startAfter ?? 0,
    }));
    const key = canonicalJson({ tool: t.tool, test: t.test, params: t.params, client: t.client, server: t.server, ip: t.ip, flows: flows ?? null, search: t.search ?? null });
    trials[t.id] = sha256Hex(key).slice(0, 16);
  }
  const hosts = hostHashes(plan);
  return { trials, fleet: plan.fleet.map((h) => `${h.id}@${h.cloud}`).sort(), ...(hosts ? { hosts } : {}) };
}

/** How `now` differs from what was recorded, one phrase per kind of change; empty when the same. */
export function planChanges(recorded: PlanFingerprint, now: PlanFingerprint): string[] {
  const ids = (record: Readonly<Record<string, string>>) => Object.keys(record);
  const list = (items: string[]) => (items.length > 4 ? `${items.slice(0, 4).join(', ')} and ${items.length - 4} more` : items.join(', '));
  const changed = ids(now.trials).filter((id) => recorded.trials[id] !== undefined && recorded.trials[id] !== now.trials[id]);
  const added = ids(now.trials).filter((id) => recorded.trials[id] === undefined);
  const removed = ids(recorded.trials).filter((id) => now.trials[id] === undefined);
  const hostsAdded = now.fleet.filter((h) => !recorded.fleet.includes(h));
  const hostsRemoved = recorded.fleet.filter((h) => !now.fleet.includes(h));
  // Runs of older versions recorded no host hashes: nothing to compare.
  const configsChanged = recorded.hosts && now.hosts ? Object.keys(now.hosts).filter((h) => recorded.hosts![h] !== undefined && recorded.hosts![h] !== now.hosts![h]) : [];
  return [
    ...(changed.length > 0 ? [`trials changed: ${list(changed)}`] : []),
    ...(added.length > 0 ? [`trials added: ${list(added)}`] : []),
    ...(removed.length > 0 ? [`trials gone: ${list(removed)}`] : []),
    ...(hostsAdded.length > 0 ? [`hosts added: ${list(hostsAdded)}`] : []),
    ...(hostsRemoved.length > 0 ? [`hosts gone: ${list(hostsRemoved)}`] : []),
    ...(configsChanged.length > 0 ? [`host configs changed: ${list(configsChanged)}`] : []),
  ];
}
