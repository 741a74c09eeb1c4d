import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateAzureCost } from './cost.js';
import { requests } from './test-support/harness.js';

describe('estimateAzureCost', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nbt-azure-cost-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const none = () => join(dir, 'none.json');

  it('prices VM hours by size and location', () => {
    const hosts = requests({ a: { zone: 'eastus-1' }, b: { zone: 'eastus-2' }, c: { zone: 'westeurope', machineType: 'Standard_F4s_v2' } });
    const estimate = estimateAzureCost(hosts, { hostSeconds: { a: 3600, b: 3600, c: 7200 }, flows: [] }, none());
    expect(estimate.items.map((i) => [i.description, i.quantity, i.usd])).toEqual([
      ['Standard_D2s_v5 in eastus (2 hosts)', 2, 0.192],
      ['Standard_F4s_v2 in westeurope (1 host)', 2, 0.3887],
    ]);
    expect(estimate.priceTableDate).toBe('2026-11-22');
  });

  it('charges data transfer by boundary: availability zones, locations by continent, the internet', () => {
    const hosts = requests({ a: { zone: 'eastus-1' }, b: { zone: 'eastus-2' }, w: { zone: 'westus2' }, eu: { zone: 'westeurope' } });
    const gb = 8e9;
    const flows = [
      { from: 'a', to: 'b', seconds: 1, bitsPerSecond: gb },
      { from: 'a', to: 'w', seconds: 1, bitsPerSecond: gb },
      { from: 'a', to: 'eu', seconds: 1, bitsPerSecond: gb },
      { from: 'eu', to: 'gcp-vm', seconds: 1, bitsPerSecond: gb },
    ];
    const estimate = estimateAzureCost(hosts, { hostSeconds: {}, flows }, none());
    expect(estimate.items.filter((i) => i.unit === 'GB').map((i) => [i.description, i.quantity, i.unitPriceUsd])).toEqual([
      ['data transfer eastus-1 → eastus-2 (inter-zone)', 1, 0],
      ['data transfer eastus → westus2 (inter-region)', 1, 0.02],
      ['data transfer eastus → westeurope (inter-region)', 1, 0.05],
      ['data transfer westeurope → internet (gcp-vm)', 1, 0.087],
    ]);
    expect(estimate.notes!.join('\n')).toMatch(/inter-zone data transfer counted at \$0/);
  });

  it("counts a flow without a rate at the size's bandwidth, and takes overrides from a file", async () => {
    const file = join(dir, 'azure.json');
    await writeFile(file, JSON.stringify({ egress: { interZone: 0.01 }, instances: { Standard_D2s_v5: 0.1 } }));
    const hosts = requests({ a: { zone: 'eastus-1' }, b: { zone: 'eastus-2' } });
    const estimate = estimateAzureCost(hosts, { hostSeconds: { a: 3600, b: 3600 }, flows: [{ from: 'a', to: 'b', seconds: 8 }] }, file);
    expect(estimate.items[0]!.unitPriceUsd).toBe(0.1);
    expect(estimate.items[1]).toMatchObject({ quantity: 12.5, unitPriceUsd: 0.01, usd: 0.125 }); // 12.5 Gbit/s × 8 s
  });
});
