import { describe, expect, it } from 'vitest';
import type { HostRequest } from '../plugin/index.js';
import { estimateTableCost, type TableCostModel } from './table-cost.js';

/** A made-up cloud: zones `<region>-<letter>`, regions `<continent>-<n>`. */
interface AcmeConfig {
  readonly zone: string;
  readonly machineType: string;
  readonly tier?: 'gold';
}
const TABLE = {
  date: '2026-05-05',
  instances: { 'm-2': 0.1, 'm-8': 0.4 },
  regional: { 'eu-2': { 'm-8': 0.5 } },
  egress: { interZone: 0.01, interRegion: { 'na>eu': 0.05, 'na>na': 0.02, 'eu>ap': 0.09 } },
};
const model = (over: Partial<TableCostModel<AcmeConfig>> = {}): TableCostModel<AcmeConfig> => ({
  table: TABLE,
  multipliers: { 'na-1': 1, 'eu-1': 1.2 },
  baseRegion: 'na-1',
  unit: 'GB',
  transferName: 'egress',
  site: (c) => ({ zone: c.zone, region: c.zone.slice(0, c.zone.lastIndexOf('-')), machineType: c.machineType }),
  continentOf: (region) => region.split('-')[0]!,
  capBps: (from, to) => (to ? 8e9 : 4e9) * (from.machineType === 'm-8' ? 2 : 1),
  internet: (from): { prices: Record<string, number>; label?: string } => (from.tier ? { prices: { na: 0.3 }, label: 'gold tier' } : { prices: { NA: 0.1, eu: 0.12 } }),
  ...over,
});
const requests = (hosts: Record<string, Partial<AcmeConfig>>): HostRequest<AcmeConfig>[] =>
  Object.entries(hosts).map(([id, c]) => ({ id, name: id, cloud: 'acme', config: { zone: 'na-1-a', machineType: 'm-2', ...c } }));

describe('estimateTableCost', () => {
  it('prices instance-hours per type and region: exact regional price, base × multiplier, noted gaps', () => {
    const hosts = requests({ a: {}, b: { zone: 'na-1-b' }, e: { zone: 'eu-1-a' }, r: { zone: 'eu-2-a', machineType: 'm-8' }, x: { zone: 'ap-1-a' }, z: { machineType: 'z-99' } });
    const estimate = estimateTableCost(hosts, { hostSeconds: { a: 3600, b: 1800, e: 3600, r: 7200, x: 3600, z: 3600 }, flows: [] }, model({ notes: ['loaded'] }));
    expect(estimate.items.map((i) => [i.description, i.quantity, i.unit, i.unitPriceUsd, i.usd])).toEqual([
      ['m-2 in na-1 (2 hosts)', 1.5, 'instance-hour', 0.1, 0.15],
      ['m-2 in eu-1 (1 host)', 1, 'instance-hour', 0.12, 0.12],
      ['m-8 in eu-2 (1 host)', 2, 'instance-hour', 0.5, 1],
      ['m-2 in ap-1 (1 host)', 1, 'instance-hour', 0.1, 0.1],
      ['z-99 in na-1 (1 host)', 1, 'instance-hour', 0, 0],
    ]);
    expect(estimate.usd).toBe(1.37);
    expect(estimate.priceTableDate).toBe('2026-05-05');
    expect(estimate.notes).toEqual(['loaded', 'no price multiplier for ap-1: na-1 prices used', 'no price for z-99: counted as $0 (add it to the price file)']);
  });

  it("charges what this cloud's hosts send, one line per path, in the model's unit", () => {
    const hosts = requests({ a: {}, a2: {}, b: { zone: 'na-1-b' }, n: { zone: 'na-2-a' }, eu: { zone: 'eu-1-a' }, ap: { zone: 'ap-1-a' }, g: { tier: 'gold' } });
    const gb = 8e9;
    const flows = [
      { from: 'a', to: 'a2', seconds: 1, bitsPerSecond: gb }, // one zone: free, no line
      { from: 'a', to: 'b', seconds: 1, bitsPerSecond: gb },
      { from: 'a', to: 'b', seconds: 2, bitsPerSecond: gb }, // same path: same line
      { from: 'a', to: 'n', seconds: 1, bitsPerSecond: gb },
      { from: 'eu', to: 'a', seconds: 1, bitsPerSecond: gb }, // pair listed the other way round
      { from: 'ap', to: 'a', seconds: 1, bitsPerSecond: gb }, // pair not listed: the dearest
      { from: 'eu', to: 'other-cloud', seconds: 1, bitsPerSecond: gb },
      { from: 'ap', to: 'other-cloud', seconds: 1, bitsPerSecond: gb }, // continent missing: NA
      { from: 'g', to: 'other-cloud', seconds: 1, bitsPerSecond: gb },
      { from: 'other-cloud', to: 'a', seconds: 1, bitsPerSecond: gb }, // billed by the sender's cloud
    ];
    const estimate = estimateTableCost(hosts, { hostSeconds: {}, flows }, model());
    expect(estimate.items.filter((i) => i.unit === 'GB').map((i) => [i.description, i.quantity, i.unitPriceUsd])).toEqual([
      ['egress na-1-a → na-1-b (inter-zone)', 3, 0.01],
      ['egress na-1 → na-2 (inter-region)', 1, 0.02],
      ['egress eu-1 → na-1 (inter-region)', 1, 0.05],
      ['egress ap-1 → na-1 (inter-region)', 1, 0.09],
      ['egress eu-1 → internet (other-cloud)', 1, 0.12],
      ['egress ap-1 → internet (other-cloud)', 1, 0.1],
      ['egress na-1 → internet (other-cloud, gold tier)', 1, 0.3],
    ]);
    expect(estimate.notes!.filter((n) => !n.startsWith('no price multiplier'))).toEqual([]); // every flow had a rate
  });

  it("counts a flow without a rate at the sender's cap, in GiB when asked, and notes free inter-zone transfer", () => {
    const hosts = requests({ a: { machineType: 'm-8' }, b: { zone: 'na-1-b' } });
    const free = model({ unit: 'GiB', transferName: 'data transfer', noteFreeInterZone: true, table: { ...TABLE, egress: { ...TABLE.egress, interZone: 0 } } });
    const estimate = estimateTableCost(
      hosts,
      {
        hostSeconds: {},
        flows: [
          { from: 'a', to: 'b', seconds: 2 },
          { from: 'a', to: 'outside', seconds: 1 },
        ],
      },
      free,
    );
    expect(estimate.items.map((i) => [i.description, i.quantity, i.unit])).toEqual([
      ['m-8 in na-1 (1 host)', 0, 'instance-hour'],
      ['m-2 in na-1 (1 host)', 0, 'instance-hour'],
      ['data transfer na-1-a → na-1-b (inter-zone)', Math.round(((16e9 * 2) / 8 / 2 ** 30) * 1e6) / 1e6, 'GiB'],
      ['data transfer na-1 → internet (outside)', Math.round(((8e9 * 1) / 8 / 2 ** 30) * 1e6) / 1e6, 'GiB'],
    ]);
    expect(estimate.notes).toEqual([
      'inter-zone data transfer counted at $0 (not billed as of the table date)',
      'flows without a target rate counted at the m-8 bandwidth of 16 Gbit/s',
      'flows without a target rate counted at the m-8 bandwidth of 8 Gbit/s',
    ]);
  });
});
