// node:crypto is loaded on first use: importing it cost every run ~9 ms of start-up, and a local run needs none of it.
const crypto = () => process.getBuiltinModule('node:crypto');

import { NetbenchError } from '@netbench/plugin-api';
import { trialInvocations } from './plan-flows.js';
import type { FleetHost, Plan, PlannedTrial } from './types.js';

/** Which shard of how many (`--shard i/N`, `i` from 0, as a Kubernetes completion index). */
export interface ShardRef {
  readonly index: number;
  readonly count: number;
}

const SHARD_RE = /^(\d+)\/(\d+)$/;
const STUDY_UNSAFE_RE = /[^A-Za-z0-9._-]+/g;

/** The labels every sample and the record of a shard's run carry: `study` and `shard` (`i/N`). */
export function studyLabels(options: Plan['spec']['options']): Record<string, string> {
  if (!options.study && !options.shard) return {};
  return { ...(options.study ? { study: options.study } : {}), ...(options.shard ? { shard: `${options.shard.index}/${options.shard.count}` } : {}) };
}

export function parseShard(text: string): ShardRef {
  const match = SHARD_RE.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index >= count) throw new NetbenchError(`--shard ${text}: expected i/N with 0 <= i < N (e.g. 0/4; i is a Kubernetes Job's completion index)`);
  return { index, count };
}

/**
 * The study id shards of one plan share when the spec gives none: the spec
 * name and a hash of its text and the shard count, the same in every shard
 * process. Running the same spec again gives the same id: give `--study`
 * (e.g. the CI run number) to keep repeated studies apart.
 */
export function defaultStudyId(plan: Plan, count: number): string {
  const hash = crypto()
    .createHash('sha256')
    .update(plan.spec.source?.text ?? JSON.stringify(plan.spec.benchmarks))
    .update(`\n${count}`)
    .digest('hex');
  return `${plan.spec.name.replace(STUDY_UNSAFE_RE, '-')}-${hash.slice(0, 10)}`;
}

/** What decides a split. */
export interface SplitOptions {
  /**
   * Hosts that exist outside any run (static machines): two shards running
   * at once would share them, so trials on one stay in one shard unless it
   * is named in `sharedHosts`. Every other host is made per run, so each
   * shard gets its own.
   */
  readonly isFixed: (host: FleetHost) => boolean;
  /** Spec host names declared safe to share between shards (`options.sharedHosts`). */
  readonly sharedHosts?: readonly string[];
}

/** One shard's part of a plan: original trial ids, its own fleet. */
export interface ShardPart {
  readonly index: number;
  readonly trials: readonly string[];
  readonly fleet: readonly string[];
  readonly estimatedSeconds: number;
}

/**
 * Split a plan into `count` parts that never need the same fixed host at the
 * same time. Units are matrix cells (a search stays whole; with fewer cells
 * than shards, single trials); units sharing a fixed, unshared host are
 * joined; the joined groups go, longest first, to the least loaded shard.
 * Deterministic: every shard process computes the same split.
 */
export function splitPlan(plan: Plan, count: number, options: SplitOptions): ShardPart[] {
  if (!Number.isInteger(count) || count < 1) throw new NetbenchError(`shards: expected a positive whole number, got ${count}`);
  const byCell = plan.cells >= count;
  const unitOf = (t: PlannedTrial) => (t.search ? `search:${t.search.group}` : byCell ? `cell:${JSON.stringify(t.cell)}` : `trial:${t.id}`);
  const fleet = new Map(plan.fleet.map((h) => [h.id, h]));
  const shared = new Set(options.sharedHosts ?? []);
  const exclusive = (id: string) => {
    const host = fleet.get(id);
    return host !== undefined && options.isFixed(host) && !shared.has(host.name);
  };

  // Union-find over units: a fixed host used by two units joins them.
  const parent = new Map<string, string>();
  const find = (u: string): string => {
    let root = u;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(u, root);
    return root;
  };
  const owner = new Map<string, string>();
  for (const trial of plan.trials) {
    const unit = unitOf(trial);
    if (!parent.has(unit)) parent.set(unit, unit);
    for (const host of hostsOf(trial).filter(exclusive)) {
      const other = owner.get(host);
      if (other === undefined) owner.set(host, unit);
      else parent.set(find(unit), find(other));
    }
  }
  const groups = new Map<string, PlannedTrial[]>();
  for (const trial of plan.trials) {
    const root = find(unitOf(trial));
    groups.set(root, [...(groups.get(root) ?? []), trial]);
  }

  const seconds = (trials: readonly PlannedTrial[]) => trials.reduce((sum, t) => sum + t.estimatedSeconds, 0);
  const ordered = [...groups.values()].sort((a, b) => seconds(b) - seconds(a) || a[0]!.index - b[0]!.index);
  const loads = Array.from({ length: count }, () => ({ seconds: 0, trials: new Set<string>() }));
  for (const group of ordered) {
    let best = 0;
    for (let i = 1; i < count; i += 1) if (loads[i]!.seconds < loads[best]!.seconds) best = i;
    loads[best]!.seconds += seconds(group);
    for (const t of group) loads[best]!.trials.add(t.id);
  }
  const concurrency = Math.max(1, plan.spec.options.concurrency);
  return loads.map((load, index) => {
    const trials = plan.trials.filter((t) => load.trials.has(t.id));
    const used = new Set(trials.flatMap(hostsOf));
    return { index, trials: trials.map((t) => t.id), fleet: plan.fleet.filter((h) => used.has(h.id)).map((h) => h.id), estimatedSeconds: load.seconds / concurrency };
  });
}

/** The plan of one shard: its trials (ids kept, so shards merge to the unsharded trial set) and only the hosts they use. */
export function shardPlan(plan: Plan, part: ShardPart): Plan {
  const trials = new Set(part.trials);
  const fleet = new Set(part.fleet);
  return {
    ...plan,
    trials: plan.trials.filter((t) => trials.has(t.id)).map((t, index) => ({ ...t, index })),
    fleet: plan.fleet.filter((h) => fleet.has(h.id)),
    cells: new Set(plan.trials.filter((t) => trials.has(t.id)).map((t) => JSON.stringify(t.cell))).size,
    estimatedSeconds: part.estimatedSeconds,
  };
}

/**
 * Fixed hosts two parts would use at once: empty for a split made by
 * `splitPlan`. Shared hosts (`sharedHosts`) are allowed.
 */
export function shardConflicts(plan: Plan, parts: readonly ShardPart[], options: SplitOptions): string[] {
  const fleet = new Map(plan.fleet.map((h) => [h.id, h]));
  const shared = new Set(options.sharedHosts ?? []);
  const seen = new Map<string, number>();
  const conflicts: string[] = [];
  for (const part of parts) {
    for (const id of part.fleet) {
      const host = fleet.get(id)!;
      if (!options.isFixed(host) || shared.has(host.name)) continue;
      const other = seen.get(id);
      if (other !== undefined && other !== part.index) conflicts.push(`host ${id} is in shards ${other} and ${part.index}`);
      seen.set(id, part.index);
    }
  }
  return conflicts;
}

function hostsOf(trial: PlannedTrial): string[] {
  return [...new Set(trialInvocations(trial).flatMap((i) => [i.client, i.server]))];
}
