import { NetbenchError } from '@netbench/plugin-api';
import { describe, expect, test } from 'vitest';
import { TestResolver } from '../spec/__fixtures__/test-plugins.js';
import { loadSpec } from '../spec/load-spec.js';
import { createPlan } from './create-plan.js';

const resolver = new TestResolver();
async function plan(text: string, sets?: string[]) {
  const { spec } = await loadSpec({ text, file: 'plan.yaml' }, resolver, { sets });
  return createPlan(spec, resolver);
}

const WEST1 = '[us-west1-a, us-west1-b, us-west1-c]';

describe('PKB whitepaper semantics', () => {
  test('fmatrix with tests x streams expanded by the tool: 6 zone pairs x 12 = 72 trials on 6 hosts', async () => {
    const p = await plan(`name: interzone
hosts:
  vm1: { cloud: local, zone: "\${zones}" }
  vm2: { cloud: local, zone: "\${extra_zones}" }
benchmarks:
  - tool: netperf
    client: vm1
    server: vm2
    tests: [TCP_RR, TCP_STREAM, UDP_RR, UDP_STREAM]
    streams: [1, 4, 32]
    duration: 30
matrix:
  axes: { zones: ${WEST1}, extra_zones: ${WEST1} }
  filter: zones != extra_zones
`);
    expect(p.cells).toBe(6);
    expect(p.trials).toHaveLength(72);
    expect(p.fleet.map((h) => h.id)).toEqual([
      'vm1@zones=us-west1-a',
      'vm1@zones=us-west1-b',
      'vm1@zones=us-west1-c',
      'vm2@extra_zones=us-west1-b',
      'vm2@extra_zones=us-west1-c',
      'vm2@extra_zones=us-west1-a',
    ]);
    expect(p.fleet[0]).toEqual({ id: 'vm1@zones=us-west1-a', name: 'vm1', cloud: 'local', config: { zone: 'us-west1-a' } });
    const first = p.trials[0]!;
    expect(first).toMatchObject({
      id: 't0001',
      index: 0,
      benchmark: 0,
      benchmarkName: 'netperf',
      tool: 'netperf',
      test: 'TCP_RR',
      params: { streams: 1, duration: 30 },
      client: 'vm1@zones=us-west1-a',
      server: 'vm2@extra_zones=us-west1-b',
      ip: 'internal',
      cell: { zones: 'us-west1-a', extra_zones: 'us-west1-b' },
      estimatedSeconds: 30,
    });
    expect(p.trials.at(-1)?.id).toBe('t0072');
    expect(new Set(p.trials.map((t) => `${t.client}>${t.server}:${t.test}:${t.params.streams}`)).size).toBe(72);
    expect(p.estimatedSeconds).toBe(72 * 30);
  });

  test('fmatrix with tests and streams as matrix axes: 72 cells, 72 trials, still 6 hosts, streams stay numbers', async () => {
    const p = await plan(`name: interzone-axes
hosts:
  vm1: { cloud: local, zone: "\${zones}" }
  vm2: { cloud: local, zone: "\${extra_zones}" }
benchmarks:
  - tool: netperf
    name: \${test}-x\${streams}
    client: vm1
    server: vm2
    tests: ['\${test}']
    streams: ['\${streams}']
    duration: 30
matrix:
  axes:
    zones: ${WEST1}
    extra_zones: ${WEST1}
    test: [TCP_RR, TCP_STREAM, UDP_RR, UDP_STREAM]
    streams: [1, 4, 32]
  filter: zones != extra_zones
`);
    expect(p.cells).toBe(72);
    expect(p.trials).toHaveLength(72);
    expect(p.fleet).toHaveLength(6);
    expect(p.trials[8]).toMatchObject({ test: 'UDP_RR', benchmarkName: 'UDP_RR-x32', params: { streams: 32, duration: 30 } });
    expect(typeof p.trials[8]?.params.streams).toBe('number');
  });

  test('inter-region ping: 20 zones, zone < extra_zone gives 190 trials; a host per zone it is used in', async () => {
    const zones = `[asia-east1-a, asia-east2-a, asia-northeast1-a, asia-northeast2-a, asia-south1-a, asia-southeast1-a,
      australia-southeast1-a, europe-north1-a, europe-west1-c, europe-west2-a, europe-west3-a, europe-west4-a,
      europe-west6-a, northamerica-northeast1-a, southamerica-east1-a, us-central1-a, us-east1-b, us-east4-a,
      us-west1-a, us-west2-a]`;
    const p = await plan(`name: inter-region
hosts:
  src: { cloud: local, zone: "\${zone}" }
  dst: { cloud: local, zone: "\${extra_zone}" }
benchmarks:
  - { tool: ping, client: src, server: dst, count: 5, interval: 0.2, direction: forward }
matrix:
  axes: { zone: ${zones}, extra_zone: ${zones} }
  filter: zone < extra_zone
`);
    expect(p.cells).toBe(190);
    expect(p.trials).toHaveLength(190);
    // The last zone is never a client, the first never a server.
    expect(p.fleet.filter((h) => h.name === 'src')).toHaveLength(19);
    expect(p.fleet.filter((h) => h.name === 'dst')).toHaveLength(19);
    expect(p.trials.every((t) => t.test === 'icmp' && t.estimatedSeconds === 1)).toBe(true);
  });
});

describe('fleet', () => {
  test('a host without variables is provisioned once for every cell; config gets the cloud defaults', async () => {
    const p = await plan(`name: reuse
hosts:
  a: { cloud: local }
  b: { cloud: local, zone: "lab-\${n}" }
benchmarks:
  - { tool: ping, client: a, server: b, count: "\${n}", direction: forward }
matrix:
  axes: { n: [1, 2, 3], rep: [1, 2] }
`);
    expect(p.trials).toHaveLength(6);
    expect(p.fleet.map((h) => [h.id, h.config])).toEqual([
      ['a', { zone: 'lab-a' }],
      ['b@n=1', { zone: 'lab-1' }],
      ['b@n=2', { zone: 'lab-2' }],
      ['b@n=3', { zone: 'lab-3' }],
    ]);
    expect(p.trials.map((t) => t.server)).toEqual(['b@n=1', 'b@n=1', 'b@n=2', 'b@n=2', 'b@n=3', 'b@n=3']);
    expect(p.trials.map((t) => t.params.count)).toEqual([1, 1, 2, 2, 3, 3]);
  });

  test('reuse: false gives a distinct host per cell, shared by the benchmarks of that cell', async () => {
    const p = await plan(`name: fresh
hosts:
  a: { cloud: local }
  b: { cloud: local, reuse: false }
benchmarks:
  - { tool: ping, client: a, server: b, direction: forward }
  - { tool: iperf3, client: a, server: b, duration: 2 }
matrix:
  axes: { rep: [1, 2, 3] }
`);
    expect(p.fleet.map((h) => h.id)).toEqual(['a', 'b#0', 'b#1', 'b#2']);
    expect(p.trials.map((t) => t.server)).toEqual(['b#0', 'b#0', 'b#1', 'b#1', 'b#2', 'b#2']);
  });

  test('two variable combinations that give the same config share one host', async () => {
    const p = await plan(`name: same
hosts:
  a: { cloud: local, zone: "\${x}\${y}" }
  b: { cloud: local }
benchmarks:
  - { tool: ping, client: a, server: b, direction: forward }
matrix:
  axes: { x: [p, pq], y: [qr, r] }
`);
    // pqr twice, pr, pqqr.
    expect(p.fleet.filter((h) => h.name === 'a').map((h) => h.config.zone)).toEqual(['pqr', 'pr', 'pqqr']);
    expect(p.trials[0]?.client).toBe(p.trials[3]?.client);
  });

  test('a host with one variant keeps its plain name even when its template uses a variable', async () => {
    const p = await plan(`name: one
hosts:
  a: { cloud: local, zone: "\${z}" }
  b: { cloud: local }
benchmarks:
  - { tool: ping, client: a, server: b, direction: forward }
matrix:
  axes: { z: [only], rep: [1, 2] }
`);
    expect(p.fleet.map((h) => h.id)).toEqual(['a', 'b']);
  });
});

describe('plan', () => {
  test('typed substitution: a whole ${var} keeps the number, inside a string it interpolates', async () => {
    const p = await plan(`name: typed
hosts: { a: { cloud: local }, b: { cloud: local } }
benchmarks:
  - { tool: netperf, name: "np-\${d}s", client: a, server: b, duration: "\${d}", streams: ["\${s}"] }
matrix:
  axes: { d: [5, 2.5], s: [8] }
`);
    expect(p.trials.map((t) => [t.benchmarkName, t.params.duration, t.params.streams])).toEqual([
      ['np-5s', 5, 8],
      ['np-2.5s', 2.5, 8],
    ]);
  });

  test('--set reaches the plan; estimated time is divided by concurrency', async () => {
    const text = `name: sets
hosts: { a: { cloud: local }, b: { cloud: local } }
benchmarks:
  - { tool: netperf, client: a, server: b, tests: [TCP_RR, UDP_RR], duration: 10 }
`;
    const p = await plan(text, ['benchmarks.0.duration=2', 'options.concurrency=2', 'hosts.b.zone=z9']);
    expect(p.trials.map((t) => t.params.duration)).toEqual([2, 2]);
    expect(p.estimatedSeconds).toBe(2);
    expect(p.fleet[1]?.config).toEqual({ zone: 'z9' });
  });

  test('a 10,000-trial plan', async () => {
    const hundred = `[${Array.from({ length: 100 }, (_, i) => i + 1).join(', ')}]`;
    const p = await plan(`name: big
hosts:
  a: { cloud: local, zone: "z\${x}" }
  b: { cloud: local }
benchmarks:
  - { tool: ping, client: a, server: b, count: "\${y}", direction: forward }
matrix:
  axes: { x: ${hundred}, y: ${hundred} }
`);
    expect(p.cells).toBe(10_000);
    expect(p.trials).toHaveLength(10_000);
    expect(p.trials[0]?.id).toBe('t00001');
    expect(p.trials[9_999]?.id).toBe('t10000');
    expect(p.fleet).toHaveLength(101);
    expect(p.trials[9_999]).toMatchObject({ client: 'a@x=100', server: 'b', params: { count: 100 } });
  });

  test('a benchmark whose official tool is not installed cannot be planned', async () => {
    const { spec, warnings } = await loadSpec(
      {
        text: `name: w
hosts: { a: { cloud: local }, b: { cloud: local } }
benchmarks:
  - { tool: fping, client: a, server: b, count: 3 }
`,
      },
      resolver,
    );
    expect(warnings).toHaveLength(1);
    await expect(createPlan(spec, resolver)).rejects.toThrow(
      new NetbenchError("benchmarks.0: tool 'fping' needs @netbench/plugin-fping, which is not installed; cannot plan its trials"),
    );
  });
});

describe('the trial limit', () => {
  const sized = (a: number, b: number, repetitions = 1) => `name: big
hosts:
  c: { cloud: local }
  s: { cloud: local }
benchmarks:
  - tool: netperf
    client: c
    server: s
    tests: [TCP_RR, TCP_STREAM, UDP_RR, UDP_STREAM]
    streams: [1, 4, 32]
    duration: 1
matrix:
  axes: { a: [${Array.from({ length: a }, (_, i) => i).join(', ')}], b: [${Array.from({ length: b }, (_, i) => i).join(', ')}] }
options: { repetitions: ${repetitions} }
`;

  test('a few KB that multiply past 100,000 trials are refused while planning, before the rest is made', async () => {
    // 120 × 100 cells × 12 trials = 144,000: refused after about 8,334 cells, with what was counted.
    const error = await plan(sized(120, 100)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetbenchError);
    expect((error as Error).message).toMatch(/matrix {2}the spec plans at least 100,0\d\d trials after 8,3\d\d of 12,000 matrix cells; the limit is 100,000\. Narrow the matrix/);
    // Repetitions count too.
    const repeated = await plan(sized(10, 10, 100)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((repeated as Error).message).toMatch(/\(with options\.repetitions: 100\); the limit is 100,000/);
    // Just below the limit it plans.
    expect((await plan(sized(10, 10, 80))).trials).toHaveLength(96_000);
  });
});
