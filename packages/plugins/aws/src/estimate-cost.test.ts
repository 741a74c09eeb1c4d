import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CostUsage, HostRequest } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { estimateAwsCost } from './estimate-cost.js';
import { type AwsHostConfig, hostSchema } from './host-schema.js';
import { loadPriceTable } from './prices.js';

const host = (id: string, zone: string, machineType: string): HostRequest<AwsHostConfig> => ({ id, name: id, cloud: 'aws', config: hostSchema.parse({ zone, machineType }) });

const requests = [host('a', 'us-east-1a', 'm5.large'), host('b', 'us-east-1b', 'm5.large'), host('d', 'us-east-1a', 'm5.large'), host('c', 'eu-west-1a', 'c5n.large')];
const usage: CostUsage = {
  hostSeconds: { a: 3600, b: 3600, c: 3600, d: 3600 },
  flows: [
    { from: 'a', to: 'b', seconds: 100, bitsPerSecond: 1e9 }, // 12.5 GB inter-AZ
    { from: 'a', to: 'b', seconds: 10 }, //                      10 Gbit/s cap: 12.5 GB inter-AZ
    { from: 'a', to: 'd', seconds: 100 }, //                     same zone: free
    { from: 'b', to: 'c', seconds: 80 }, //                      leaving the region: 5 Gbit/s → 50 GB
    { from: 'c', to: 'a', seconds: 8 }, //                       c5n.large 25 Gbit/s, capped at 5 → 5 GB
    { from: 'a', to: 'gcp-vm', seconds: 16, bitsPerSecond: 1e9 }, // 2 GB to another cloud
    { from: 'gcp-vm', to: 'a', seconds: 1000 }, //               GCP pays for this one
  ],
};

describe('estimateAwsCost', () => {
  it('prices instance-hours and the egress of a known plan', () => {
    const estimate = estimateAwsCost(requests, usage, loadPriceTable());
    const items = Object.fromEntries(estimate.items.map((i) => [i.description, [i.quantity, i.unitPriceUsd, i.usd]]));
    expect(items).toEqual({
      'm5.large in us-east-1 (3 hosts)': [3, 0.096, 0.288],
      'c5n.large in eu-west-1 (1 host)': [1, 0.1204, 0.1204],
      'inter-AZ us-east-1 (out + in)': [25, 0.02, 0.5],
      'inter-region us-east-1 → eu-west-1': [50, 0.02, 1],
      'inter-region eu-west-1 → us-east-1': [5, 0.02, 0.1],
      'egress us-east-1 → outside AWS': [2, 0.09, 0.18],
    });
    expect(estimate.usd).toBe(2.19);
    expect(estimate.priceTableDate).toBe('2025-06-01');
    expect(estimate.notes).toBeUndefined();
  });

  it('us-east-1 ↔ us-east-2 has its own pair price; an unknown type is noted, not guessed', () => {
    const estimate = estimateAwsCost(
      [host('x', 'us-east-1a', 'm5.large'), host('y', 'us-east-2a', 'z9.huge')],
      { hostSeconds: { x: 7200, y: 7200 }, flows: [{ from: 'x', to: 'y', seconds: 8, bitsPerSecond: 1e10 }] },
      loadPriceTable(),
    );
    expect(estimate.items.find((i) => i.description === 'inter-region us-east-1 → us-east-2')).toMatchObject({ quantity: 10, unitPriceUsd: 0.01, usd: 0.1 });
    expect(estimate.notes?.join()).toMatch(/no price for z9\.huge in us-east-2/);
    expect(estimate.usd).toBe(0.29);
  });

  it('a user price file overrides entries and keeps the rest', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'nb-aws-prices-')), 'prices.json');
    writeFileSync(file, JSON.stringify({ date: '2026-11-01', hourly: { 'us-east-1': { 'm5.large': 1 } }, egress: { interZonePerGbEachWay: 0.05 } }));
    const table = loadPriceTable(file);
    expect(table.hourly['us-east-1']?.['m5.large']).toBe(1);
    expect(table.hourly['us-east-1']?.['m5.xlarge']).toBe(0.192);
    const estimate = estimateAwsCost(
      [host('a', 'us-east-1a', 'm5.large'), host('b', 'us-east-1b', 'm5.large')],
      { hostSeconds: { a: 3600, b: 3600 }, flows: [{ from: 'a', to: 'b', seconds: 8, bitsPerSecond: 1e9 }] },
      table,
    );
    expect(estimate.usd).toBe(2.1); // 2 h × $1 + 1 GB × (0.05 out + 0.05 in)
    expect(estimate.priceTableDate).toBe('2026-11-01');
    writeFileSync(file, '{"hourly": {"us-east-1": {"m5.large": "cheap"}}}');
    expect(() => loadPriceTable(`${file}`)).not.toThrow(); // cached by path: the first read wins within a process
    const bad = join(mkdtempSync(join(tmpdir(), 'nb-aws-prices-')), 'bad.json');
    writeFileSync(bad, '{"hourly": {"us-east-1": {"m5.large": "cheap"}}}');
    expect(() => loadPriceTable(bad)).toThrow(/price file .*bad\.json/);
  });
});
