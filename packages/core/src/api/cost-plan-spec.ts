import { estimatePlanCost, type PlanCost } from '../cost/estimate-plan-cost.js';
import { type PlannedSpec, type PlanSpecOptions, planSpec } from './plan-spec.js';

export interface CostPlanSpecOptions extends PlanSpecOptions {
  /** Throw `CostLimitError` (after planning) when the estimate is above this many USD. */
  readonly maxCostUsd?: number;
}

export interface CostedPlan extends PlannedSpec {
  readonly cost: PlanCost;
  /** Set when the estimate is above `maxCostUsd` (the plan is still returned, to show why). */
  readonly overBudget?: boolean;
}

/** `netbench plan`: plan the spec and estimate what it would cost; creates nothing. */
export async function costPlanSpec(options: CostPlanSpecOptions): Promise<CostedPlan> {
  const planned = await planSpec(options);
  const cost = await estimatePlanCost(planned.plan, options.registry);
  const overBudget = options.maxCostUsd !== undefined && cost.usd > options.maxCostUsd;
  return { ...planned, cost, ...(overBudget ? { overBudget } : {}) };
}
