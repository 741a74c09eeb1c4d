import { describe, expect, it } from 'vitest';
import { defaultStudyId, parseShard, type SplitOptions, shardConflicts, shardPlan, splitPlan, studyLabels } from './shard-plan.js';
import type { FleetHost, Plan, PlannedTrial } from './types.js';

const host = (id: string, cloud = 'local'): FleetHost => ({ id, name: id.split('@')[0]!, cloud, config: {} });

function plan(trials: [client: string, server: string, cell: Record<string, string | number>][], fleet: FleetHost[], cells: number): Plan {
  return {
    spec: {
      name: 'study spec',
      hosts: {},
      benchmarks: [],
      publish: [],
      options: { concurrency: 1, trialTimeout: 1, retries: 0, provisionTimeout: 1, teardownTimeout: 1, install: false },
      source: { file: 'spec.yaml', text: 'name: study spec\n' },
    },
    fleet,
    trials: trials.map(
      ([client, server, cell], index): PlannedTrial => ({
        id: `t${String(index + 1).padStart(4, '0')}`,
        index,
        benchmark: 0,
        benchmarkName: 'ping',
        tool: 'ping',
        test: 'icmp',
        params: {},
        client,
        server,
        ip: 'internal',
        cell,
        estimatedSeconds: 10,
      }),
    ),
    cells,
    estimatedSeconds: trials.length * 10,
  };
}

const perRun: SplitOptions = { isFixed: () => false };
const staticFixed: SplitOptions = { isFixed: (h) => h.cloud === 'static' };

describe('splitPlan', () => {
  it('partitions the cells over the shards, every trial once, ids kept, each shard with only its hosts', () => {
    const p = plan(
      [
        ['a', 'b', { size: 56 }],
        ['b', 'c', { size: 56 }],
        ['a', 'b', { size: 200 }],
        ['b', 'c', { size: 200 }],
        ['a', 'b', { size: 1000 }],
        ['b', 'c', { size: 1000 }],
      ],
      [host('a'), host('b'), host('c')],
      3,
    );
    const parts = splitPlan(p, 3, perRun);
    expect(parts.map((s) => s.trials)).toEqual([
      ['t0001', 't0002'],
      ['t0003', 't0004'],
      ['t0005', 't0006'],
    ]);
    expect(parts.every((s) => s.estimatedSeconds === 20)).toBe(true);
    expect(splitPlan(p, 3, perRun)).toEqual(parts); // every shard process computes the same split
    const one = shardPlan(p, parts[1]!);
    expect(one.trials.map((t) => [t.id, t.index])).toEqual([
      ['t0003', 0],
      ['t0004', 1],
    ]);
    expect(one.fleet.map((h) => h.id)).toEqual(['a', 'b', 'c']);
  });

  it('with fewer cells than shards, splits single trials, and a shard keeps only the hosts its trials use', () => {
    const p = plan(
      [
        ['a', 'b', {}],
        ['b', 'c', {}],
        ['c', 'a', {}],
      ],
      [host('a'), host('b'), host('c')],
      1,
    );
    const parts = splitPlan(p, 4, perRun);
    expect(parts.map((s) => s.trials)).toEqual([['t0001'], ['t0002'], ['t0003'], []]);
    expect(parts.map((s) => s.fleet)).toEqual([['a', 'b'], ['b', 'c'], ['a', 'c'], []]);
  });

  it('keeps every trial on a fixed machine in one shard, unless the spec shares it', () => {
    const fleet = [host('client'), host('onprem', 'static'), host('other', 'static')];
    const p = plan(
      [
        ['client', 'onprem', { n: 1 }],
        ['client', 'other', { n: 2 }],
        ['client', 'onprem', { n: 3 }],
        ['client', 'other', { n: 4 }],
      ],
      fleet,
      4,
    );
    const parts = splitPlan(p, 4, staticFixed);
    expect(
      parts
        .map((s) => s.trials)
        .filter((t) => t.length > 0)
        .sort(),
    ).toEqual([
      ['t0001', 't0003'],
      ['t0002', 't0004'],
    ]);
    expect(shardConflicts(p, parts, staticFixed)).toEqual([]);
    // A split that ignores fixed hosts is caught.
    const naive = splitPlan(p, 4, perRun);
    expect(shardConflicts(p, naive, staticFixed)).toEqual(['host onprem is in shards 0 and 2', 'host other is in shards 1 and 3']);
    const shared = { ...staticFixed, sharedHosts: ['onprem', 'other'] };
    expect(splitPlan(p, 4, shared).map((s) => s.trials)).toEqual([['t0001'], ['t0002'], ['t0003'], ['t0004']]);
    expect(shardConflicts(p, splitPlan(p, 4, shared), shared)).toEqual([]);
  });

  it('keeps a search together (its steps depend on each other)', () => {
    const p = plan(
      [
        ['a', 'b', {}],
        ['a', 'b', {}],
        ['a', 'b', {}],
      ],
      [host('a'), host('b')],
      1,
    );
    const searched: Plan = { ...p, trials: p.trials.map((t, i) => (i < 2 ? { ...t, search: { group: 'g1', metric: 'm', minGainPercent: 1 } } : t)) };
    expect(splitPlan(searched, 3, perRun).map((s) => s.trials)).toEqual([['t0001', 't0002'], ['t0003'], []]);
  });
});

describe('shard ids and labels', () => {
  it('reads i/N from 0, as a completion index', () => {
    expect(parseShard('0/4')).toEqual({ index: 0, count: 4 });
    expect(parseShard('3/4')).toEqual({ index: 3, count: 4 });
    expect(() => parseShard('4/4')).toThrow(/0 <= i < N/);
    expect(() => parseShard('1/0')).toThrow(/0 <= i < N/);
    expect(() => parseShard('a/4')).toThrow(/expected i\/N/);
  });

  it('labels runs and samples with the study and the shard; a default study id is stable and file-safe', () => {
    const p = plan([['a', 'b', {}]], [host('a'), host('b')], 1);
    expect(defaultStudyId(p, 4)).toMatch(/^study-spec-[0-9a-f]{10}$/);
    expect(defaultStudyId(p, 4)).toBe(defaultStudyId(p, 4));
    expect(defaultStudyId(p, 3)).not.toBe(defaultStudyId(p, 4));
    expect(studyLabels({ ...p.spec.options, study: 's1', shard: { index: 2, count: 4 } })).toEqual({ study: 's1', shard: '2/4' });
    expect(studyLabels(p.spec.options)).toEqual({});
  });
});
