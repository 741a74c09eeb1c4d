import { join } from 'node:path';
import { createPlan, createRegistry, loadSpec, placementFacts, placementWarnings } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { checkSpecText } from './check-spec-text.js';
import { generateSpec } from './generate-spec.js';

const repo = join(import.meta.dirname, '../../../..');
const registry = createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false });

describe('generateSpec: the wizard answers as a spec', () => {
  it('measures every pair with every chosen tool, and validates', async () => {
    const text = generateSpec({
      name: 'Three Sites',
      question: 'latency',
      sites: [{ kind: 'local' }, { kind: 'local' }, { kind: 'local' }],
      tools: ['ping', 'netperf'],
      durationSeconds: 2,
    });
    expect(text).toContain('name: three-sites');
    const check = await checkSpecText(registry, text);
    expect(check.ok).toBe(true);
    // 3 pairs × (ping forward + netperf TCP_RR) × 3 repetitions (the default), in random order.
    expect(check.ok && check.plan.trials.length).toBe(18);
    expect(text).toMatch(/options:\n {2}repetitions: 3\n {2}order: random/);
    expect(check.ok && new Set(check.plan.trials.map((t) => t.test))).toEqual(new Set(['icmp', 'TCP_RR']));
  });

  it('pins both ends of a local-lab pair to CPUs of their own: its spec carries no warning', async () => {
    const text = generateSpec({
      name: 'lab',
      question: 'onprem',
      tools: ['ping', 'netperf', 'iperf3'],
      direction: 'both',
      durationSeconds: 2,
      sites: [{ kind: 'local' }, { kind: 'local' }],
    });
    const check = await checkSpecText(registry, text);
    expect(check.ok, JSON.stringify(check)).toBe(true);
    expect(check.warnings).toEqual([]);
    // On a 2-CPU machine too, whatever this one has.
    const { spec, blocks } = await loadSpec({ text, file: 'spec.yaml' }, registry);
    const plan = await createPlan(spec, registry, blocks);
    expect(placementWarnings(plan, 2, await placementFacts(plan, registry))).toEqual([]);
    expect(plan.trials.every((t) => t.params['cpu_client'] === 0 && (t.tool === 'ping' || t.params['cpu_server'] === 1))).toBe(true);
  });

  it("writes cloud zones, machine types and SSH machines in each plugin's fields", async () => {
    const text = generateSpec({
      name: 'onprem',
      question: 'onprem',
      tools: ['iperf3'],
      durationSeconds: 10,
      sites: [
        { kind: 'ssh', address: '127.0.0.1', user: 'bench', port: 2222, key: '~/.ssh/id_ed25519' },
        { kind: 'cloud', cloud: 'gcp', zone: 'us-central1-a', machineType: 'n2-standard-2' },
      ],
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

  it("sets direction, streams, protocol, netperf tests and repetitions; the plan shows each trial's parameters", async () => {
    const text = generateSpec({
      name: 'dir',
      question: 'throughput',
      tools: ['iperf3', 'netperf', 'ping'],
      durationSeconds: 2,
      sites: [{ kind: 'local' }, { kind: 'local' }],
      direction: 'both',
      streams: 4,
      protocol: 'both',
      netperfTests: ['TCP_STREAM', 'TCP_RR'],
      repetitions: 2,
    });
    const check = await checkSpecText(registry, text);
    if (!check.ok) throw new Error(JSON.stringify(check.issues));
    const trials = check.plan.trials;
    const iperf = trials.filter((t) => t.tool === 'iperf3');
    // forward and reverse × tcp and udp × 2 repetitions.
    expect(iperf).toHaveLength(8);
    expect(new Set(iperf.map((t) => `${t.params?.['reverse']}/${t.params?.['protocol']}/${t.params?.['streams']}`))).toEqual(
      new Set(['false/tcp/4', 'true/tcp/4', 'false/udp/4', 'true/udp/4']),
    );
    // TCP_STREAM both ways is TCP_STREAM and TCP_MAERTS; TCP_RR once.
    expect(new Set(trials.filter((t) => t.tool === 'netperf').map((t) => t.test))).toEqual(new Set(['TCP_STREAM', 'TCP_MAERTS', 'TCP_RR']));
    expect(new Set(trials.filter((t) => t.tool === 'ping').map((t) => t.params?.['direction']))).toEqual(new Set(['forward', 'reverse']));
    expect(new Set(trials.map((t) => t.params?.['repetition']))).toEqual(new Set([1, 2]));
  });

  it("shapes the rate on the hosts that send bulk traffic, in bits (never tc's byte units); delay and loss on every local host", async () => {
    const forward = generateSpec({
      name: 's',
      question: 'throughput',
      tools: ['iperf3'],
      durationSeconds: 2,
      sites: [{ kind: 'local' }, { kind: 'local' }],
      shaping: { rateMbit: 100 },
    });
    // client → server only: the client sends, the server only acknowledges.
    expect(forward).toMatch(/local-1:\n {4}cloud: local\n {4}link:\n {6}rate: 100mbit\n {2}local-2:\n {4}cloud: local\n/);
    expect((await checkSpecText(registry, forward)).ok).toBe(true);
    const both = generateSpec({
      name: 's',
      question: 'throughput',
      tools: ['iperf3'],
      direction: 'both',
      durationSeconds: 2,
      sites: [{ kind: 'local' }, { kind: 'local' }],
      shaping: { rateMbit: 100 },
    });
    expect(both.match(/link:\n {6}rate: 100mbit\n/g)).toHaveLength(2);
    const netem = generateSpec({
      name: 's',
      question: 'latency',
      tools: ['ping'],
      durationSeconds: 1,
      sites: [{ kind: 'local' }, { kind: 'local' }],
      shaping: { rateMbit: 50, delayMs: 10, lossPercent: 0.5 },
    });
    // ping sends no bulk traffic: no rate; delay and loss cross both ways.
    expect(netem.match(/link:\n {6}delay: 10ms\n {6}loss: 0.5%\n/g)).toHaveLength(2);
    expect(netem).not.toContain('rate:');
  });

  it('uses the matrix over zones for three or more sites of one cloud and machine type', async () => {
    const zones = ['us-central1-c', 'us-central1-a', 'us-central1-b', 'us-central1-f'];
    const text = generateSpec({
      name: 'm',
      question: 'latency',
      tools: ['netperf'],
      durationSeconds: 5,
      repetitions: 1,
      sites: zones.map((zone) => ({ kind: 'cloud', cloud: 'gcp', zone, machineType: 'n2-standard-4' })),
    });
    expect(text).toContain('filter: zone_a < zone_b');
    expect(text.match(/tool: netperf/g)).toHaveLength(1);
    const check = await checkSpecText(registry, text);
    if (!check.ok) throw new Error(JSON.stringify(check.issues));
    // Each unordered pair of the 4 zones once: 6 TCP_RR trials.
    expect(check.plan.trials).toHaveLength(6);
    // Mixed sites are written out pair by pair.
    const mixed = generateSpec({
      name: 'x',
      question: 'latency',
      tools: ['ping'],
      durationSeconds: 1,
      sites: [
        { kind: 'local' },
        { kind: 'cloud', cloud: 'gcp', zone: 'us-central1-a', machineType: 'n2-standard-4' },
        { kind: 'cloud', cloud: 'gcp', zone: 'us-central1-b', machineType: 'n2-standard-4' },
      ],
    });
    expect(mixed).not.toContain('matrix');
    expect(mixed.match(/tool: ping/g)).toHaveLength(3);
  });

  it("lists each cloud's itemised cost (instances, egress)", async () => {
    const text = generateSpec({
      name: 'c',
      question: 'throughput',
      tools: ['iperf3'],
      durationSeconds: 60,
      sites: [
        { kind: 'cloud', cloud: 'aws', zone: 'us-east-1a', machineType: 'c5n.xlarge' },
        { kind: 'cloud', cloud: 'aws', zone: 'us-east-1b', machineType: 'c5n.xlarge' },
      ],
    });
    const check = await checkSpecText(registry, text);
    if (!check.ok) throw new Error(JSON.stringify(check.issues));
    const items = check.cost.clouds.find((c) => c.cloud === 'aws')?.items ?? [];
    expect(items.some((i) => /c5n\.xlarge/.test(i.description))).toBe(true);
    expect(items.some((i) => /inter-AZ|transfer|egress/i.test(i.description) && i.unit === 'GB')).toBe(true);
    expect(items.reduce((sum, i) => sum + i.usd, 0)).toBeCloseTo(check.cost.usd, 1);
  });

  it('guards the max cost', async () => {
    const text = generateSpec({
      name: 'c',
      question: 'throughput',
      tools: ['iperf3'],
      durationSeconds: 60,
      sites: [
        { kind: 'cloud', cloud: 'aws', zone: 'us-east-1a', machineType: 'm5.large' },
        { kind: 'cloud', cloud: 'aws', zone: 'us-east-1b', machineType: 'm5.large' },
      ],
    });
    const check = await checkSpecText(registry, text, 0.0001);
    expect(check).toMatchObject({ ok: true, overBudget: true });
  });
});

describe("generateSpec: pairs, accounts and the questions' tests", () => {
  const awsGcp = [
    { kind: 'cloud', cloud: 'aws', zone: 'us-east-1a', machineType: 'c5n.xlarge' },
    { kind: 'cloud', cloud: 'aws', zone: 'us-east-1b', machineType: 'c5n.xlarge' },
    { kind: 'cloud', cloud: 'gcp', zone: 'us-central1-a', machineType: 'n2-standard-4' },
    { kind: 'cloud', cloud: 'gcp', zone: 'us-central1-b', machineType: 'n2-standard-4' },
  ] as const;

  it('measures within each cloud unless cross-cloud pairs are asked for', async () => {
    const pairsOf = async (pairs?: 'within-cloud' | 'all') => {
      const text = generateSpec({ name: 'aws-vs-gcp', question: 'latency', tools: ['netperf'], durationSeconds: 5, repetitions: 1, sites: awsGcp, ...(pairs ? { pairs } : {}) });
      const check = await checkSpecText(registry, text);
      if (!check.ok) throw new Error(JSON.stringify(check.issues));
      return { pairs: check.plan.trials.map((t) => `${t.client}>${t.server}`).sort(), usd: check.cost.usd };
    };
    const within = await pairsOf();
    expect(within.pairs).toEqual(['aws-us-east-1a>aws-us-east-1b', 'gcp-us-central1-a>gcp-us-central1-b']);
    const all = await pairsOf('all');
    expect(all.pairs).toHaveLength(6);
    // The four cross-cloud pairs pay internet egress: the estimate is higher.
    expect(all.usd).toBeGreaterThan(within.usd);
    // One place per cloud: the default measures the cross-cloud pair; an explicit within-cloud says why it cannot.
    const two = [awsGcp[0], awsGcp[2]];
    expect(generateSpec({ name: 'x', question: 'latency', tools: ['ping'], durationSeconds: 1, sites: two })).toContain('server: gcp-us-central1-a');
    expect(() => generateSpec({ name: 'x', question: 'latency', tools: ['ping'], durationSeconds: 1, sites: two, pairs: 'within-cloud' })).toThrow(
      /every pair of these places is on two different clouds/,
    );
  });

  it("writes the GCP project and Azure subscription in the plugins' host fields", async () => {
    const subscription = '0a1b2c3d-0000-4000-8000-00000000abcd';
    const text = generateSpec({
      name: 'acct',
      question: 'latency',
      tools: ['ping'],
      durationSeconds: 1,
      pairs: 'all',
      accounts: { gcpProject: 'my-project-1', azureSubscription: subscription },
      sites: [awsGcp[0], awsGcp[2], { kind: 'cloud', cloud: 'azure', zone: 'eastus-1', machineType: 'Standard_D4s_v5' }],
    });
    expect(text.match(/project: my-project-1/g)).toHaveLength(1);
    expect(text.match(new RegExp(`subscription: ${subscription}`, 'g'))).toHaveLength(1);
    const check = await checkSpecText(registry, text);
    expect(check.ok ? [] : check.issues).toEqual([]);
  });

  it('counts packets per second with small packets: 64-byte netperf UDP_STREAM and iperf3 UDP at a rate above any packet rate', async () => {
    const text = generateSpec({ name: 'pps', question: 'pps', tools: ['netperf', 'iperf3'], durationSeconds: 2, repetitions: 1, sites: [{ kind: 'local' }, { kind: 'local' }] });
    const { spec } = await loadSpec({ text, file: 'spec.yaml' }, registry);
    const netperf = spec.benchmarks.find((b) => b.tool === 'netperf') as unknown as Record<string, unknown>;
    expect(netperf['tests']).toEqual(['UDP_RR', 'UDP_STREAM']);
    expect(netperf['sendSize']).toBe(64);
    const iperf = spec.benchmarks.find((b) => b.tool === 'iperf3') as unknown as Record<string, unknown>;
    expect(iperf).toMatchObject({ protocol: 'udp', length: 64, bitrate: '2G' });
  });

  it('asks latency under load as a `tool: load` test, pinned on the lab', async () => {
    const text = generateSpec({
      name: 'lul',
      question: 'load',
      tools: ['load'],
      loadTest: 'tcp_nup',
      durationSeconds: 10,
      repetitions: 1,
      sites: [{ kind: 'local' }, { kind: 'local' }],
    });
    expect(text).toMatch(/- tool: load\n {4}client: local-1\n {4}server: local-2\n {4}test: tcp_nup\n {4}duration: 10\n {4}idle: 2\n {4}cpus:\n {6}client: 0\n {6}server: 1\n/);
    const check = await checkSpecText(registry, text);
    if (!check.ok) throw new Error(JSON.stringify(check.issues));
    expect(check.plan.trials.map((t) => `${t.tool}/${t.test}`)).toEqual(['load/tcp_nup']);
    expect(check.warnings).toEqual([]);
  });
});
