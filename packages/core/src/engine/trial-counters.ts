import type { Host, NetworkLimit } from '@netbench/plugin-api';
import { isHostAddress } from '@netbench/plugin-api/tool-kit';
import { seriesInterval } from '../explain/cpu-series.js';
import { type CountedHost, cpuList, startTrialCounters } from '../explain/trial-counters.js';
import type { PlannedTrial } from '../plan/types.js';
import type { RunState } from './run-state.js';

/** Counters are on unless the spec (`options.counters: false`) or `NETBENCH_COUNTERS=off` says otherwise. */
export function countersOn(state: RunState): boolean {
  return state.plan.spec.options.counters !== false && process.env['NETBENCH_COUNTERS'] !== 'off';
}

/**
 * The one hook a trial lifecycle calls around its tool's run: reads the ends'
 * counters (docs/explain.md) and, at `finish`, says what limited the result.
 * Undefined when counters are off. `peers`: the address each role's sockets
 * go to (only addresses are used, anything else is left out);
 * `routePeers`: a synchronized-flows trial's peers of each host (by host id),
 * whose interface and MTU its start read takes.
 */
export function trialCounters(
  state: RunState,
  trial: PlannedTrial,
  ends: readonly { role: 'client' | 'server'; host: Host }[],
  peers: Readonly<Record<string, string>>,
  routePeers?: ReadonlyMap<string, readonly string[]>,
) {
  if (!countersOn(state)) return undefined;
  const reverse = trial.params['direction'] === 'reverse' || trial.params['reverse'] === true;
  const counted: CountedHost[] = ends.map(({ role, host }) => {
    const pinned = cpuList(trial.params[role === 'client' ? 'cpu_client' : 'cpu_server']);
    const toward = routePeers?.get(host.id)?.filter(isHostAddress);
    return { role, host, receives: (role === 'server') !== reverse, ...(pinned ? { pinnedCpus: pinned } : {}), ...(toward?.length ? { routePeers: toward } : {}) };
  });
  const addresses = Object.fromEntries(Object.entries(peers).filter(([, address]) => isHostAddress(address)));
  return startTrialCounters(counted, addresses, trial.estimatedSeconds, state.signal, flowCapOf(state, trial, ends), seriesInterval(trial.params));
}

/**
 * The single-flow cap of the cloud both ends are on (its catalogue's first
 * `single-flow` limit: the general case, e.g. AWS outside a cluster placement
 * group), for a trial of one stream between two hosts; undefined otherwise.
 */
function flowCapOf(state: RunState, trial: PlannedTrial, ends: readonly { host: Host }[]) {
  if (trial.flows || ends.length !== 2) return undefined;
  const streams = trial.params['streams'];
  if (streams !== undefined && streams !== 1) return undefined;
  const cloud = ends[0]!.host.cloud;
  if (ends[1]!.host.cloud !== cloud) return undefined;
  let limits: readonly NetworkLimit[] | undefined;
  try {
    limits = state.clouds.get(cloud)?.catalog?.().networkLimits;
  } catch {
    return undefined;
  }
  const cap = limits?.find((l) => l.kind === 'single-flow' && l.unit === 'Gbit/s');
  return cap ? { cloud, bps: cap.value * 1e9, applies: cap.applies, source: cap.source } : undefined;
}
