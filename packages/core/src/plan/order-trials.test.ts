import { describe, expect, it } from 'vitest';
import { TestResolver } from '../spec/__fixtures__/test-plugins.js';
import { loadSpec } from '../spec/load-spec.js';
import { createPlan } from './create-plan.js';
import { repeatAndOrder } from './order-trials.js';

const resolver = new TestResolver();
const SPEC = `name: reps
hosts:
  a: { cloud: local, zone: z1 }
  b: { cloud: local, zone: z1 }
benchmarks:
  - tool: netperf
    client: a
    server: b
    tests: [TCP_RR, TCP_STREAM]
    duration: 5
`;
async function plan(options: string, sets: string[] = []) {
  const { spec } = await loadSpec({ text: `${SPEC}options: ${options}\n`, file: 'reps.yaml' }, resolver, { sets });
  return createPlan(spec, resolver);
}
const order = (p: Awaited<ReturnType<typeof plan>>) => p.trials.map((t) => `${t.test}#${t.params['repetition']}`);

describe('repetitions and trial order', () => {
  it('repeats the plan repetition by repetition, labelling each trial', async () => {
    const p = await plan('{ repetitions: 3 }');
    expect(order(p)).toEqual(['TCP_RR#1', 'TCP_STREAM#1', 'TCP_RR#2', 'TCP_STREAM#2', 'TCP_RR#3', 'TCP_STREAM#3']);
    expect(p.trials.map((t) => t.id)).toEqual(['t0001', 't0002', 't0003', 't0004', 't0005', 't0006']);
    expect(p.trials.map((t) => t.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(p.estimatedSeconds).toBe(30);
    expect(p.fleet).toHaveLength(2);
  });

  it('adds no repetition parameter to a single repetition', async () => {
    const p = await plan('{}');
    expect(p.trials.map((t) => t.params['repetition'])).toEqual([undefined, undefined]);
    expect(p.spec.options).toMatchObject({ repetitions: 1, order: 'plan' });
    expect(p.spec.options.seed).toBeUndefined();
  });

  it('shuffles every trial of every repetition reproducibly from the seed', async () => {
    const one = await plan('{ repetitions: 4, order: random, seed: 7 }');
    expect(order(await plan('{ repetitions: 4, order: random, seed: 7 }'))).toEqual(order(one));
    expect(order(await plan('{ repetitions: 4, order: random, seed: 8 }'))).not.toEqual(order(one));
    expect([...order(one)].sort()).toEqual(order(await plan('{ repetitions: 4 }')).sort());
    expect(order(one)).not.toEqual(order(await plan('{ repetitions: 4 }')));
  });

  it('draws and records a seed when random order has none, so the run can be replayed', async () => {
    const p = await plan('{ repetitions: 2, order: random }');
    const seed = p.spec.options.seed;
    expect(seed).toEqual(expect.any(Number));
    expect(order(await plan(`{ repetitions: 2, order: random, seed: ${seed} }`))).toEqual(order(p));
  });

  it('rejects nonsense in the spec', async () => {
    await expect(plan('{ repetitions: 0 }')).rejects.toThrow(/options\.repetitions/);
    await expect(plan('{ order: shuffled }')).rejects.toThrow(/options\.order/);
    await expect(plan('{ seed: -1 }')).rejects.toThrow(/options\.seed/);
  });

  it('repeatAndOrder keeps every item once per repetition', () => {
    const { ordered, seed } = repeatAndOrder(['x', 'y', 'z'], { repetitions: 5, order: 'random', seed: 1 });
    expect(seed).toBe(1);
    expect(ordered).toHaveLength(15);
    for (const item of ['x', 'y', 'z'])
      expect(
        ordered
          .filter((o) => o.item === item)
          .map((o) => o.repetition)
          .sort(),
      ).toEqual([1, 2, 3, 4, 5]);
  });
});
