export { COST_LIMIT_EXIT_CODE, CostLimitError, enforceMaxCost } from './cost-limit.js';
export type { CloudCost, HostGroup, PlanCost } from './estimate-plan-cost.js';
export { estimatePlanCost } from './estimate-plan-cost.js';
export type { UsageAssumptions } from './plan-usage.js';
export { DEFAULT_FIXED_SECONDS, DEFAULT_PER_TRIAL_SECONDS, planUsage } from './plan-usage.js';
