import { describe, expect, it } from 'vitest';
import { defaultZone } from './network-defaults';
import { groupTrials, largeCostShares } from './plan-groups';

const trial = (id: string, client: string, test: string, repetition: number) => ({ id, tool: 'netperf', test, client, server: 'b', params: { streams: 1, repetition } });

describe("the review's plan and cost", () => {
  it('groups trials by pair × test × parameters, counting repetitions, in plan order', () => {
    const trials = [trial('t1', 'a', 'TCP_RR', 1), trial('t2', 'c', 'TCP_RR', 1), trial('t3', 'a', 'TCP_RR', 2), trial('t4', 'a', 'UDP_RR', 1), trial('t5', 'a', 'TCP_RR', 3)];
    expect(groupTrials(trials)).toEqual([
      { client: 'a', server: 'b', tool: 'netperf', test: 'TCP_RR', params: 'streams=1', n: 3 },
      { client: 'c', server: 'b', tool: 'netperf', test: 'TCP_RR', params: 'streams=1', n: 1 },
      { client: 'a', server: 'b', tool: 'netperf', test: 'UDP_RR', params: 'streams=1', n: 1 },
    ]);
  });

  it('calls out an item that is a large share of the estimate', () => {
    const item = (description: string, usd: number) => ({ description, quantity: 1, unit: 'GB', unitPriceUsd: usd, usd });
    const cost = {
      usd: 54,
      hostSeconds: 600,
      clouds: [
        { cloud: 'aws', hosts: 2, usd: 45, items: [item('instances', 4.5), item('egress us-east-1 → outside AWS', 40.5)] },
        { cloud: 'gcp', hosts: 2, usd: 9, items: [item('instances', 9)] },
      ],
    };
    expect(largeCostShares(cost)).toEqual([{ cloud: 'aws', description: 'egress us-east-1 → outside AWS', usd: 40.5, share: 0.75 }]);
    // One item is all of the estimate by definition: nothing to call out.
    expect(largeCostShares({ usd: 1, hostSeconds: 60, clouds: [{ cloud: 'aws', hosts: 1, usd: 1, items: [item('instances', 1)] }] })).toEqual([]);
  });

  it("starts the n-th place of a cloud on the n-th zone of its first place's region", () => {
    const catalog = {
      date: '2026-01-01',
      regions: [
        { name: 'r1', zones: ['r1a', 'r1b'] },
        { name: 'r2', zones: ['r2a', 'r2b', 'r2c'] },
      ],
      machineTypes: [],
    };
    expect(defaultZone(catalog, [])).toBe('r1a');
    expect(defaultZone(catalog, ['r1a'])).toBe('r1b');
    expect(defaultZone(catalog, ['r2a', 'r2b'])).toBe('r2c');
    // More places than zones: wraps around.
    expect(defaultZone(catalog, ['r1a', 'r1b'])).toBe('r1a');
    // Two places picked before the catalog arrived: neither zone known yet when both are filled in; the second still takes the second zone.
    expect(defaultZone(catalog, [], 0)).toBe('r1a');
    expect(defaultZone(catalog, [], 1)).toBe('r1b');
    expect(defaultZone(catalog, [], 2)).toBe('r1a');
  });
});
