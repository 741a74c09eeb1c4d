import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPlan, createRegistry, loadSpec, placementWarnings } from '@netbench/core';
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
    // 3 pairs × (ping forward + netperf TCP_RR) × 3 repetitions (the default), in random order.
    expect(check.ok && check.plan.trials.length).toBe(18);
    expect(text).toMatch(/options:\n {2}repetitions: 3\n {2}order: random/);
    expect(check.ok && new Set(check.plan.trials.map((t) => t.test))).toEqual(new Set(['icmp', 'TCP_RR']));
  });

  it('pins both ends of a local-lab pair to CPUs of their own: its spec carries no warning', async () => {
    const text = generateSpec({ name: 'lab', question: 'onprem', tools: ['ping', 'netperf', 'iperf3'], direction: 'both', durationSeconds: 2, sites: [{ kind: 'local' }, { kind: 'local' }] });
    const check = await checkSpecText(registry, text);
    expect(check.ok, JSON.stringify(check)).toBe(true);
    expect(check.warnings).toEqual([]);
    // On a 2-CPU machine too, whatever this one has.
    const { spec, blocks } = await loadSpec({ text, file: 'spec.yaml' }, registry);
    const plan = await createPlan(spec, registry, blocks);
    expect(placementWarnings(plan, 2)).toEqual([]);
    expect(plan.trials.every((t) => t.params['cpu_client'] === 0 && (t.tool === 'ping' || t.params['cpu_server'] === 1))).toBe(true);
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

  it('sets direction, streams, protocol, netperf tests and repetitions; the plan shows each trial\'s parameters', async () => {
    const text = generateSpec({
      name: 'dir', question: 'throughput', tools: ['iperf3', 'netperf', 'ping'], durationSeconds: 2, sites: [{ kind: 'local' }, { kind: 'local' }],
      direction: 'both', streams: 4, protocol: 'both', netperfTests: ['TCP_STREAM', 'TCP_RR'], repetitions: 2,
    });
    const check = await checkSpecText(registry, text);
    if (!check.ok) throw new Error(JSON.stringify(check.issues));
    const trials = check.plan.trials;
    const iperf = trials.filter((t) => t.tool === 'iperf3');
    // forward and reverse × tcp and udp × 2 repetitions.
    expect(iperf).toHaveLength(8);
    expect(new Set(iperf.map((t) => `${t.params?.['reverse']}/${t.params?.['protocol']}/${t.params?.['streams']}`))).toEqual(new Set(['false/tcp/4', 'true/tcp/4', 'false/udp/4', 'true/udp/4']));
    // TCP_STREAM both ways is TCP_STREAM and TCP_MAERTS; TCP_RR once.
    expect(new Set(trials.filter((t) => t.tool === 'netperf').map((t) => t.test))).toEqual(new Set(['TCP_STREAM', 'TCP_MAERTS', 'TCP_RR']));
    expect(new Set(trials.filter((t) => t.tool === 'ping').map((t) => t.params?.['direction']))).toEqual(new Set(['forward', 'reverse']));
    expect(new Set(trials.map((t) => t.params?.['repetition']))).toEqual(new Set([1, 2]));
  });

  it('shapes every local host\'s egress in bits (never tc\'s byte units)', async () => {
    const text = generateSpec({ name: 's', question: 'throughput', tools: ['iperf3'], durationSeconds: 2, sites: [{ kind: 'local' }, { kind: 'local' }], shaping: { rateMbit: 100 } });
    expect(text.match(/link:\n {6}rate: 100mbit\n/g)).toHaveLength(2);
    expect((await checkSpecText(registry, text)).ok).toBe(true);
    const netem = generateSpec({ name: 's', question: 'latency', tools: ['ping'], durationSeconds: 1, sites: [{ kind: 'local' }, { kind: 'local' }], shaping: { rateMbit: 50, delayMs: 10, lossPercent: 0.5 } });
    expect(netem).toContain('rate: 50mbit\n      delay: 10ms\n      loss: 0.5%\n');
  });

  it('uses the matrix over zones for three or more sites of one cloud and machine type', async () => {
    const zones = ['us-central1-c', 'us-central1-a', 'us-central1-b', 'us-central1-f'];
    const text = generateSpec({ name: 'm', question: 'latency', tools: ['netperf'], durationSeconds: 5, repetitions: 1, sites: zones.map((zone) => ({ kind: 'cloud', cloud: 'gcp', zone, machineType: 'n2-standard-4' })) });
    expect(text).toContain('filter: zone_a < zone_b');
    expect(text.match(/tool: netperf/g)).toHaveLength(1);
    const check = await checkSpecText(registry, text);
    if (!check.ok) throw new Error(JSON.stringify(check.issues));
    // Each unordered pair of the 4 zones once: 6 TCP_RR trials.
    expect(check.plan.trials).toHaveLength(6);
    // Mixed sites are written out pair by pair.
    const mixed = generateSpec({ name: 'x', question: 'latency', tools: ['ping'], durationSeconds: 1, sites: [{ kind: 'local' }, { kind: 'cloud', cloud: 'gcp', zone: 'us-central1-a', machineType: 'n2-standard-4' }, { kind: 'cloud', cloud: 'gcp', zone: 'us-central1-b', machineType: 'n2-standard-4' }] });
    expect(mixed).not.toContain('matrix');
    expect(mixed.match(/tool: ping/g)).toHaveLength(3);
  });

  it('lists each cloud\'s itemised cost (instances, egress)', async () => {
    const text = generateSpec({ name: 'c', question: 'throughput', tools: ['iperf3'], durationSeconds: 60, sites: [{ kind: 'cloud', cloud: 'aws', zone: 'us-east-1a', machineType: 'c5n.xlarge' }, { kind: 'cloud', cloud: 'aws', zone: 'us-east-1b', machineType: 'c5n.xlarge' }] });
    const check = await checkSpecText(registry, text);
    if (!check.ok) throw new Error(JSON.stringify(check.issues));
    const items = check.cost.clouds.find((c) => c.cloud === 'aws')?.items ?? [];
    expect(items.some((i) => /c5n\.xlarge/.test(i.description))).toBe(true);
    expect(items.some((i) => /inter-AZ|transfer|egress/i.test(i.description) && i.unit === 'GB')).toBe(true);
    expect(items.reduce((sum, i) => sum + i.usd, 0)).toBeCloseTo(check.cost.usd, 1);
  });

  it('guards the max cost', async () => {
    const text = generateSpec({ name: 'c', question: 'throughput', tools: ['iperf3'], durationSeconds: 60, sites: [{ kind: 'cloud', cloud: 'aws', zone: 'us-east-1a', machineType: 'm5.large' }, { kind: 'cloud', cloud: 'aws', zone: 'us-east-1b', machineType: 'm5.large' }] });
    const check = await checkSpecText(registry, text, 0.0001);
    expect(check).toMatchObject({ ok: true, overBudget: true });
  });
});
