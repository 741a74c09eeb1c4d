import type { HostRecord, RunRecord } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { flattenFingerprint, runDifferences } from './run-differences.js';

const host = (name: string, fingerprint?: Record<string, unknown>): HostRecord => ({
  id: name,
  name,
  cloud: 'local',
  internalIp: '10.0.0.1',
  labels: {},
  ...(fingerprint ? { fingerprint } : {}),
});
const run = (hosts: HostRecord[]) => ({ runId: 'r', hosts }) as unknown as RunRecord;
const print = (patch: Record<string, unknown> = {}) => ({
  kernel: '6.1.0-28-cloud-amd64',
  cpuModel: 'AMD EPYC',
  cpuCount: 2,
  congestionControl: 'cubic',
  defaultQdisc: 'pfifo_fast',
  sysctls: { 'net.core.rmem_max': '212992' },
  interfaces: [{ name: 'eth0', mtu: 1500, driver: 'veth' }],
  ...patch,
});

describe("what two runs' hosts differ in (their fingerprints)", () => {
  it("names the host and the field: kernel, a sysctl, an interface's MTU; same hosts, same fingerprint: nothing", () => {
    const before = [run([host('client', print()), host('server', print())])];
    const after = [
      run([
        host('client', print({ kernel: '6.1.0-57-amd64', sysctls: { 'net.core.rmem_max': '4194304' } })),
        host('server', print({ interfaces: [{ name: 'eth0', mtu: 9000, driver: 'veth' }] })),
      ]),
    ];
    const found = runDifferences({ runs: before, samples: [] }, { runs: after, samples: [] }).filter((d) => d.source === 'host');
    expect(found).toEqual([
      { field: 'client: kernel', source: 'host', baseline: ['6.1.0-28-cloud-amd64'], candidate: ['6.1.0-57-amd64'] },
      { field: 'client: net.core.rmem_max', source: 'host', baseline: ['212992'], candidate: ['4194304'] },
      { field: 'server: eth0.mtu', source: 'host', baseline: ['1500'], candidate: ['9000'] },
    ]);
    expect(runDifferences({ runs: before, samples: [] }, { runs: before, samples: [] })).toEqual([]);
    // A host measured without a fingerprint on one side says nothing either way.
    expect(runDifferences({ runs: before, samples: [] }, { runs: [run([host('client'), host('server')])], samples: [] })).toEqual([]);
  });

  it('flattens a fingerprint as compare names it', () => {
    expect([...flattenFingerprint(print({ offloads: { 'generic-receive-offload': 'on' } })).keys()]).toEqual([
      'kernel',
      'cpuModel',
      'cpuCount',
      'congestionControl',
      'defaultQdisc',
      'net.core.rmem_max',
      'eth0.mtu',
      'eth0.driver',
      'offload.generic-receive-offload',
    ]);
  });
});
