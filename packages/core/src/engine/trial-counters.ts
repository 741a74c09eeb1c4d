import type { Host } from '@netbench/plugin-api';
import { isHostAddress } from '@netbench/plugin-api/tool-kit';
import type { PlannedTrial } from '../plan/types.js';
import { cpuList, startTrialCounters, type CountedHost } from '../explain/trial-counters.js';
import type { RunState } from './run-state.js';

/** Counters are on unless the spec (`options.counters: false`) or `NETBENCH_COUNTERS=off` says otherwise. */
export function countersOn(state: RunState): boolean {
  return state.plan.spec.options.counters !== false && process.env['NETBENCH_COUNTERS'] !== 'off';
}

/**
 * The one hook a trial lifecycle calls around its tool's run: reads the ends'
 * counters (docs/explain.md) and, at `finish`, says what limited the result.
 * Undefined when counters are off. `peers`: the address each role's sockets
 * go to (only addresses are used, anything else is left out).
 */
export function trialCounters(state: RunState, trial: PlannedTrial, ends: readonly { role: 'client' | 'server'; host: Host }[], peers: Readonly<Record<string, string>>) {
  if (!countersOn(state)) return undefined;
  const reverse = trial.params['direction'] === 'reverse' || trial.params['reverse'] === true;
  const counted: CountedHost[] = ends.map(({ role, host }) => {
    const pinned = cpuList(trial.params[role === 'client' ? 'cpu_client' : 'cpu_server']);
    return { role, host, receives: (role === 'server') !== reverse, ...(pinned ? { pinnedCpus: pinned } : {}) };
  });
  const addresses = Object.fromEntries(Object.entries(peers).filter(([, address]) => isHostAddress(address)));
  return startTrialCounters(counted, addresses, trial.estimatedSeconds, state.signal);
}
