import { availableParallelism } from 'node:os';
import type { ToolPlacement } from '@netbench/plugin-api';
import type { Plan } from './types.js';

/** Machines with at most this many CPUs get the warning: placement swings results there (4x for TCP_RR on 2 vCPUs). */
export const SMALL_MACHINE_CPUS = 4;

/** Tools with no server process (the kernel answers echo requests): pinned when their client is. */
const CLIENT_ONLY_TOOLS = new Set(['ping', 'fping']);

/**
 * Local-lab hosts are namespaces of this machine: both ends of a trial share
 * its CPUs. On a small machine where each end runs decides request/response
 * results (netperf TCP_RR on 2 vCPUs: ~67k tx/s on one vCPU, ~17k on two),
 * so unpinned trials there are warned about once, saying how to pin.
 */
export function placementWarnings(plan: Pick<Plan, 'fleet' | 'trials'>, cpus = availableParallelism(), placements: ReadonlyMap<string, ToolPlacement | undefined> = new Map()): string[] {
  if (cpus > SMALL_MACHINE_CPUS) return [];
  const local = new Set(plan.fleet.filter((h) => h.cloud === 'local').map((h) => h.id));
  type Leg = { readonly tool: string; readonly client: string; readonly server: string; readonly params: Readonly<Record<string, unknown>> };
  const legs: Leg[] = plan.trials.flatMap((t): Leg[] => (t.flows
    ? t.flows.map((f) => ({ tool: f.tool, client: f.client, server: f.server, params: { ...t.params, ...f.params } }))
    : [t]));
  // A tool's own declaration (ToolPlugin.placement) wins over the tool kit's cpu_client/cpu_server convention.
  const pinned = (leg: Leg): boolean => {
    const placement = placements.get(leg.tool);
    if (placement === 'insensitive') return true;
    if (placement) return placement.pinned(leg.params as Parameters<typeof placement.pinned>[0]);
    return leg.params['cpu_client'] !== undefined && (leg.params['cpu_server'] !== undefined || CLIENT_ONLY_TOOLS.has(leg.tool));
  };
  const unpinned = legs.filter((leg) => local.has(leg.client) && local.has(leg.server) && !pinned(leg));
  if (unpinned.length === 0) return [];
  const tools = [...new Set(unpinned.map((leg) => leg.tool))].join(', ');
  // A synchronized trial's flows each run a tool: counted as flows, not as trials of their own.
  const flows = plan.trials.some((t) => t.flows !== undefined);
  const noun = unpinned.length === 1 ? (flows ? 'trial or flow runs' : 'trial runs') : (flows ? 'trials and flows run' : 'trials run');
  return [
    `${unpinned.length} ${tools} ${noun} both ends on this machine's ${cpus} CPU${cpus === 1 ? '' : 's'} without pinning: ` +
      'where the scheduler puts them decides request/response results (same CPU or not: ~4x for netperf TCP_RR on 2 vCPUs). ' +
      'Pin them with `cpus: { client: 0, server: 1 }` in the benchmark block (netperf, iperf3, iperf, irtt, and load: every flow of the test; ping and fping: `cpus: { client: 0 }`; http: `clientCpus: \'0\'`, `serverCpus: \'1\'`); every sample records where each end ran (cpu_client_affinity, cpu_server_affinity).',
  ];
}
