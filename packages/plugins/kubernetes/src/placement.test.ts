import { describe, expect, it } from 'vitest';
import { hostSchema } from './host-schema.js';
import { PlacementError, type PodPlacement, planPlacement } from './placement.js';

const RUN = '20261125-013000-abc123';
const reqs = (blocks: Record<string, Record<string, unknown>>) => Object.entries(blocks).map(([id, block]) => ({ id, name: id.split('@')[0]!, config: hostSchema.parse(block) }));

describe('planPlacement', () => {
  it('turns node and zone into required node affinity (one term: both must hold)', () => {
    const [p] = planPlacement(RUN, reqs({ a: { placement: { node: 'n1', zone: 'z1' } } })) as PodPlacement[];
    expect(p!.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }],
              matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1'] }],
            },
          ],
        },
      },
    });
    expect(p!.wave).toBe(0);
  });

  it('same node / other node become pod (anti-)affinity on the hostname, selecting the other pod by run and host labels', () => {
    const placements = planPlacement(RUN, reqs({ w1: {}, w2: { placement: { sameNodeAs: 'w1' } }, w3: { placement: { otherNodeThan: 'w2' } } })) as PodPlacement[];
    expect(placements.map((p) => p.wave)).toEqual([0, 1, 2]);
    expect(placements[0]!.affinity).toBeUndefined();
    expect(placements[1]!.affinity!.podAffinity!.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
      { labelSelector: { matchLabels: { 'netbench.io/run': RUN, 'netbench.io/host': 'w1' } }, topologyKey: 'kubernetes.io/hostname' },
    ]);
    expect(placements[2]!.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution[0]!.labelSelector.matchLabels['netbench.io/host']).toBe('w2');
  });

  it('a serviceOf host makes no pod and points at its target', () => {
    expect(planPlacement(RUN, reqs({ w2: {}, svc: { serviceOf: 'w2' } }))[1]).toEqual({ kind: 'service', id: 'svc', podId: 'w2' });
  });

  it('refuses unknown, ambiguous, pod-less and cyclic references', () => {
    expect(() => planPlacement(RUN, reqs({ a: { placement: { sameNodeAs: 'b' } } }))).toThrow(PlacementError);
    expect(() => planPlacement(RUN, reqs({ 'b@x=1': {}, 'b@x=2': {}, a: { placement: { sameNodeAs: 'b' } } }))).toThrow(/ambiguous/);
    expect(() => planPlacement(RUN, reqs({ b: {}, s: { serviceOf: 'b' }, a: { placement: { otherNodeThan: 's' } } }))).toThrow(/itself a serviceOf host/);
    expect(() => planPlacement(RUN, reqs({ a: { placement: { sameNodeAs: 'b' } }, b: { placement: { sameNodeAs: 'a' } } }))).toThrow(/cycle/);
    expect(() => planPlacement(RUN, reqs({ a: { placement: { sameNodeAs: 'a' } } }))).toThrow(/itself/);
    expect(() => planPlacement(RUN, reqs({ b: { service: false }, s: { serviceOf: 'b' } }))).toThrow(/service: false/);
  });
});

describe('host schema', () => {
  it('keeps placement and hostNetwork off serviceOf hosts', () => {
    expect(hostSchema.safeParse({ serviceOf: 'w2', hostNetwork: true }).success).toBe(false);
    expect(hostSchema.safeParse({ serviceOf: 'w2', placement: { node: 'n' } }).success).toBe(false);
    expect(hostSchema.safeParse({ placement: { sameNodeAs: 'a', otherNodeThan: 'a' } }).success).toBe(false);
    expect(hostSchema.safeParse({ namespace: 'Bad_NS' }).success).toBe(false);
  });
});
