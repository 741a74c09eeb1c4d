import { NetbenchError } from '@netbench/plugin-api';
import type { PlanCost } from './estimate-plan-cost.js';

/** Exit code of a run refused by `--max-cost` (nothing was created). */
export const COST_LIMIT_EXIT_CODE = 6;

/** The estimate is above what the user allowed (`--max-cost`). */
export class CostLimitError extends NetbenchError {
  override readonly name: string = 'CostLimitError';
  override readonly exitCode: number = COST_LIMIT_EXIT_CODE;
  constructor(
    readonly estimateUsd: number,
    readonly maxUsd: number,
  ) {
    super(`estimated cost $${estimateUsd.toFixed(2)} is above --max-cost $${maxUsd.toFixed(2)}: nothing was created (see \`netbench plan\` for the breakdown)`);
  }
}

/** Throw `CostLimitError` when the plan's estimate exceeds `maxUsd`. */
export function enforceMaxCost(cost: PlanCost, maxUsd: number | undefined): void {
  if (maxUsd !== undefined && cost.usd > maxUsd) throw new CostLimitError(cost.usd, maxUsd);
}
