import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '@netbench/core';
import { checkSpecText } from './check-spec-text.js';
import { generateSpec } from './generate-spec.js';

const repo = join(import.meta.dirname, '../../../..');
const registry = createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false });

describe('generateSpec: the wizard answers as a spec', () => {
  it('measures every pair with every chosen tool, and validates', async () => {
    const text = generateSpec({ name: 'Three Sites', question: 'latency', sites: [{ kind: 'local' }, { kind: 'local' }, { kind: 'local' }], tools: ['ping', 'netperf'], durationSeconds: 2 });
    expect(text).toContain('name: three-sites');
    const check = await checkSpecText(registry, text);
    expect(check.ok).toBe(true);
    // 3 pairs × (ping both directions + netperf TCP_RR).
    expect(check.ok && check.plan.trials.length).toBe(9);
    expect(check.ok && new Set(check.plan.trials.map((t) => t.test))).toEqual(new Set(['icmp', 'TCP_RR']));
  });

  it('writes cloud zones, machine types and SSH machines in each plugin\'s fields', async () => {
    const text = generateSpec({
      name: 'onprem', question: 'onprem', tools: ['iperf3'], durationSeconds: 10,
      sites: [{ kind: 'ssh', address: '127.0.0.1', user: 'bench', port: 2222, key: '~/.ssh/id_ed25519' }, { kind: 'cloud', cloud: 'gcp', zone: 'us-central1-a', machineType: 'n2-standard-2' }],
    });
    expect(text).toContain('cloud: static');
    expect(text).toContain('address: 127.0.0.1');
    expect(text).toContain('zone: us-central1-a');
    const check = await checkSpecText(registry, text);
    expect(check.ok ? [] : check.issues).toEqual([]);
    expect(check.ok && check.plan.hosts.map((h) => h.cloud).sort()).toEqual(['gcp', 'static']);
    // GCP has a cost model: a cloud host costs something.
    expect(check.ok && check.cost.usd).toBeGreaterThan(0);
  });

  it('guards the max cost', async () => {
    const text = generateSpec({ name: 'c', question: 'throughput', tools: ['iperf3'], durationSeconds: 60, sites: [{ kind: 'cloud', cloud: 'aws', zone: 'us-east-1a', machineType: 'm5.large' }, { kind: 'cloud', cloud: 'aws', zone: 'us-east-1b', machineType: 'm5.large' }] });
    const check = await checkSpecText(registry, text, 0.0001);
    expect(check).toMatchObject({ ok: true, overBudget: true });
  });
});
