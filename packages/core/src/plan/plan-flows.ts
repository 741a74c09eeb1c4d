import { NetbenchError, type Scalar, type TrialSpec } from '@netbench/plugin-api';
import { type FlowsSpec, flowPairs } from '../spec/flows-schema.js';
import type { FleetSlot } from './fleet-builder.js';
import type { PlannedFlow, PlannedTrial } from './types.js';

/** A tool's trial as the plan keeps it: every parameter defined. */
type PlannedSpec = TrialSpec<Readonly<Record<string, Scalar>>>;

/** A flow while the plan is built: host slots get their ids only when the fleet is finished. */
export interface DraftFlow {
  readonly label: string;
  readonly trial: PlannedSpec;
  readonly client: FleetSlot;
  readonly server: FleetSlot;
  /** The flow's own tool when it differs from the benchmark's (a latency-under-load test mixes netperf and ping). */
  readonly tool?: string;
  /** Seconds after the barrier the flow starts (bulk flows after a load test's idle phase). */
  readonly startAfter?: number;
}

/** One synchronized trial of a `flows` benchmark, before ids are known. */
export interface DraftFlowTrial {
  /** The trial as a whole: test (`A+B` for a mix), params, longest flow's seconds, traffic of all flows. */
  readonly trial: PlannedSpec;
  readonly flows: readonly DraftFlow[];
}

/**
 * The synchronized trials of a `flows` benchmark in one matrix cell. Every
 * trial the tool derives becomes one synchronized trial running it on every
 * pair, except for `bidirectional`: there the tool's trials that differ only
 * in their test form one mix, dealt to the peers in turn (TCP_STREAM to peer
 * 1, TCP_MAERTS to peer 2, ...), as PKB bidirectional_network does.
 */
export function flowTrials(flows: FlowsSpec, trials: readonly PlannedSpec[], use: (host: string) => FleetSlot, tool: string): DraftFlowTrial[] {
  const pairs = flowPairs(flows).map((pair) => ({ label: pair.label, client: use(pair.client), server: use(pair.server) }));
  if (flows.topology !== 'bidirectional') {
    return trials.map((trial) => ({ trial, flows: pairs.map((pair) => ({ ...pair, trial })) }));
  }
  const mixes = new Map<string, PlannedSpec[]>();
  for (const trial of trials) {
    const key = JSON.stringify(Object.entries(trial.params).sort(([a], [b]) => a.localeCompare(b)));
    mixes.set(key, [...(mixes.get(key) ?? []), trial]);
  }
  return [...mixes.values()].map((mix) => {
    const dealt = pairs.map((pair, i) => ({ ...pair, trial: mix[i % mix.length]! }));
    const tests = [...new Set(dealt.map((flow) => flow.trial.test))];
    return {
      trial: wholeTrial(
        dealt.map((flow) => flow.trial),
        tests.join('+'),
        tool,
      ),
      flows: dealt,
    };
  });
}

/** The trial that stands for all its flows: the longest flow decides its time. */
function wholeTrial(trials: readonly PlannedSpec[], test: string, tool: string): PlannedSpec {
  const [first] = trials;
  if (!first) throw new NetbenchError(`[plugin ${tool}] trials() returned no trial for a flows benchmark`);
  const directions = new Set(trials.flatMap((t) => (t.traffic ? [t.traffic.direction] : [])));
  const direction = directions.size > 1 || directions.has('both') ? 'both' : [...directions][0];
  return {
    test,
    params: first.params,
    estimatedSeconds: Math.max(...trials.map((t) => t.estimatedSeconds)),
    ...(direction ? { traffic: { direction } } : {}),
  };
}

/** What runs a tool between two hosts: a trial's flows, or the trial itself. */
export type Invocation = Pick<PlannedFlow, 'tool' | 'test' | 'client' | 'server' | 'estimatedSeconds' | 'traffic'>;

/** The tool invocations of a trial: one per flow of a synchronized trial, else the trial. */
export function trialInvocations(trial: PlannedTrial): readonly Invocation[] {
  return trial.flows ?? [trial];
}
