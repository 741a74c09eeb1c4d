import { describe, expect, it } from 'vitest';
import { GCP_CATALOG } from './catalog.js';
import { gcpPlugin } from './gcp-plugin.js';
import { hostSchema } from './host-schema.js';
import { GCP_PRICES } from './price-table.js';

const byName = new Map(GCP_CATALOG.machineTypes.map((t) => [t.name, t]));

describe('gcp catalog', () => {
  it("is the plugin's dated catalog", () => {
    expect(gcpPlugin.catalog!()).toBe(GCP_CATALOG);
    expect(GCP_CATALOG.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(GCP_CATALOG.date))).toBe(false);
  });

  it('lists every machine type and region of the price table, once each', () => {
    for (const name of Object.keys(GCP_PRICES.instances)) expect(byName.has(name), name).toBe(true);
    expect(byName.size).toBe(GCP_CATALOG.machineTypes.length);
    const regions = GCP_CATALOG.regions.map((r) => r.name);
    for (const region of Object.keys(GCP_PRICES.regionMultiplier)) expect(regions, region).toContain(region);
    expect(new Set(regions).size).toBe(regions.length);
    // The names the desktop wizard offered before the catalog existed.
    for (const name of ['e2-standard-2', 'n2-standard-2', 'n2-standard-8', 'n1-standard-2', 'n1-standard-16', 'c2-standard-8', 'c3-standard-4'])
      expect(byName.has(name), name).toBe(true);
    expect(GCP_CATALOG.regions.find((r) => r.name === 'us-central1')!.zones).toEqual(['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f']);
    expect(GCP_CATALOG.regions.find((r) => r.name === 'europe-west1')!.zones).toEqual(['europe-west1-b', 'europe-west1-c', 'europe-west1-d']);
  });

  it("gives vCPUs (the name's suffix), memory and family for every type", () => {
    for (const t of GCP_CATALOG.machineTypes) {
      const suffix = /-(\d+)$/.exec(t.name)?.[1];
      if (suffix) expect(t.vcpus, t.name).toBe(Number(suffix));
      expect(t.vcpus! > 0 && t.memoryGib! > 0 && Boolean(t.family), t.name).toBe(true);
    }
    expect(byName.get('n1-standard-1')).toEqual({ name: 'n1-standard-1', vcpus: 1, memoryGib: 3.75, family: 'general purpose', egressGbps: 2 });
    expect(byName.get('n1-highcpu-2')!.memoryGib).toBe(1.8);
    expect(byName.get('n2-standard-4')!.memoryGib).toBe(16);
    expect(byName.get('c2-standard-60')).toMatchObject({ memoryGib: 240, family: 'compute optimized' });
    expect(byName.get('e2-micro')).toMatchObject({ vcpus: 2, memoryGib: 1 });
  });

  it('offers only zones and types the host schema accepts, each zone in its region', () => {
    for (const region of GCP_CATALOG.regions) {
      expect(region.zones.length, region.name).toBeGreaterThanOrEqual(3);
      for (const zone of region.zones) {
        expect(zone.startsWith(`${region.name}-`)).toBe(true);
        const parsed = hostSchema.safeParse({ zone, machineType: GCP_CATALOG.machineTypes[0]!.name });
        expect(parsed.success, zone).toBe(true);
      }
    }
    for (const t of GCP_CATALOG.machineTypes) expect(hostSchema.safeParse({ zone: 'us-central1-a', machineType: t.name }).success, t.name).toBe(true);
  });
});

describe('the documented network limits a result can be compared against', () => {
  it("gives N1 types their per-VM egress (2 Gbit/s per vCPU, the page's n1-standard-8 = 16 Gbit/s, at most 32) and no made-up figure for other series", () => {
    const type = (name: string) => GCP_CATALOG.machineTypes.find((t) => t.name === name)!;
    expect(type('n1-standard-8').egressGbps).toBe(16);
    expect(type('n1-standard-1').egressGbps).toBe(2);
    expect(type('n1-standard-64').egressGbps).toBe(32);
    expect(type('n2-standard-8').egressGbps).toBeUndefined();
    // The page's C3 example: 22 vCPUs, 23 Gbit/s total egress.
    expect(type('c3-standard-22').egressGbps).toBe(23);
    expect(type('c3-standard-44').egressGbps).toBeUndefined();
    expect(GCP_CATALOG.networkLimits!.every((l) => l.source === 'https://cloud.google.com/compute/docs/network-bandwidth')).toBe(true);
    expect(gcpPlugin.catalog!().networkLimits).toEqual(GCP_CATALOG.networkLimits);
  });
});
