import { availableParallelism } from 'node:os';
import type { ToolPlacement } from '@netbench/plugin-api';
import { LOAD_TOOL } from '../spec/load-schema.js';
import type { Plan } from './types.js';

/** Machines with at most this many CPUs get the warning: placement swings results there (4x for TCP_RR on 2 vCPUs). */
export const SMALL_MACHINE_CPUS = 4;

/** The tool kit's convention, for a tool that declares no `howToPin`. */
const DEFAULT_HOW_TO_PIN = '`cpus: { client: 0, server: 1 }`';

/** What the plugins declare about placement (`ToolPlugin.placement`, `CloudPlugin.sharesMachineCpus`), by name. */
export interface PlacementFacts {
  readonly tools: ReadonlyMap<string, ToolPlacement | undefined>;
  /** Clouds whose hosts share this machine's CPUs. */
  readonly sharedClouds: ReadonlySet<string>;
}

/**
 * Hosts of a cloud with `sharesMachineCpus` (the local lab's namespaces) are
 * parts of this machine: both ends of a trial share its CPUs. On a small
 * machine where each end runs decides request/response results (netperf
 * TCP_RR on 2 vCPUs: ~67k tx/s on one vCPU, ~17k on two), so unpinned trials
 * there are warned about once, saying how each tool's block pins.
 */
export function placementWarnings(
  plan: Pick<Plan, 'fleet' | 'trials'>,
  cpus = availableParallelism(),
  facts: PlacementFacts = { tools: new Map(), sharedClouds: new Set() },
): string[] {
  if (cpus > SMALL_MACHINE_CPUS) return [];
  const shared = new Set(plan.fleet.filter((h) => facts.sharedClouds.has(h.cloud)).map((h) => h.id));
  // `block`: the benchmark block's tool, whose syntax pins the leg (a load test pins all its flows at once).
  type Leg = { readonly tool: string; readonly block: string; readonly client: string; readonly server: string; readonly params: Readonly<Record<string, unknown>> };
  const legs: Leg[] = plan.trials.flatMap((t): Leg[] =>
    t.flows ? t.flows.map((f) => ({ tool: f.tool, block: t.tool, client: f.client, server: f.server, params: { ...t.params, ...f.params } })) : [{ ...t, block: t.tool }],
  );
  const pinned = (leg: Leg): boolean => {
    const placement = facts.tools.get(leg.tool);
    if (placement === 'insensitive') return true;
    if (placement?.pinned) return placement.pinned(leg.params as Parameters<typeof placement.pinned>[0]);
    return leg.params['cpu_client'] !== undefined && leg.params['cpu_server'] !== undefined;
  };
  const unpinned = legs.filter((leg) => shared.has(leg.client) && shared.has(leg.server) && !pinned(leg));
  if (unpinned.length === 0) return [];
  const tools = [...new Set(unpinned.map((leg) => leg.tool))].join(', ');
  // A synchronized trial's flows each run a tool: counted as flows, not as trials of their own.
  const flows = plan.trials.some((t) => t.flows !== undefined);
  const noun = unpinned.length === 1 ? (flows ? 'trial or flow runs' : 'trial runs') : flows ? 'trials and flows run' : 'trials run';
  return [
    `${unpinned.length} ${tools} ${noun} both ends on this machine's ${cpus} CPU${cpus === 1 ? '' : 's'} without pinning: ` +
      'where the scheduler puts them decides request/response results (same CPU or not: ~4x for netperf TCP_RR on 2 vCPUs). ' +
      `Pin them in the benchmark block (${howToPin(
        unpinned.map((leg) => leg.block),
        facts,
      )}); every sample records where each end ran (cpu_client_affinity, cpu_server_affinity).`,
  ];
}

/** `netperf, load: `cpus: …`; ping: `cpus: { client: 0 }``: each block's pinning as its tool declares it, blocks of the same pinning together. */
function howToPin(blocks: readonly string[], facts: PlacementFacts): string {
  const byHint = new Map<string, string[]>();
  for (const block of new Set(blocks)) {
    const placement = facts.tools.get(block);
    const hint = (placement !== 'insensitive' ? placement?.howToPin : undefined) ?? DEFAULT_HOW_TO_PIN;
    byHint.set(hint, [...(byHint.get(hint) ?? []), block === LOAD_TOOL ? `${block} (every flow of the test)` : block]);
  }
  return [...byHint].map(([hint, names]) => `${names.join(', ')}: ${hint}`).join('; ');
}
