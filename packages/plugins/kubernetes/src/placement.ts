import type { KubernetesHostConfig } from './host-schema.js';
import { HOST_LABEL, hostLabelValue, RUN_LABEL } from './naming.js';

/** Node label of the node's name, the topology of "same node". */
export const HOSTNAME_TOPOLOGY = 'kubernetes.io/hostname';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

export interface PlacementRequest {
  /** Fleet id. */
  readonly id: string;
  /** Spec host name, which `sameNodeAs`, `otherNodeThan` and `serviceOf` refer to. */
  readonly name: string;
  readonly config: KubernetesHostConfig;
}

/** A pod to make: its affinity and the wave it is created in. */
export interface PodPlacement {
  readonly kind: 'pod';
  readonly id: string;
  /** 0 for pods that refer to no other pod; otherwise one more than the latest pod they refer to. */
  readonly wave: number;
  readonly affinity?: Affinity;
}

/** A host that is another pod's Service: no pod of its own. */
export interface ServicePlacement {
  readonly kind: 'service';
  readonly id: string;
  /** Fleet id of the pod whose Service it is. */
  readonly podId: string;
}

export type Placement = PodPlacement | ServicePlacement;

// The shapes of core/v1 Affinity that netbench writes (field names as in the API reference).
interface LabelSelector {
  matchLabels: Record<string, string>;
}
interface PodAffinityTerm {
  labelSelector: LabelSelector;
  topologyKey: string;
}
interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn';
  values: string[];
}
interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}
export interface Affinity {
  nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: NodeSelectorTerm[] } };
  podAffinity?: { requiredDuringSchedulingIgnoredDuringExecution: PodAffinityTerm[] };
  podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution: PodAffinityTerm[] };
}

export class PlacementError extends Error {
  override readonly name = 'PlacementError';
}

/**
 * Decide which pods to make and where: node and zone become required node
 * affinity; `sameNodeAs`/`otherNodeThan` become required pod (anti-)affinity
 * on `kubernetes.io/hostname`, selecting the other pod by its run and host
 * labels. The scheduler only honours pod affinity to pods that are already
 * scheduled, so a pod is created in a later wave than the pods it refers to.
 * `serviceOf` hosts make no pod. Pure: throws `PlacementError` on a reference
 * to an unknown, ambiguous or pod-less host, or a cycle.
 */
export function planPlacement(runId: string, requests: readonly PlacementRequest[]): Placement[] {
  const byName = new Map<string, PlacementRequest[]>();
  for (const r of requests) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);

  const resolve = (from: PlacementRequest, field: string, name: string): PlacementRequest => {
    const found = byName.get(name) ?? [];
    if (found.length === 0) throw new PlacementError(`host '${from.name}': ${field} '${name}' is not a kubernetes host of this run`);
    if (found.length > 1)
      throw new PlacementError(`host '${from.name}': ${field} '${name}' is ambiguous: the matrix made ${found.length} hosts of that name (${found.map((f) => f.id).join(', ')})`);
    const target = found[0]!;
    if (target.config.serviceOf !== undefined) throw new PlacementError(`host '${from.name}': ${field} '${name}' is itself a serviceOf host (it has no pod)`);
    if (field === 'serviceOf' && !target.config.service) throw new PlacementError(`host '${from.name}': serviceOf '${name}', but that host has service: false`);
    if (target === from) throw new PlacementError(`host '${from.name}': ${field} names the host itself`);
    return target;
  };

  const waves = new Map<string, number>();
  const visiting = new Set<string>();
  const waveOf = (r: PlacementRequest): number => {
    const known = waves.get(r.id);
    if (known !== undefined) return known;
    if (visiting.has(r.id)) throw new PlacementError(`host '${r.name}': placement refers back to itself through other hosts (a cycle)`);
    visiting.add(r.id);
    const refs = podRefs(r).map(([field, name]) => resolve(r, field, name));
    const wave = refs.length === 0 ? 0 : 1 + Math.max(...refs.map(waveOf));
    visiting.delete(r.id);
    waves.set(r.id, wave);
    return wave;
  };

  return requests.map((r): Placement => {
    if (r.config.serviceOf !== undefined) return { kind: 'service', id: r.id, podId: resolve(r, 'serviceOf', r.config.serviceOf).id };
    const affinity = affinityOf(runId, r, (field, name) => resolve(r, field, name).id);
    return { kind: 'pod', id: r.id, wave: waveOf(r), ...(affinity ? { affinity } : {}) };
  });
}

function podRefs(r: PlacementRequest): [string, string][] {
  const p = r.config.placement;
  const refs: [string, string][] = [];
  if (p?.sameNodeAs !== undefined) refs.push(['sameNodeAs', p.sameNodeAs]);
  if (p?.otherNodeThan !== undefined) refs.push(['otherNodeThan', p.otherNodeThan]);
  return refs;
}

/** The Affinity of one pod, or undefined when the scheduler may put it anywhere. */
export function affinityOf(runId: string, r: PlacementRequest, idOf: (field: string, name: string) => string): Affinity | undefined {
  const p = r.config.placement;
  if (!p) return undefined;
  const affinity: Affinity = {};
  const term: NodeSelectorTerm = {};
  if (p.node !== undefined) term.matchFields = [{ key: 'metadata.name', operator: 'In', values: [p.node] }];
  if (p.zone !== undefined) term.matchExpressions = [{ key: ZONE_LABEL, operator: 'In', values: [p.zone] }];
  if (term.matchFields || term.matchExpressions) affinity.nodeAffinity = { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } };
  const podTerm = (id: string): PodAffinityTerm => ({
    labelSelector: { matchLabels: { [RUN_LABEL]: runId, [HOST_LABEL]: hostLabelValue(runId, id) } },
    topologyKey: HOSTNAME_TOPOLOGY,
  });
  if (p.sameNodeAs !== undefined) affinity.podAffinity = { requiredDuringSchedulingIgnoredDuringExecution: [podTerm(idOf('sameNodeAs', p.sameNodeAs))] };
  if (p.otherNodeThan !== undefined) affinity.podAntiAffinity = { requiredDuringSchedulingIgnoredDuringExecution: [podTerm(idOf('otherNodeThan', p.otherNodeThan))] };
  return Object.keys(affinity).length > 0 ? affinity : undefined;
}
