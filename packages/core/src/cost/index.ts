export { planUsage, DEFAULT_FIXED_SECONDS, DEFAULT_PER_TRIAL_SECONDS } from './plan-usage.js';
export type { UsageAssumptions } from './plan-usage.js';
export { estimatePlanCost } from './estimate-plan-cost.js';
export type { CloudCost, HostGroup, PlanCost } from './estimate-plan-cost.js';
export { CostLimitError, COST_LIMIT_EXIT_CODE, enforceMaxCost } from './cost-limit.js';
