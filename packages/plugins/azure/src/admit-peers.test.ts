import type { LedgerEntry } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { freePriority, runNsgs } from './admit-peers.js';
import { peerSources } from './peer-sources.js';

describe('peerSources', () => {
  it('turns addresses into /32 and /128 prefixes per family, in order, without repeats', () => {
    const s = peerSources([
      { id: 'a', cloud: 'aws', addresses: ['198.51.100.4', '172.31.5.9'] },
      { id: 'b', cloud: 'gcp', addresses: ['2001:DB8:0:1::5', '198.51.100.4'] },
    ]);
    expect(s).toEqual({ v4: ['198.51.100.4/32', '172.31.5.9/32'], v6: ['2001:db8:0:1::5/128'], skipped: [] });
  });

  it('skips names and addresses no packet reaching Azure comes from, saying why', () => {
    const s = peerSources([{ id: 'x', cloud: 'static', addresses: ['lab.example.com', '127.0.0.5', '0.0.0.0', '169.254.1.1', '::1', '::', 'fe80::1', 'febf::2', '10.0.0.1'] }]);
    expect(s.v4).toEqual(['10.0.0.1/32']);
    expect(s.v6).toEqual([]);
    expect(s.skipped.map((k) => [k.address, k.reason])).toEqual([
      ['lab.example.com', 'not an IP address'],
      ...['127.0.0.5', '0.0.0.0', '169.254.1.1', '::1', '::', 'fe80::1', 'febf::2'].map((a) => [a, 'loopback, unspecified or link-local']),
    ]);
  });
});

describe('freePriority', () => {
  it('is the first priority from 140 no rule takes, below the deny rule at 4000', () => {
    expect(freePriority(new Set([100, 110, 120, 130, 4000]))).toBe(140);
    expect(freePriority(new Set([140, 141, 143]))).toBe(142);
    expect(() => freePriority(new Set(Array.from({ length: 4000 - 140 }, (_, i) => 140 + i)))).toThrow(/no free security rule priority/);
  });
});

describe('runNsgs', () => {
  const NSG = '/subscriptions/s1/resourceGroups/nb-run/providers/Microsoft.Network/networkSecurityGroups/nb-run-eastus-nsg';
  const line = (phase: LedgerEntry['phase'], type: string, id: string, data?: Record<string, unknown>): LedgerEntry => ({
    seq: 0,
    time: '',
    runId: 'run',
    plugin: 'azure',
    phase,
    resource: { type, id, ...(data ? { data } : {}) },
  });

  it('reads each created security group once, with its location and application security group', () => {
    const data = { inRunGroup: true, location: 'eastus', asgId: 'ASG' };
    const entries = [line('intent', 'azure-nsg', NSG, data), line('created', 'azure-nsg', NSG, data), line('created', 'azure-vnet', 'V'), line('created', 'azure-nsg', NSG, data)];
    expect(runNsgs(entries)).toEqual([{ id: NSG, subscriptionId: 's1', group: 'nb-run', name: 'nb-run-eastus-nsg', location: 'eastus', asgId: 'ASG' }]);
    expect(runNsgs([line('intent', 'azure-nsg', NSG, data), line('failed', 'azure-nsg', NSG, data)])).toEqual([]);
  });

  it('refuses an entry that names no application security group', () => {
    expect(() => runNsgs([line('created', 'azure-nsg', NSG, { inRunGroup: true })])).toThrow(/names no application security group/);
  });
});
