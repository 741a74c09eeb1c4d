import type { CostUsage } from '@netbench/plugin-api';
import { trialInvocations } from '../plan/plan-flows.js';
import type { Plan } from '../plan/types.js';

/** What the estimate assumes beyond the tools' own measuring time. */
export interface UsageAssumptions {
  /** Seconds every host exists besides trials: provisioning, installing tools, teardown (default 300). */
  readonly fixedSeconds?: number;
  /** Orchestration per trial: starting servers, parsing, retries (default 2). */
  readonly perTrialSeconds?: number;
}

export const DEFAULT_FIXED_SECONDS = 300;
export const DEFAULT_PER_TRIAL_SECONDS = 2;

/**
 * How long each host lives and what traffic the trials send, from the plan
 * alone. Every host exists for the whole run (hosts are provisioned together
 * and torn down together); flows with the same ends and rate are merged.
 */
export function planUsage(plan: Plan, assumptions: UsageAssumptions = {}): CostUsage {
  const fixed = assumptions.fixedSeconds ?? DEFAULT_FIXED_SECONDS;
  const perTrial = assumptions.perTrialSeconds ?? DEFAULT_PER_TRIAL_SECONDS;
  const concurrency = Math.max(1, plan.spec.options.concurrency);
  const runSeconds = fixed + plan.estimatedSeconds + (plan.trials.length * perTrial) / concurrency;
  const hostSeconds: Record<string, number> = {};
  for (const host of plan.fleet) hostSeconds[host.id] = runSeconds;

  const flows = new Map<string, { from: string; to: string; seconds: number; bitsPerSecond?: number }>();
  const add = (from: string, to: string, seconds: number, bitsPerSecond: number | undefined) => {
    const key = `${from}\u0000${to}\u0000${bitsPerSecond ?? ''}`;
    const flow = flows.get(key) ?? { from, to, seconds: 0, ...(bitsPerSecond !== undefined ? { bitsPerSecond } : {}) };
    flow.seconds += seconds;
    flows.set(key, flow);
  };
  // A synchronized trial's traffic is its flows' (each on its own host pair).
  for (const trial of plan.trials.flatMap(trialInvocations)) {
    const traffic = trial.traffic;
    if (!traffic) continue;
    if (traffic.direction !== 'reverse') add(trial.client, trial.server, trial.estimatedSeconds, traffic.bitsPerSecond);
    if (traffic.direction !== 'forward') add(trial.server, trial.client, trial.estimatedSeconds, traffic.bitsPerSecond);
  }
  return { hostSeconds, flows: [...flows.values()] };
}
