import { NetbenchError } from '@netbench/plugin-api';
import { parseDocument } from 'yaml';
import { isPkbConfig } from '../pkb/detect.js';
import { createPlan } from '../plan/create-plan.js';
import { defaultStudyId, type ShardPart, type SplitOptions, shardConflicts, shardPlan, splitPlan } from '../plan/shard-plan.js';
import type { Plan } from '../plan/types.js';
import type { PluginResolver } from '../registry/types.js';
import { applySets } from '../spec/apply-sets.js';
import { loadSpec } from '../spec/load-spec.js';

/** How a plan is split: which hosts are machines outside the run (from each cloud's `fixedHosts`), which the spec shares. */
export async function splitOptions(plan: Plan, registry: PluginResolver): Promise<SplitOptions> {
  const fixed = new Set<string>();
  for (const cloud of new Set(plan.fleet.map((h) => h.cloud))) {
    if ((await registry.get('cloud', cloud))?.fixedHosts) fixed.add(cloud);
  }
  return { isFixed: (host) => fixed.has(host.cloud), sharedHosts: plan.spec.options.sharedHosts ?? [] };
}

/** With `options.shard` set, the plan of that shard only, with its study id set; otherwise the plan as is. */
export async function applyShard(plan: Plan, registry: PluginResolver, seedGiven: boolean): Promise<Plan> {
  const shard = plan.spec.options.shard;
  if (!shard) return plan;
  // Each shard process plans on its own: a seed drawn per process would order (and number) trials differently.
  if (plan.spec.options.order === 'random' && !seedGiven) throw new NetbenchError('options.order random with shards needs options.seed, so every shard plans the same trials');
  const parts = splitPlan(plan, shard.count, await splitOptions(plan, registry));
  const study = plan.spec.options.study ?? defaultStudyId(plan, shard.count);
  const part = shardPlan(plan, parts[shard.index]!);
  return { ...part, spec: { ...part.spec, options: { ...part.spec.options, study } } };
}

export interface SplitSpecOptions {
  readonly file: string;
  readonly registry: PluginResolver;
  /** `key=value` overrides (`--set`), written into every shard spec. */
  readonly sets?: readonly string[];
  readonly count: number;
  /** Study id written into every shard spec; default from the spec's name and text. */
  readonly study?: string;
}

export interface ShardSpec {
  readonly index: number;
  readonly trials: readonly string[];
  readonly fleet: readonly string[];
  readonly estimatedSeconds: number;
  /** A spec file that runs this shard alone: the original text, the `--set`s applied, `options.shard` and `options.study` set. */
  readonly text: string;
}

export interface SplitSpec {
  readonly plan: Plan;
  readonly study: string;
  readonly shards: readonly ShardSpec[];
  /** The spec every shard shares (`--set`s, a drawn seed and the study applied, no `options.shard`): what an Indexed Job runs with `--shard`. */
  readonly text: string;
  readonly warnings: readonly string[];
}

/** `netbench plan SPEC --shards N`: split the plan and write one self-contained spec per shard. */
export async function splitSpec(options: SplitSpecOptions): Promise<SplitSpec> {
  const { spec, warnings, blocks } = await loadSpec({ file: options.file }, options.registry, { sets: options.sets });
  if (spec.options.shard) throw new NetbenchError(`${options.file} is already shard ${spec.options.shard.index}/${spec.options.shard.count}; split the original spec`);
  const text = spec.source?.text;
  if (text === undefined || isPkbConfig(parseDocument(text).toJS()))
    throw new NetbenchError(`${options.file}: shard specs are written from a native spec; convert a PKB config first (netbench convert)`);
  const plan = await createPlan(spec, options.registry, blocks);
  const split = await splitOptions(plan, options.registry);
  const parts: ShardPart[] = splitPlan(plan, options.count, split);
  const conflicts = shardConflicts(plan, parts, split);
  if (conflicts.length > 0) throw new NetbenchError(`shards would share hosts: ${conflicts.join('; ')}`);
  const study = options.study ?? spec.options.study ?? defaultStudyId(plan, options.count);
  const empty = parts.filter((p) => p.trials.length === 0).map((p) => p.index);
  const notes = empty.length > 0 ? [`shards ${empty.join(', ')} have no trials (the plan has fewer independent parts than ${options.count} shards)`] : [];
  // A drawn seed is written into every shard, so they all plan the same order.
  const fixedSeed = plan.spec.options.order === 'random' && spec.options.seed === undefined ? [`options.seed=${plan.spec.options.seed}`] : [];
  const write = (extra: readonly string[]) => {
    const doc = parseDocument(text);
    const { issues } = applySets(doc, [...(options.sets ?? []), ...fixedSeed, `options.study=${study}`, ...extra]);
    if (issues.length > 0) throw new NetbenchError(`cannot write the shard specs: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
    return String(doc);
  };
  const shards = parts.map((part) => ({
    ...part,
    text: `# Shard ${part.index} of ${options.count} of ${spec.name} (study ${study}), written by netbench plan --shards.\n${write([`options.shard={index: ${part.index}, count: ${options.count}}`])}`,
  }));
  return { plan, study, shards, text: write([]), warnings: [...warnings, ...notes] };
}
