import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateGcpCost } from './cost.js';
import { requests } from './test-support/harness.js';

describe('estimateGcpCost', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nbt-gcp-cost-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const none = () => join(dir, 'none.json');

  it('prices instance-hours by machine type and region', () => {
    const hosts = requests({
      a: { zone: 'us-central1-a', machineType: 'n1-standard-4' },
      b: { zone: 'us-central1-b', machineType: 'n1-standard-4' },
      c: { zone: 'us-east4-c', machineType: 'n1-standard-4' },
    });
    const estimate = estimateGcpCost(hosts, { hostSeconds: { a: 3600, b: 1800, c: 3600 }, flows: [] }, none());
    expect(estimate.priceTableDate).toBe('2026-11-22');
    expect(estimate.items.map((i) => [i.description, i.quantity, i.usd])).toEqual([
      ['n1-standard-4 in us-central1 (2 hosts)', 1.5, 0.285],
      ['n1-standard-4 in us-east4 (1 host)', 1, 0.2139],
    ]);
    expect(estimate.usd).toBeCloseTo(0.4989, 4);
  });

  it('charges egress the sender pays: free in-zone, $0.01/GiB inter-zone, by continents inter-region, by tier to the internet', () => {
    const hosts = requests({
      a: { zone: 'us-west1-a' },
      a2: { zone: 'us-west1-a' },
      b: { zone: 'us-west1-b' },
      eu: { zone: 'europe-west1-b' },
      std: { zone: 'us-west1-c', networkTier: 'standard' },
    });
    const gib = 8 * 2 ** 30; // bits in one GiB
    const flows = [
      { from: 'a', to: 'a2', seconds: 10, bitsPerSecond: gib / 10 },
      { from: 'a', to: 'b', seconds: 10, bitsPerSecond: gib / 10 },
      { from: 'a', to: 'eu', seconds: 10, bitsPerSecond: gib / 10 },
      { from: 'a', to: 'aws-vm', seconds: 10, bitsPerSecond: gib / 10 },
      { from: 'std', to: 'aws-vm', seconds: 10, bitsPerSecond: gib / 10 },
      { from: 'aws-vm', to: 'a', seconds: 10, bitsPerSecond: gib / 10 },
    ];
    const estimate = estimateGcpCost(hosts, { hostSeconds: {}, flows }, none());
    const egress = estimate.items.filter((i) => i.unit === 'GiB').map((i) => [i.description, i.quantity, i.unitPriceUsd]);
    expect(egress).toEqual([
      ['egress us-west1-a → us-west1-b (inter-zone)', 1, 0.01],
      ['egress us-west1 → europe-west1 (inter-region)', 1, 0.05],
      ['egress us-west1 → internet (aws-vm, premium tier)', 1, 0.12],
      ['egress us-west1 → internet (aws-vm, standard tier)', 1, 0.085],
    ]);
  });

  it('counts a flow with no rate at the machine type cap, and says so', () => {
    const hosts = requests({ a: { zone: 'us-central1-a', machineType: 'n2-standard-4' }, b: { zone: 'us-central1-b', machineType: 'n2-standard-4' } });
    const estimate = estimateGcpCost(hosts, { hostSeconds: {}, flows: [{ from: 'a', to: 'b', seconds: 60 }] }, none());
    expect(estimate.items[1]!.quantity).toBeCloseTo((8e9 * 60) / 8 / 2 ** 30, 6);
    expect(estimate.notes!.join('\n')).toMatch(/flows without a target rate counted at the n2-standard-4 bandwidth of 8 Gbit\/s/);
  });

  it('merges a user price file over the shipped table, and notes unknown types', async () => {
    const file = join(dir, 'gcp.json');
    await writeFile(file, JSON.stringify({ date: '2027-01-01', instances: { 'n1-standard-4': 1 }, regional: { 'us-east4': { 'n1-standard-4': 2 } } }));
    const hosts = requests({
      a: { zone: 'us-central1-a', machineType: 'n1-standard-4' },
      b: { zone: 'us-east4-a', machineType: 'n1-standard-4' },
      c: { zone: 'us-central1-a', machineType: 'z9-mega-1' },
    });
    const estimate = estimateGcpCost(hosts, { hostSeconds: { a: 3600, b: 3600, c: 3600 }, flows: [] }, file);
    expect(estimate.priceTableDate).toBe('2027-01-01');
    expect(estimate.items.map((i) => i.unitPriceUsd)).toEqual([1, 2, 0]);
    expect(estimate.notes!.join('\n')).toMatch(/no price for z9-mega-1/);
    expect(estimate.notes!.join('\n')).toContain(file);
  });

  it("adds Cloud VPN tunnel-hours and gateway addresses for the run's vpn, for its longest-lived host", () => {
    const vpn = { gateways: 1, tunnels: 2, ikeVersion: 2 };
    const hosts = requests({
      a: { zone: 'us-west1-b', machineType: 'n1-standard-4', vpcGroup: 'a', vpn, cidr: '10.0.1.0/24' },
      b: { zone: 'us-central1-c', machineType: 'n1-standard-4', vpcGroup: 'b', vpn, cidr: '192.168.1.0/24' },
    });
    const without = estimateGcpCost(
      requests({ a: { zone: 'us-west1-b', machineType: 'n1-standard-4' }, b: { zone: 'us-central1-c', machineType: 'n1-standard-4' } }),
      { hostSeconds: { a: 7200, b: 3600 }, flows: [] },
      none(),
    );
    const estimate = estimateGcpCost(hosts, { hostSeconds: { a: 7200, b: 3600 }, flows: [] }, none());
    const vpnItems = estimate.items.filter((i) => i.description.startsWith('Cloud VPN'));
    // 4 tunnels (2 per gateway pair, each way) and 2 addresses for 2 hours.
    expect(vpnItems.map((i) => [i.unit, i.quantity, i.unitPriceUsd, i.usd])).toEqual([
      ['tunnel-hour', 8, 0.05, 0.4],
      ['address-hour', 4, 0.005, 0.02],
    ]);
    expect(estimate.usd).toBeCloseTo(without.usd + 0.42, 6);
    expect(estimate.notes).toContain(
      'Cloud VPN (classic, static routing, IKEv2) between a and b: 2 external addresses, 2 target VPN gateways, 6 forwarding rules (ESP, UDP 500, UDP 4500), 4 VPN tunnels, 4 static routes',
    );
  });

  it('HA VPN: tunnel-hours at the Classic tunnel price (2 interfaces per gateway), no address or Cloud Router charge', () => {
    const vpn = { type: 'ha', routing: 'dynamic', gateways: 1, tunnels: 2, ikeVersion: 2 };
    const hosts = requests({
      a: { zone: 'us-west1-b', machineType: 'n1-standard-4', vpcGroup: 'a', vpn, cidr: '10.0.1.0/24' },
      b: { zone: 'us-central1-c', machineType: 'n1-standard-4', vpcGroup: 'b', vpn, cidr: '192.168.1.0/24' },
    });
    const without = estimateGcpCost(
      requests({ a: { zone: 'us-west1-b', machineType: 'n1-standard-4' }, b: { zone: 'us-central1-c', machineType: 'n1-standard-4' } }),
      { hostSeconds: { a: 7200, b: 3600 }, flows: [] },
      none(),
    );
    const estimate = estimateGcpCost(hosts, { hostSeconds: { a: 7200, b: 3600 }, flows: [] }, none());
    const vpnItems = estimate.items.filter((i) => /VPN/.test(i.description));
    // 8 tunnels (2 per interface pair, 2 interfaces, each way) for 2 hours.
    expect(vpnItems.map((i) => [i.unit, i.quantity, i.unitPriceUsd, i.usd])).toEqual([['tunnel-hour', 16, 0.05, 0.8]]);
    expect(estimate.usd).toBeCloseTo(without.usd + 0.8, 6);
    expect(estimate.notes).toContain('Cloud VPN (ha, dynamic routing, IKEv2) between a and b: 2 Cloud Routers (BGP), 2 HA VPN gateways (2 interfaces each), 8 VPN tunnels');
    expect(estimate.notes!.join('\n')).toMatch(/Cloud Router has no charge/);
  });
});
