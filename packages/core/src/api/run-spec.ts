import type { NetbenchEvent } from '@netbench/plugin-api';
import { NetbenchError, REDACTED } from '@netbench/plugin-api';
import { enforceMaxCost } from '../cost/cost-limit.js';
import { estimatePlanCost } from '../cost/estimate-plan-cost.js';
import { type RunOutcome, runPlan } from '../engine/run-plan.js';
import type { RunStore } from '../engine/run-store.js';
import { ALL_STAGES, type StageRange } from '../engine/stages/stages.js';
import type { ShardRef } from '../plan/shard-plan.js';
import { type PlanSpecOptions, planSpec } from './plan-spec.js';

export interface RunSpecOptions extends PlanSpecOptions {
  readonly runsDir?: string;
  readonly runId?: string;
  /** Abort to interrupt: trials stop, teardown and publish still happen. */
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: NetbenchEvent) => void;
  /** Spec warnings, before the run starts. */
  readonly onWarning?: (message: string) => void;
  readonly netbenchVersion?: string;
  /** Where the finished run is kept (`runStore()` of `@netbench/results`); none: not stored. */
  readonly store?: RunStore;
  /** Refuse to start (`CostLimitError`, exit code 6, nothing created) when the plan's estimated cost is above this many USD. */
  readonly maxCostUsd?: number;
  /** Only these stages (`--stage`); a range that stops before teardown keeps the fleet for `resumeRun`. */
  readonly stages?: StageRange;
  /** Keep the hosts after execute (`--keep`): the run stops before teardown. */
  readonly keep?: boolean;
  /** Run only this shard of the plan (`--shard i/N`): `options.shard` of the spec. */
  readonly shard?: ShardRef;
  /** The study id shards share (`--study`): `options.study` of the spec. */
  readonly study?: string;
}

/** `--shard` and `--study` as spec overrides, so they are validated, recorded and kept for `--resume` like any `--set`. */
export function shardSets(options: Pick<RunSpecOptions, 'sets' | 'shard' | 'study'>): string[] {
  return [
    ...(options.sets ?? []),
    ...(options.shard ? [`options.shard={index: ${options.shard.index}, count: ${options.shard.count}}`] : []),
    ...(options.study !== undefined ? [`options.study=${JSON.stringify(options.study)}`] : []),
  ];
}

/** `--set`s on a secret field given literally, with the value replaced by the redaction mark. */
export function redactSets(sets: readonly string[], literals: readonly (readonly (string | number)[])[]): string[] {
  const secret = literals.map((path) => path.join('.'));
  return sets.map((set) => {
    const eq = set.indexOf('=');
    const key = set.slice(0, eq).trim();
    // A set on the field itself or on anything holding it (`publish=[{… url: …}]`).
    const holds = eq > 0 && secret.some((path) => path === key || path.startsWith(`${key}.`));
    return holds ? `${set.slice(0, eq)}=${REDACTED}` : set;
  });
}

/** `--keep` cuts a range at execute. */
export function keptRange(range: StageRange | undefined, keep: boolean | undefined): StageRange | undefined {
  if (!keep) return range;
  const { from, to } = range ?? ALL_STAGES;
  if (from === 'teardown') throw new NetbenchError('--keep keeps the hosts after execute, --stage teardown deletes them: give one or the other');
  return to === 'teardown' ? { from, to: 'execute' } : { from, to };
}

/** `netbench run`: validate and plan the spec, then run it (provision → … → publish). */
export async function runSpec(options: RunSpecOptions): Promise<RunOutcome> {
  const sets = shardSets(options);
  const { plan, warnings, secretLiterals } = await planSpec({ ...options, sets });
  for (const warning of warnings) options.onWarning?.(warning);
  if (options.maxCostUsd !== undefined) enforceMaxCost(await estimatePlanCost(plan, options.registry), options.maxCostUsd);
  return runPlan(plan, {
    registry: options.registry,
    runsDir: options.runsDir,
    runId: options.runId,
    signal: options.signal,
    onEvent: options.onEvent,
    netbenchVersion: options.netbenchVersion,
    ...(options.store ? { store: options.store } : {}),
    // Kept for `--resume`, but never a secret given literally (as the stored spec text redacts it).
    // A seed drawn for `order: random` is kept too: a later invocation must number the trials the same.
    sets: [...redactSets(sets, secretLiterals ?? []), ...(plan.spec.options.order === 'random' ? [`options.seed=${plan.spec.options.seed}`] : [])],
    ...(options.stages || options.keep ? { stages: keptRange(options.stages, options.keep) } : {}),
  });
}
