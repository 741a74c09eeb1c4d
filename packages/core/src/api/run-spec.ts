import type { NetbenchEvent } from '@netbench/plugin-api';
import { runPlan, type RunOutcome } from '../engine/run-plan.js';
import type { RunStore } from '../engine/run-store.js';
import { planSpec, type PlanSpecOptions } from './plan-spec.js';
import { enforceMaxCost } from '../cost/cost-limit.js';
import { estimatePlanCost } from '../cost/estimate-plan-cost.js';

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
}

/** `netbench run`: validate and plan the spec, then run it (provision → … → publish). */
export async function runSpec(options: RunSpecOptions): Promise<RunOutcome> {
  const { plan, warnings } = await planSpec(options);
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
  });
}
