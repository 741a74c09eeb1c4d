import { createPlan } from '../plan/create-plan.js';
import { type PlacementFacts, placementWarnings } from '../plan/placement.js';
import { shapingWarnings } from '../plan/shaping.js';
import type { Plan } from '../plan/types.js';
import type { PluginResolver } from '../registry/types.js';
import { loadSpec } from '../spec/load-spec.js';
import { applyShard } from './shard-spec.js';

export interface PlanSpecOptions {
  readonly file: string;
  readonly registry: PluginResolver;
  /** `key=value` overrides (`--set`). */
  readonly sets?: readonly string[];
}

export interface PlannedSpec {
  readonly plan: Plan;
  readonly warnings: readonly string[];
  /** Paths of secret fields given literally, as `loadSpec` found them. */
  readonly secretLiterals?: readonly (readonly (string | number)[])[];
}

/** Load, validate and plan a spec file without touching anything (`netbench plan`, `validate`). */
export async function planSpec(options: PlanSpecOptions): Promise<PlannedSpec> {
  const { spec, warnings, blocks, secretLiterals } = await loadSpec({ file: options.file }, options.registry, { sets: options.sets });
  const plan = await applyShard(await createPlan(spec, options.registry, blocks), options.registry, spec.options.seed !== undefined);
  return { plan, warnings: [...warnings, ...planWarnings(plan, await placementFacts(plan, options.registry))], ...(secretLiterals ? { secretLiterals } : {}) };
}

/**
 * What `plan` warns about a planned spec beyond the spec's own warnings: no
 * trial measures a shaped direction, unpinned ends sharing a small machine
 * (`facts`: what the plan's plugins declare, `placementFacts`). The desktop
 * wizard shows the same.
 */
export function planWarnings(plan: Plan, facts?: PlacementFacts): string[] {
  return [...shapingWarnings(plan), ...placementWarnings(plan, undefined, facts)];
}

/** What the planned tools (`placement`) and the fleet's clouds (`sharesMachineCpus`) declare, for `planWarnings`. */
export async function placementFacts(plan: Pick<Plan, 'fleet' | 'trials'>, registry: PluginResolver): Promise<PlacementFacts> {
  const names = [...new Set(plan.trials.flatMap((t) => [t.tool, ...(t.flows ?? []).map((f) => f.tool)]))];
  const tools = new Map(await Promise.all(names.map(async (name) => [name, (await registry.get('tool', name))?.placement] as const)));
  const clouds = await Promise.all([...new Set(plan.fleet.map((h) => h.cloud))].map(async (name) => ((await registry.get('cloud', name))?.sharesMachineCpus ? [name] : [])));
  return { tools, sharedClouds: new Set(clouds.flat()) };
}
