import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAzurePlugin } from './azure-plugin.js';
import { AZURE_CATALOG } from './catalog.js';
import { hostSchema } from './host-schema.js';
import { splitZone } from './naming.js';
import { AZURE_PRICES } from './price-table.js';

describe('azure catalog', () => {
  const catalog = createAzurePlugin().catalog!();

  it('is the dated list shipped with the plugin', () => {
    expect(catalog).toBe(AZURE_CATALOG);
    expect(catalog.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(catalog.date))).toBe(false);
  });

  it('lists locations once each, with zones the host schema accepts and that name their location', () => {
    const names = catalog.regions.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['eastus', 'westus2', 'westeurope', 'northeurope', 'japaneast']));
    for (const region of catalog.regions) {
      expect(region.zones.length, region.name).toBeGreaterThan(0);
      for (const zone of region.zones) {
        expect(hostSchema.safeParse({ zone }).success, zone).toBe(true);
        expect(splitZone(zone).location).toBe(region.name);
      }
      // Availability zones are 1, 2, 3; a location without them is offered as itself.
      expect([[`${region.name}-1`, `${region.name}-2`, `${region.name}-3`], [region.name]]).toContainEqual(region.zones);
    }
    expect(catalog.regions.find((r) => r.name === 'eastus')!.zones).toEqual(['eastus-1', 'eastus-2', 'eastus-3']);
    expect(catalog.regions.find((r) => r.name === 'westus')!.zones).toEqual(['westus']);
  });

  it('covers every size of the price table and of every priced location, with vCPUs, memory and family', () => {
    const sizes = new Map(catalog.machineTypes.map((m) => [m.name, m]));
    expect(sizes.size).toBe(catalog.machineTypes.length);
    for (const name of Object.keys(AZURE_PRICES.instances)) expect(sizes.has(name), name).toBe(true);
    for (const location of Object.keys(AZURE_PRICES.locationMultiplier))
      expect(
        catalog.regions.some((r) => r.name === location),
        location,
      ).toBe(true);
    for (const m of catalog.machineTypes) {
      expect(hostSchema.safeParse({ zone: 'eastus', machineType: m.name }).success, m.name).toBe(true);
      expect(m.vcpus! > 0 && m.memoryGib! > 0 && m.family!.length > 0, m.name).toBe(true);
    }
    expect(sizes.get('Standard_D4s_v5')).toEqual({ name: 'Standard_D4s_v5', vcpus: 4, memoryGib: 16, family: 'general purpose', egressGbps: 12.5 });
    expect(sizes.get('Standard_F8s_v2')).toEqual({ name: 'Standard_F8s_v2', vcpus: 8, memoryGib: 16, family: 'compute optimized' });
    expect(sizes.get('Standard_B2s')).toMatchObject({ vcpus: 2, memoryGib: 4 });
  });

  it('loads no Azure SDK (pure data, cheap for the desktop)', () => {
    const source = readFileSync(new URL('./catalog.ts', import.meta.url), 'utf8');
    expect(source.match(/^import .*$/gm)).toEqual(["import type { CloudCatalog } from '@netbench/plugin-api';"]);
  });
});

describe('the documented network limits a result can be compared against', () => {
  it("lists Azure's flow limits: 250k / 100k with good performance (8 vCPUs or more / fewer), 1M hard", () => {
    const flows = AZURE_CATALOG.networkLimits!.filter((l) => l.kind === 'flows');
    expect(flows.map((l) => l.value)).toEqual([250_000, 100_000, 1_000_000]);
    expect(flows[2]!.applies).toMatch(/500,000 inbound and 500,000 outbound/);
    for (const l of flows) expect(l.source).toMatch(/^https:\/\/learn\.microsoft\.com\//);
  });

  it("gives the Dsv5 sizes their series page's max network bandwidth (12.5 Gbit/s up to 16 vCPUs, then 16, 24, 30) and no figure to untranscribed series", () => {
    const egress = (name: string) => AZURE_CATALOG.machineTypes.find((t) => t.name === name)?.egressGbps;
    expect(['Standard_D2s_v5', 'Standard_D16s_v5', 'Standard_D32s_v5', 'Standard_D48s_v5', 'Standard_D64s_v5'].map(egress)).toEqual([12.5, 12.5, 16, 24, 30]);
    expect(egress('Standard_D2as_v5')).toBeUndefined();
    expect(egress('Standard_E4s_v5')).toBeUndefined();
  });
});
