import { describe, expect, it } from 'vitest';
import { awsPlugin } from './aws-plugin.js';
import { awsCatalog, sizeVcpus } from './catalog.js';
import { loadPriceTable } from './prices.js';
import { isZone, regionOf } from './region.js';

describe('aws catalog', () => {
  const catalog = awsPlugin({ env: {} }).catalog!();

  it('is dated, and the plugin hands out the same list', () => {
    expect(catalog.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(`${catalog.date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(catalog.date);
    expect(catalog).toBe(awsCatalog());
  });

  it('lists zones that belong to their region, once each', () => {
    expect(catalog.regions.length).toBeGreaterThanOrEqual(30);
    expect(new Set(catalog.regions.map((r) => r.name)).size).toBe(catalog.regions.length);
    for (const region of catalog.regions) {
      expect(region.zones.length, region.name).toBeGreaterThanOrEqual(2);
      for (const zone of region.zones) {
        expect(isZone(zone), zone).toBe(true);
        expect(regionOf(zone), zone).toBe(region.name);
      }
    }
    expect(catalog.regions.find((r) => r.name === 'ap-northeast-1')?.zones).toEqual(['ap-northeast-1a', 'ap-northeast-1c', 'ap-northeast-1d']);
  });

  it('has every type and region of the price table, with the same vCPUs', () => {
    const table = loadPriceTable();
    const byName = new Map(catalog.machineTypes.map((t) => [t.name, t]));
    expect(byName.size).toBe(catalog.machineTypes.length);
    for (const [name, facts] of Object.entries(table.instanceTypes)) {
      expect(byName.get(name)?.vcpus, name).toBe(facts.vcpus);
    }
    const regions = new Set(catalog.regions.map((r) => r.name));
    for (const region of Object.keys(table.hourly)) expect(regions.has(region), region).toBe(true);
  });

  it('gives every type vCPUs, memory and a family', () => {
    for (const type of catalog.machineTypes) {
      expect(type.name).toMatch(/^[a-z][a-z0-9-]*\.[a-z0-9]+$/);
      expect(type.vcpus, type.name).toBeGreaterThan(0);
      expect(type.memoryGib, type.name).toBeGreaterThan(0);
      expect(type.family, type.name).toMatch(/^(burstable|general purpose|compute optimized|memory optimized|network optimized)( \(arm64\))?$/);
    }
    const facts = (name: string) => catalog.machineTypes.find((t) => t.name === name);
    expect(facts('c5n.9xlarge')).toEqual({ name: 'c5n.9xlarge', vcpus: 36, memoryGib: 96, family: 'network optimized' });
    expect(facts('m7g.large')).toEqual({ name: 'm7g.large', vcpus: 2, memoryGib: 8, family: 'general purpose (arm64)' });
    expect(facts('t3.micro')).toEqual({ name: 't3.micro', vcpus: 2, memoryGib: 1, family: 'burstable' });
    expect(facts('r5.4xlarge')?.memoryGib).toBe(128);
    expect([sizeVcpus('medium'), sizeVcpus('large'), sizeVcpus('xlarge'), sizeVcpus('18xlarge'), sizeVcpus('metal')]).toEqual([1, 2, 4, 72, undefined]);
  });
});

describe('the documented network limits a result can be compared against', () => {
  it("lists EC2's single-flow caps (5 Gbit/s, 10 in a cluster placement group) and internet-gateway cap, each with its page", () => {
    const limits = awsCatalog().networkLimits!;
    const singleFlow = limits.filter((l) => l.kind === 'single-flow');
    expect(singleFlow.map((l) => l.value)).toEqual([5, 10, 25]);
    expect(singleFlow[0]!.applies).toMatch(/not in the same cluster placement group/);
    expect(singleFlow[1]!.applies).toMatch(/same cluster placement group/);
    expect(limits.find((l) => l.kind === 'internet-egress')).toMatchObject({ value: 5, unit: 'Gbit/s' });
    for (const l of limits) expect(l.source).toMatch(/^https:\/\/docs\.aws\.amazon\.com\//);
    // The plugin hands out the same catalogue.
    expect(awsPlugin({ env: {} }).catalog!().networkLimits).toEqual(limits);
  });

  it('carries the instance bandwidths the page states (m5.8xlarge 10 Gbit/s, m5.16xlarge 20) and invents none for the rest', () => {
    const egress = (name: string) => awsCatalog().machineTypes.find((t) => t.name === name)?.egressGbps;
    expect([egress('m5.8xlarge'), egress('m5.16xlarge')]).toEqual([10, 20]);
    expect(egress('m5.large')).toBeUndefined();
    expect(
      awsCatalog()
        .machineTypes.filter((t) => t.egressGbps !== undefined)
        .map((t) => t.name),
    ).toEqual(['m5.8xlarge', 'm5.16xlarge']);
  });
});
